package ingest_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/opsboard/opsboard/board/internal/api"
	"github.com/opsboard/opsboard/board/internal/mail"
	"github.com/opsboard/opsboard/board/internal/mail/dedupe"
	"github.com/opsboard/opsboard/board/internal/mail/imapsource"
	"github.com/opsboard/opsboard/board/internal/mail/ingest"
	"github.com/opsboard/opsboard/board/internal/rules/labels"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/board/internal/testkit/imaptest"
)

// imapServer runs the test IMAP server; it returns the port, the pool
// trusting it and a function that delivers mail i to INBOX.
func imapServer(t *testing.T) (int, *x509.CertPool, func(i int)) {
	srv := imaptest.Start(t)
	deliver := func(i int) {
		srv.Append(t, fmt.Sprintf("From: Sender %d <s%d@example.com>\r\nTo: me@example.org\r\nSubject: m%d\r\nMessage-ID: <imap%d@example.com>\r\n"+
			"Date: Mon, 23 Nov 2026 09:00:00 +0000\r\n\r\nbody %d\r\n", i, i, i, i, i))
	}
	return srv.Port, srv.Pool, deliver
}

// boardInProcess runs the board's store and API in this process on dir,
// for the tests that drive ingest against a board without a daemon;
// configure, when set, adds to the API's settings.
func boardInProcess(t *testing.T, dir string, configure func(*api.Config)) (*store.Store, *httptest.Server) {
	t.Helper()
	bundles, err := labels.Load()
	if err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	st, err := store.Open(store.Config{Path: filepath.Join(dir, "board.json"), MessageKey: dedupe.Key, Seed: labels.SeedUniversal(bundles), Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	cfg := api.Config{Store: st, Version: "test", Logger: quiet, Bundles: bundles}
	if configure != nil {
		configure(&cfg)
	}
	a, router := api.New(cfg)
	srv := httptest.NewServer(router)
	t.Cleanup(func() { a.Close(); srv.Close(); st.Close() })
	return st, srv
}

func TestIngestFromIMAP(t *testing.T) {
	port, pool, deliver := imapServer(t)
	deliver(1)
	deliver(2)
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	dir := t.TempDir()
	st, srv := boardInProcess(t, dir, nil)

	src := ingest.SourceConfig{Name: "work mail", Kind: "imap", Host: "127.0.0.1", Port: port, User: "me@example.org", Since: "2000-01-01"}
	env := map[string]string{"SVC_IMAP_PASSWORD_WORK_MAIL": "s3cret"}
	opts := ingest.Options{Board: ingest.NewBoard(srv.URL), Config: ingest.Config{Sources: []ingest.SourceConfig{src}}, StateDir: dir, Logger: quiet,
		Getenv: func(k string) string { return env[k] },
		// The password still comes from the environment variable named for
		// the source; only the test's own certificate authority is added.
		OpenSource: func(s ingest.SourceConfig) (mail.Source, error) {
			return imapsource.New(imapsource.Options{Host: s.Host, Port: s.Port, User: s.User, Password: env[ingest.PasswordEnv(s.Name)],
				TLS: &tls.Config{RootCAs: pool}}), nil
		}}
	ctx := context.Background()
	rep, err := ingest.Run(ctx, opts)
	if err != nil || rep.Fetched != 2 || rep.New != 2 || rep.SourceFailed {
		t.Fatalf("first run: %v %+v", err, rep)
	}
	if rep, err := ingest.Run(ctx, opts); err != nil || rep.Fetched != 0 || rep.New != 0 {
		t.Errorf("re-run: %v %+v, want nothing read (UID watermark)", err, rep)
	}
	deliver(3)
	if rep, err := ingest.Run(ctx, opts); err != nil || rep.Fetched != 1 || rep.New != 1 {
		t.Errorf("after one more mail: %v %+v", err, rep)
	}
	// A wrong password fails the source, not the run.
	env["SVC_IMAP_PASSWORD_WORK_MAIL"] = "wrong"
	if rep, err := ingest.Run(ctx, opts); err != nil || !rep.SourceFailed || len(rep.Errors) == 0 {
		t.Errorf("wrong password: %v %+v", err, rep)
	}
	// Through Open, a missing password is named by its variable.
	if _, err := ingest.Open(src, func(string) string { return "" }); err == nil || !bytes.Contains([]byte(err.Error()), []byte("SVC_IMAP_PASSWORD_WORK_MAIL")) {
		t.Errorf("Open without a password: %v", err)
	}
	if n := st.Snapshot().Messages.Len(); n != 3 {
		t.Errorf("%d messages on the board, want 3", n)
	}
}
