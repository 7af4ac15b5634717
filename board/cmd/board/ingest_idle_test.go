package main

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"

	"github.com/opsboard/opsboard/board/internal/mail/ingest"
	"github.com/opsboard/opsboard/board/internal/testkit"
)

// localIMAP runs the in-memory IMAP server over TLS on loopback. It returns
// the port, a PEM file of its certificate (for the daemon's SSL_CERT_FILE,
// so the daemon trusts it as a system root) and the mailbox's user.
func localIMAP(t *testing.T) (int, string, *imapmemserver.User) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "imap test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true, IsCA: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	pemFile := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(pemFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	mem := imapmemserver.New()
	user := imapmemserver.NewUser("me@example.org", "s3cret")
	if err := user.Create("INBOX", nil); err != nil {
		t.Fatal(err)
	}
	mem.AddUser(user)
	srv := imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return mem.NewSession(), nil, nil
		},
		Caps: imap.CapSet{imap.CapIMAP4rev1: {}},
	})
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}})
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().(*net.TCPAddr).Port, pemFile, user
}

// TestIMAPMailArrivesThroughIdle runs the daemon with an hourly scheduled
// ingest from a local IMAP server: a message appended after the first read
// is on the board long before the hour, brought by IDLE. A second source
// with a wrong password shows its error and the board stays not degraded.
func TestIMAPMailArrivesThroughIdle(t *testing.T) {
	port, caFile, user := localIMAP(t)
	dir := t.TempDir()
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
	if _, err := user.Append("INBOX", bytes.NewReader([]byte(raw)), &imap.AppendOptions{}); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, "the appended mail is on the board", func() bool { return onBoard(t, d, "idle-arrival") })
	degraded, s := ingestHealth(t, d)
	if degraded {
		t.Error("a source with a wrong password made the board degraded")
	}
	if s["typo"]["lastOkAt"] != "" || s["work"]["lastError"] != "" {
		t.Errorf("health sources %v", s)
	}
}
