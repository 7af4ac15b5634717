package imapsource

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/google/go-cmp/cmp"

	"github.com/opsboard/opsboard/board/internal/mail"
	"github.com/opsboard/opsboard/board/internal/testkit/imaptest"
)

// server is the test IMAP server with this package's ways to fill it.
type server struct{ *imaptest.Server }

func startServer(t *testing.T) server { return server{imaptest.Start(t)} }

func (s server) deliver(t *testing.T, i int) {
	t.Helper()
	s.Append(t, fmt.Sprintf("From: Sender %d <s%d@example.com>\r\nSubject: m%d\r\nMessage-ID: <m%d@example.com>\r\n"+
		"Date: Mon, 23 Nov 2026 09:00:00 +0000\r\n\r\nbody %d\r\n", i, i, i, i, i))
}

func (s server) source(password string) *Source {
	return New(Options{Host: "127.0.0.1", Port: s.Port, User: "me@example.org", Password: password,
		TLS: &tls.Config{RootCAs: s.Pool}})
}

type seen struct{ Ref, MessageID, Body string }

func readAll(t *testing.T, s *Source, after string) ([]seen, string) {
	t.Helper()
	var got []seen
	wm := after
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := s.Read(ctx, after, func(m mail.Mail, w string) error {
		got = append(got, seen{m.Ref, m.MessageID, m.Body})
		wm = w
		return nil
	}); err != nil {
		t.Fatalf("Read: %v", err)
	}
	return got, wm
}

func TestSource(t *testing.T) {
	srv := startServer(t)
	src := srv.source("s3cret")

	if got, wm := readAll(t, src, ""); len(got) != 0 || wm != "" {
		t.Errorf("empty mailbox gave %v, watermark %q", got, wm)
	}

	srv.deliver(t, 1)
	srv.deliver(t, 2)
	got, wm := readAll(t, src, "")
	want := []seen{{"1:1", "m1@example.com", "body 1"}, {"1:2", "m2@example.com", "body 2"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("first read (-want +got):\n%s", diff)
	}
	if wm != `{"uidValidity":1,"uid":2}` {
		t.Errorf("watermark = %s", wm)
	}
	if again, _ := readAll(t, src, wm); len(again) != 0 {
		t.Errorf("re-read gave %v, want nothing", again)
	}

	srv.deliver(t, 3)
	got, wm = readAll(t, src, wm)
	if diff := cmp.Diff([]seen{{"1:3", "m3@example.com", "body 3"}}, got); diff != "" {
		t.Errorf("after a delivery (-want +got):\n%s", diff)
	}

	ctx := context.Background()
	if m, err := src.Get(ctx, "1:2"); err != nil || m.MessageID != "m2@example.com" || m.Ref != "1:2" {
		t.Errorf("Get(1:2) = %+v, %v", m, err)
	}
	for _, bad := range []string{"1:99", "7:1", "x", "1:0"} {
		if _, err := src.Get(ctx, bad); !errors.Is(err, mail.ErrNotFound) {
			t.Errorf("Get(%q) = %v, want ErrNotFound", bad, err)
		}
	}

	// Reading marks nothing as seen.
	if st, err := srv.Mailbox.Status("INBOX", &imap.StatusOptions{NumUnseen: true}); err != nil || *st.NumUnseen != 3 {
		t.Errorf("unseen after reading = %v, %v; want 3", st.NumUnseen, err)
	}

	// The mailbox is re-created: UIDVALIDITY changes and reading restarts.
	if err := srv.Mailbox.Delete("INBOX"); err != nil {
		t.Fatal(err)
	}
	if err := srv.Mailbox.Create("INBOX", nil); err != nil {
		t.Fatal(err)
	}
	srv.deliver(t, 4)
	got, wm = readAll(t, src, wm)
	if diff := cmp.Diff([]seen{{"2:1", "m4@example.com", "body 4"}}, got); diff != "" {
		t.Errorf("after UIDVALIDITY change (-want +got):\n%s", diff)
	}
	if wm != `{"uidValidity":2,"uid":1}` {
		t.Errorf("watermark = %s", wm)
	}
	if _, err := src.Get(ctx, "1:2"); !errors.Is(err, mail.ErrNotFound) {
		t.Errorf("Get of an old-validity ref = %v, want ErrNotFound", err)
	}
}

func TestResumeAfterStop(t *testing.T) {
	srv := startServer(t)
	for i := 1; i <= 3; i++ {
		srv.deliver(t, i)
	}
	src := srv.source("s3cret")
	boom := errors.New("killed")
	var kept string
	err := src.Read(context.Background(), "", func(m mail.Mail, w string) error {
		if m.MessageID == "m2@example.com" {
			return boom
		}
		kept = w
		return nil
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Read = %v, want the callback's error", err)
	}
	got, _ := readAll(t, src, kept)
	if len(got) != 2 || got[0].Ref != "1:2" || got[1].Ref != "1:3" {
		t.Errorf("resume gave %v, want 1:2 and 1:3", got)
	}
}

func TestRefusals(t *testing.T) {
	srv := startServer(t)
	srv.deliver(t, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	nop := func(mail.Mail, string) error { return nil }

	if err := srv.source("wrong").Read(ctx, "", nop); err == nil {
		t.Error("a wrong password was accepted")
	}
	// Without the test's CA the system roots do not trust the certificate.
	untrusted := New(Options{Host: "127.0.0.1", Port: srv.Port, User: "me@example.org", Password: "s3cret"})
	var unknown x509.UnknownAuthorityError
	if err := untrusted.Read(ctx, "", nop); !errors.As(err, &unknown) {
		t.Errorf("self-signed certificate without trust: %v, want an unknown-authority error", err)
	}
	if err := srv.source("s3cret").Read(ctx, "garbage", nop); !errors.Is(err, mail.ErrBadWatermark) {
		t.Errorf("bad watermark: %v", err)
	}
	missing := New(Options{Host: "127.0.0.1", Port: srv.Port, User: "me@example.org", Password: "s3cret",
		Mailbox: "Archive", TLS: &tls.Config{RootCAs: srv.Pool}})
	if err := missing.Read(ctx, "", nop); err == nil {
		t.Error("a missing mailbox read without error")
	}
}

func TestSilentServerGivesUpWithTheContext(t *testing.T) {
	cert, pool := imaptest.Certificate(t)
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{cert}})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			// Finish the handshake, then never send the IMAP greeting.
			_ = c.(*tls.Conn).Handshake()
			t.Cleanup(func() { c.Close() })
		}
	}()
	src := New(Options{Host: "127.0.0.1", Port: ln.Addr().(*net.TCPAddr).Port, User: "u", Password: "p",
		TLS: &tls.Config{RootCAs: pool}})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- src.Read(ctx, "", func(mail.Mail, string) error { return nil }) }()
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Read from a server that never answers = %v, want the context's deadline", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Read did not give up on a silent server")
	}
}

