package ingest_test

import (
	"context"
	"crypto/tls"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/zalando/go-keyring"

	"github.com/opsboard/opsboard/board/internal/api"
	"github.com/opsboard/opsboard/board/internal/mail"
	"github.com/opsboard/opsboard/board/internal/mail/imapsource"
	"github.com/opsboard/opsboard/board/internal/mail/ingest"
)

// TestIMAPIdleBringsMailIn watches an IMAP source whose password is in the
// credential store (no variable set): a message appended to the mailbox
// reaches the board through IDLE, with no scheduled run at all, and the
// source's health records the run.
func TestIMAPIdleBringsMailIn(t *testing.T) {
	keyring.MockInit()
	if err := ingest.StorePassword("work", "s3cret"); err != nil {
		t.Fatal(err)
	}
	port, pool, deliver := imapServer(t)
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	dir := t.TempDir()
	health := ingest.NewSourceHealth()
	st, srv := boardInProcess(t, dir, func(c *api.Config) { c.Ingest = health.Health })

	cfg := ingest.Config{Sources: []ingest.SourceConfig{{Name: "work", Kind: "imap", Host: "127.0.0.1", Port: port, User: "me@example.org"}}}
	noEnv := func(string) string { return "" }
	open := func(s ingest.SourceConfig) (mail.Source, error) {
		pw, err := ingest.Password(s.Name, noEnv)
		if err != nil {
			return nil, err
		}
		return imapsource.New(imapsource.Options{Host: s.Host, Port: s.Port, User: s.User, Password: pw, TLS: &tls.Config{RootCAs: pool}}), nil
	}
	run := func(ctx context.Context, name string) {
		rep, err := ingest.Run(ctx, ingest.Options{Board: ingest.NewBoard(srv.URL), Config: cfg, StateDir: dir, Logger: quiet,
			Getenv: noEnv, OpenSource: open, Only: name})
		if err != nil {
			if ctx.Err() == nil {
				t.Errorf("run: %v", err)
			}
			return
		}
		health.NoteRun([]string{name}, rep, time.Now())
	}
	health.Know(cfg) // as the daemon does when it starts watching
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		ingest.Watch(ctx, ingest.WatchOptions{Config: cfg, Open: open, Logger: quiet, Run: run})
	}()
	t.Cleanup(func() { cancel(); <-done })

	waitFor(t, "the first run", func() bool { return health.Health().Sources[0].LastOKAt != "" })
	deliver(7)
	waitFor(t, "the delivered mail on the board", func() bool { return st.Snapshot().Messages.Len() == 1 })
	if h := health.Health().Sources[0]; h.Name != "work" || h.LastError != "" {
		t.Errorf("health %+v", h)
	}
}

// waitFor polls cond up to a generous deadline; it asserts no timing.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting: %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestSourceHealthKeepsTheLastSuccess(t *testing.T) {
	h := ingest.NewSourceHealth()
	if h.Health() != nil {
		t.Fatal("health with no source known should be absent")
	}
	at := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	h.NoteRun([]string{"a", "ab"}, ingest.Report{}, at)
	h.NoteRun([]string{"a", "ab"}, ingest.Report{Errors: []string{"source ab: imap dial: refused"}}, at.Add(time.Hour))
	got := h.Health().Sources
	if got[0].Name != "a" || got[0].LastOKAt != "2026-11-26T10:00:00Z" || got[0].LastError != "" {
		t.Errorf("a: %+v", got[0])
	}
	if got[1].Name != "ab" || got[1].LastOKAt != "2026-11-26T09:00:00Z" || got[1].LastError != "source ab: imap dial: refused" {
		t.Errorf("ab: %+v", got[1])
	}
}
