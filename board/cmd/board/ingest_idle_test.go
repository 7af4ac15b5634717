package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/opsboard/opsboard/board/internal/mail/ingest"
	"github.com/opsboard/opsboard/board/internal/testkit"
	"github.com/opsboard/opsboard/board/internal/testkit/imaptest"
)

// TestIMAPMailArrivesThroughIdle runs the daemon with an hourly scheduled
// ingest from a local IMAP server: a message appended after the first read
// is on the board long before the hour, brought by IDLE. A second source
// with a wrong password shows its error and the board stays not degraded.
func TestIMAPMailArrivesThroughIdle(t *testing.T) {
	srv := imaptest.Start(t)
	port := srv.Port
	dir := t.TempDir()
	caFile := filepath.Join(dir, "ca.pem") // the daemon trusts it as a system root
	if err := os.WriteFile(caFile, srv.CertPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf(`{"sources": [{"name": "work", "kind": "imap", "host": "127.0.0.1", "port": %d, "user": "me@example.org"},
		{"name": "typo", "kind": "imap", "host": "127.0.0.1", "port": %d, "user": "me@example.org"}]}`, port, port)
	if err := os.WriteFile(filepath.Join(dir, ingest.ConfigName), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	d := start(t, filepath.Join(dir, "board.json"), 0, "SVC_INGEST_INTERVAL=1h", "SVC_GUARD_URL=", "SSL_CERT_FILE="+caFile,
		ingest.PasswordEnv("work")+"=s3cret", ingest.PasswordEnv("typo")+"=wrong")
	testkit.Eventually(t, "the first read of both sources", func() bool {
		_, s := ingestHealth(t, d)
		return s["work"]["lastOkAt"] != "" && s["typo"]["lastError"] != ""
	})
	raw := "From: Ann <ann@example.com>\r\nTo: me@example.org\r\nSubject: idle-arrival\r\nMessage-ID: <idle-arrival@example.com>\r\n" +
		"Date: Mon, 23 Nov 2026 09:00:00 +0000\r\n\r\nhello\r\n"
	srv.Append(t, raw)
	testkit.Eventually(t, "the appended mail is on the board", func() bool { return onBoard(t, d, "idle-arrival") })
	degraded, s := ingestHealth(t, d)
	if degraded {
		t.Error("a source with a wrong password made the board degraded")
	}
	if s["typo"]["lastOkAt"] != "" || s["work"]["lastError"] != "" {
		t.Errorf("health sources %v", s)
	}
}