func TestCancelledContext(t *testing.T) {
	srv := startServer(t)
	srv.deliver(t, 1)
	ctx, cancel := context.WithCancel(context.Background())
	err := srv.source("s3cret").Read(ctx, "", func(mail.Mail, string) error {
		cancel()
		return nil
	})
	if err != nil {
		t.Errorf("cancel after the last message: %v", err)
	}
	if err := srv.source("s3cret").Read(ctx, "", func(mail.Mail, string) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("Read with a cancelled context = %v, want context.Canceled", err)
	}
}

// A message over the raw limit is fetched only that far, and says how big
// it was on the server.
func TestBigMessageIsFetchedToTheRawLimit(t *testing.T) {
	s := startServer(t)
	line := "a body line of the big one, long enough to add up quickly\r\n"
	raw := "From: big@example.com\r\nSubject: big\r\nMessage-ID: <big@example.com>\r\n\r\n" + strings.Repeat(line, mail.MaxRaw/len(line)+1000)
	if _, err := s.Mailbox.Append("INBOX", strings.NewReader(raw), &imap.AppendOptions{}); err != nil {
		t.Fatal(err)
	}
	var got []mail.Mail
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	src := s.source("s3cret")
	if err := src.Read(ctx, "", func(m mail.Mail, _ string) error {
		got = append(got, m)
		return nil
	}); err != nil || len(got) != 1 {
		t.Fatalf("read %d: %v", len(got), err)
	}
	m := got[0]
	if len(m.Raw) != mail.MaxRaw || m.Subject != "big" || m.OriginalSizes["raw"] != int64(len(raw)) {
		t.Errorf("raw %d, subject %q, sizes %v", len(m.Raw), m.Subject, m.OriginalSizes)
	}
	again, err := src.Get(ctx, m.Ref)
	if err != nil || again.OriginalSizes["raw"] != int64(len(raw)) {
		t.Errorf("get: %v %v", err, again.OriginalSizes)
	}
}

func TestChunksBoundCountAndBytes(t *testing.T) {
	var list []*imapclient.FetchMessageBuffer
	sizes := []int64{1 << 10, 20 << 20, 20 << 20, 40 << 20, 1 << 10}
	for i, n := range sizes {
		list = append(list, &imapclient.FetchMessageBuffer{UID: imap.UID(i + 1), RFC822Size: n})
	}
	for i := range 120 {
		list = append(list, &imapclient.FetchMessageBuffer{UID: imap.UID(10 + i), RFC822Size: 100})
	}
	var got []int
	for _, c := range chunks(list) {
		got = append(got, len(c))
	}
	// 1 KiB + 20 MiB; 20 MiB; a 40 MiB mail counts 25 MiB, alone with the
	// small ones that fit beside it up to fifty; then the rest by fifty.
	want := []int{2, 1, 50, 50, 22}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("chunks %v, want %v", got, want)
	}
}
