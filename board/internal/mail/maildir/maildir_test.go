package maildir

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opsboard/opsboard/board/internal/mail"
)

func deliver(t *testing.T, dir, sub, name string, i int) {
	t.Helper()
	raw := fmt.Sprintf("From: s%d@example.com\r\nSubject: m%d\r\nMessage-ID: <m%d@example.com>\r\n\r\nbody %d\r\n", i, i, i, i)
	if err := os.WriteFile(filepath.Join(dir, sub, name), []byte(raw), 0o600); err != nil {
		t.Fatal(err)
	}
}

func newMaildir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, sub := range []string{"new", "cur", "tmp"} {
		if err := os.Mkdir(filepath.Join(dir, sub), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

type seen struct{ Ref, MessageID, Body string }

func readAll(t *testing.T, s *Source, after string) ([]seen, string) {
	t.Helper()
	var got []seen
	wm := after
	if err := s.Read(context.Background(), after, func(m mail.Mail, w string) error {
		got = append(got, seen{m.Ref, m.MessageID, m.Body})
		wm = w
		return nil
	}); err != nil {
		t.Fatalf("Read: %v", err)
	}
	return got, wm
}

func TestUnique(t *testing.T) {
	for in, want := range map[string]string{
		"1732.M1P2.host":       "1732.M1P2.host",
		"1732.M1P2.host:2,S":   "1732.M1P2.host",
		"1732.M1P2.host:2,":    "1732.M1P2.host",
		"1732.M1P2.host:1,exp": "1732.M1P2.host",
	} {
		if got := Unique(in); got != want {
			t.Errorf("Unique(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSource(t *testing.T) {
	dir := newMaildir(t)
	deliver(t, dir, "new", "1700000002.M2P1.host", 2)
	deliver(t, dir, "cur", "1700000001.M1P1.host:2,S", 1)
	deliver(t, dir, "tmp", "1700000009.M9P1.host", 9) // still being delivered: never read
	if err := os.WriteFile(filepath.Join(dir, "new", ".hidden"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := New(dir)
	got, wm := readAll(t, s, "")
	want := []seen{
		{"1700000001.M1P1.host", "m1@example.com", "body 1"},
		{"1700000002.M2P1.host", "m2@example.com", "body 2"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("first read (-want +got):\n%s", diff)
	}
	if wm != `{"taken":["1700000001.M1P1.host","1700000002.M2P1.host"]}` {
		t.Errorf("watermark = %s", wm)
	}

	// The client moves the new message to cur/ and flags it: not new again.
	if err := os.Rename(filepath.Join(dir, "new", "1700000002.M2P1.host"), filepath.Join(dir, "cur", "1700000002.M2P1.host:2,RS")); err != nil {
		t.Fatal(err)
	}
	deliver(t, dir, "new", "1700000003.M3P1.host", 3)
	got, wm = readAll(t, s, wm)
	if diff := cmp.Diff([]seen{{"1700000003.M3P1.host", "m3@example.com", "body 3"}}, got); diff != "" {
		t.Errorf("after move and delivery (-want +got):\n%s", diff)
	}

	// Get finds a message by its unique name in cur/ too.
	if m, err := s.Get(context.Background(), "1700000002.M2P1.host"); err != nil || m.MessageID != "m2@example.com" {
		t.Errorf("Get = %q, %v", m.MessageID, err)
	}
	for _, bad := range []string{"nope", "../cur/x", "", "1700000002.M2P1.host:2,RS"} {
		if _, err := s.Get(context.Background(), bad); !errors.Is(err, mail.ErrNotFound) {
			t.Errorf("Get(%q) = %v, want ErrNotFound", bad, err)
		}
	}

	// A deleted message leaves the watermark.
	if err := os.Remove(filepath.Join(dir, "cur", "1700000001.M1P1.host:2,S")); err != nil {
		t.Fatal(err)
	}
	deliver(t, dir, "new", "1700000004.M4P1.host", 4)
	_, wm = readAll(t, s, wm)
	if wm != `{"taken":["1700000002.M2P1.host","1700000003.M3P1.host","1700000004.M4P1.host"]}` {
		t.Errorf("watermark after a delete = %s", wm)
	}
}

func TestResumeAfterStop(t *testing.T) {
	dir := newMaildir(t)
	for i := 1; i <= 3; i++ {
		deliver(t, dir, "new", fmt.Sprintf("170000000%d.M%dP1.host", i, i), i)
	}
	s := New(dir)
	boom := errors.New("killed")
	var kept string
	err := s.Read(context.Background(), "", func(m mail.Mail, w string) error {
		if m.MessageID == "m2@example.com" {
			return boom
		}
		kept = w
		return nil
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Read = %v, want the callback's error", err)
	}
	got, _ := readAll(t, s, kept)
	if len(got) != 2 || got[0].MessageID != "m2@example.com" || got[1].MessageID != "m3@example.com" {
		t.Errorf("resume gave %v, want m2 and m3", got)
	}
}

func TestErrors(t *testing.T) {
	if err := New(t.TempDir()).Read(context.Background(), "", func(mail.Mail, string) error { return nil }); err == nil {
		t.Error("a folder without new/ or cur/ read without error")
	}
	err := New(newMaildir(t)).Read(context.Background(), "[1,2]", func(mail.Mail, string) error { return nil })
	if !errors.Is(err, mail.ErrBadWatermark) {
		t.Errorf("bad watermark: %v, want ErrBadWatermark", err)
	}
}

// BenchmarkRead reads a Maildir of 10,000 messages from the start; the watermark
// each message gets holds every name taken so far.
func BenchmarkRead(b *testing.B) {
	const n = 10000
	dir := b.TempDir()
	for _, sub := range []string{"new", "cur", "tmp"} {
		if err := os.Mkdir(filepath.Join(dir, sub), 0o700); err != nil {
			b.Fatal(err)
		}
	}
	for i := range n {
		raw := fmt.Sprintf("From: s%d@example.com\r\nSubject: m%d\r\nMessage-ID: <m%d@example.com>\r\n\r\nbody %d\r\n", i, i, i, i)
		name := fmt.Sprintf("17000%05d.M%dP1.host:2,S", i, i)
		if err := os.WriteFile(filepath.Join(dir, "cur", name), []byte(raw), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	s := New(dir)
	for b.Loop() {
		count := 0
		if err := s.Read(context.Background(), "", func(mail.Mail, string) error { count++; return nil }); err != nil {
			b.Fatal(err)
		}
		if count != n {
			b.Fatalf("read %d, want %d", count, n)
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "msgs/s")
}
