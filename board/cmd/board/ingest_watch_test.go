package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opsboard/opsboard/board/internal/mail/ingest"
	"github.com/opsboard/opsboard/board/internal/testkit"
)

func writeMail(t *testing.T, path, subject string) {
	t.Helper()
	raw := fmt.Sprintf("From: Ann <ann@example.com>\r\nTo: me@example.org\r\nSubject: %s\r\nMessage-ID: <%s@example.com>\r\n"+
		"Date: Mon, 23 Nov 2026 09:00:00 +0000\r\n\r\nhello\r\n", subject, subject)
	tmp := filepath.Join(t.TempDir(), "mail")
	if err := os.WriteFile(tmp, []byte(raw), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil { // whole, as a delivery agent puts it
		t.Fatal(err)
	}
}

// health is /api/health's ingest part and its degraded flag.
func ingestHealth(t *testing.T, d *daemon) (degraded bool, sources map[string]map[string]string) {
	t.Helper()
	var h struct {
		Degraded bool `json:"degraded"`
		Ingest   *struct {
			Sources []map[string]string `json:"sources"`
		} `json:"ingest"`
	}
	if code, err := getJSON(d.url+"/api/health", &h); err != nil || code != http.StatusOK {
		t.Fatalf("health: %d %v", code, err)
	}
	sources = map[string]map[string]string{}
	if h.Ingest != nil {
		for _, s := range h.Ingest.Sources {
			sources[s["name"]] = s
		}
	}
	return h.Degraded, sources
}

func onBoard(t *testing.T, d *daemon, subject string) bool {
	t.Helper()
	code, body, err := d.do("GET", "/api/messages", "")
	return err == nil && code == http.StatusOK && strings.Contains(string(body), subject)
}

// TestMailArrivesInWatchedFolders runs the daemon with an hourly scheduled
// ingest: new files in a Maildir's new/ and in an .eml folder reach the
// board long before the hour, and a source whose server is gone shows its
// error in the health route without making the board degraded.
func TestMailArrivesInWatchedFolders(t *testing.T) {
	dir := t.TempDir()
	md, eml := filepath.Join(dir, "Maildir"), filepath.Join(dir, "eml")
	for _, d := range []string{filepath.Join(md, "new"), filepath.Join(md, "cur"), filepath.Join(md, "tmp"), eml} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	closed := testkit.FreeAddr(t) // nothing listens there
	host, port, _ := strings.Cut(closed, ":")
	cfg := fmt.Sprintf(`{"sources": [{"name": "md", "kind": "maildir", "path": "Maildir"}, {"name": "drop", "kind": "eml", "path": "eml"},
		{"name": "gone", "kind": "imap", "host": %q, "port": %s, "user": "me"}]}`, host, port)
	if err := os.WriteFile(filepath.Join(dir, ingest.ConfigName), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	d := start(t, filepath.Join(dir, "board.json"), 0, "SVC_INGEST_INTERVAL=1h", "SVC_GUARD_URL=", ingest.PasswordEnv("gone")+"=pw")

	testkit.Eventually(t, "the health route lists the sources, the folders read", func() bool {
		_, s := ingestHealth(t, d)
		return s["md"]["lastOkAt"] != "" && s["drop"]["lastOkAt"] != ""
	})
	writeMail(t, filepath.Join(md, "new", "1700000000.1.host"), "maildir-arrival")
	writeMail(t, filepath.Join(eml, "one.eml"), "eml-arrival")
	testkit.Eventually(t, "both new mails are on the board", func() bool {
		return onBoard(t, d, "maildir-arrival") && onBoard(t, d, "eml-arrival")
	})

	// The failing source is reported by the first scheduled run.
	testkit.Eventually(t, "the closed port is reported", func() bool {
		_, s := ingestHealth(t, d)
		return s["gone"]["lastError"] != ""
	})
	degraded, s := ingestHealth(t, d)
	if degraded {
		t.Error("a failing mail source made the board degraded")
	}
	if g := s["gone"]; g["lastOkAt"] != "" || !strings.Contains(g["lastError"], "gone") {
		t.Errorf("the failing source reads %v", g)
	}
	if s["md"]["lastError"] != "" {
		t.Errorf("the Maildir source reads %v", s["md"])
	}
	var raw json.RawMessage
	if _, err := getJSON(d.url+"/api/health", &raw); err == nil {
		t.Logf("health: %s", raw)
	}
}
