package mbox

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opsboard/opsboard/board/internal/mail"
)

type piece struct {
	Off, End int64
	Raw      string
}

func scanAll(t *testing.T, text string, base int64, partialLast bool) []piece {
	t.Helper()
	var got []piece
	err := Scan(context.Background(), bufio.NewReaderSize(strings.NewReader(text), 16), base, partialLast, func(off, end int64, raw []byte) error {
		got = append(got, piece{off, end, string(raw)})
		return nil
	})
	if err != nil {
		t.Fatalf("Scan: %v", err)
	}
	return got
}

func TestScan(t *testing.T) {
	const a = "From a@x Mon Nov 23 09:00:00 2026\nSubject: a\n\nbody a\n\n"
	const b = "From b@x Mon Nov 23 09:01:00 2026\nSubject: b\n\nbody b\n\n"
	long := strings.Repeat("y", 100) // longer than the test's 16-byte buffer
	longMsg := "From a@x\nSubject: " + long + "\n\n" + long + "\n\n"
	const esc = "From x\n\n>From here\n>>From there\n>not from\n\n"
	const crA = "From a@x\r\nSubject: a\r\n\r\n>From a\r\n\r\n"
	const crB = "From b@x\r\nSubject: b\r\n\r\nb\r\n\r\n"
	tests := []struct {
		name        string
		text        string
		partialLast bool
		want        []piece
	}{
		{"two whole messages", a + b, false, []piece{
			{0, int64(len(a)), "Subject: a\n\nbody a\n"},
			{int64(len(a)), int64(len(a + b)), "Subject: b\n\nbody b\n"},
		}},
		{"mboxrd escapes lose one >", esc, false, []piece{
			{0, int64(len(esc)), "\nFrom here\n>From there\n>not from\n"},
		}},
		{"a partial trailing message waits", a + "From c@x\nSubject: c\n\nhalf writ", false, []piece{
			{0, int64(len(a)), "Subject: a\n\nbody a\n"},
		}},
		{"a partial trailing message is given when asked", "From c@x\nSubject: c\n\nhalf writ", true, []piece{
			{0, 30, "Subject: c\n\nhalf writ"},
		}},
		{"CRLF line ends", crA + crB, false, []piece{
			{0, int64(len(crA)), "Subject: a\r\n\r\nFrom a\r\n"},
			{int64(len(crA)), int64(len(crA + crB)), "Subject: b\r\n\r\nb\r\n"},
		}},
		{"text before the first From line is skipped", "junk\nmore junk\n" + a, false, []piece{
			{15, int64(15 + len(a)), "Subject: a\n\nbody a\n"},
		}},
		{"long lines are read whole", longMsg, false, []piece{
			{0, int64(len(longMsg)), "Subject: " + long + "\n\n" + long + "\n"},
		}},
		{"empty file", "", false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, scanAll(t, tt.text, 0, tt.partialLast)); diff != "" {
				t.Errorf("Scan (-want +got):\n%s", diff)
			}
		})
	}
}

// message writes one mboxrd entry the way a mail client appends it.
func message(i int, body string) string {
	esc := strings.ReplaceAll("\n"+body, "\nFrom ", "\n>From ")[1:]
	return fmt.Sprintf("From sender%d@example.com Mon Nov 23 09:00:00 2026\n"+
		"From: Sender %d <sender%d@example.com>\nSubject: message %d\nMessage-ID: <m%d@example.com>\n"+
		"Date: Mon, 23 Nov 2026 09:%02d:00 +0000\n\n%s\n\n", i, i, i, i, i, i%60, esc)
}

type seen struct {
	Ref, MessageID, Body string
}

func readAll(t *testing.T, s *Source, after string) ([]seen, string) {
	t.Helper()
	var got []seen
	wm := after
	err := s.Read(context.Background(), after, func(m mail.Mail, w string) error {
		got = append(got, seen{m.Ref, m.MessageID, m.Body})
		wm = w
		return nil
	})
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	return got, wm
}

func TestSource(t *testing.T) {
	path := filepath.Join(t.TempDir(), "inbox.mbox")
	m0, m1 := message(0, "hello\nFrom the start"), message(1, "second")
	if err := os.WriteFile(path, []byte(m0+m1), 0o600); err != nil {
		t.Fatal(err)
	}
	s := New(path)
	got, wm := readAll(t, s, "")
	want := []seen{
		{"0", "m0@example.com", "hello\nFrom the start"},
		{strconv.Itoa(len(m0)), "m1@example.com", "second"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("first read (-want +got):\n%s", diff)
	}

	if again, _ := readAll(t, s, wm); len(again) != 0 {
		t.Errorf("re-read with the watermark gave %v, want nothing", again)
	}

	// A half-written message is not taken; once finished it is, and only it.
	m2 := message(2, "third")
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(m2[:len(m2)-10]); err != nil {
		t.Fatal(err)
	}
	if half, _ := readAll(t, s, wm); len(half) != 0 {
		t.Errorf("half-written message was taken: %v", half)
	}
	if _, err := f.WriteString(m2[len(m2)-10:]); err != nil {
		t.Fatal(err)
	}
	f.Close()
	got, wm2 := readAll(t, s, wm)
	if diff := cmp.Diff([]seen{{strconv.Itoa(len(m0 + m1)), "m2@example.com", "third"}}, got); diff != "" {
		t.Errorf("after append (-want +got):\n%s", diff)
	}

	// Get finds a message by its Ref.
	m, err := s.Get(context.Background(), strconv.Itoa(len(m0)))
	if err != nil || m.MessageID != "m1@example.com" {
		t.Errorf("Get = %q, %v; want m1@example.com", m.MessageID, err)
	}
	for _, bad := range []string{"5", "-1", "x", "999999"} {
		if _, err := s.Get(context.Background(), bad); !errors.Is(err, mail.ErrNotFound) {
			t.Errorf("Get(%q) = %v, want ErrNotFound", bad, err)
		}
	}

	// A replaced file (new inode) is read from the top.
	repl := path + ".new"
	if err := os.WriteFile(repl, []byte(m1), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(repl, path); err != nil {
		t.Fatal(err)
	}
	got, _ = readAll(t, s, wm2)
	if diff := cmp.Diff([]seen{{"0", "m1@example.com", "second"}}, got); diff != "" {
		t.Errorf("after replace (-want +got):\n%s", diff)
	}
}

func TestReadStopsOnCallbackError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "inbox.mbox")
	if err := os.WriteFile(path, []byte(message(0, "a")+message(1, "b")+message(2, "c")), 0o600); err != nil {
		t.Fatal(err)
	}
	s := New(path)
	boom := errors.New("board down")
	var kept string
	n := 0
	err := s.Read(context.Background(), "", func(m mail.Mail, w string) error {
		if n == 1 {
			return boom
		}
		n++
		kept = w
		return nil
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Read error = %v, want the callback's", err)
	}
	// A run killed after the first message resumes at the second.
	got, _ := readAll(t, s, kept)
	if len(got) != 2 || got[0].MessageID != "m1@example.com" {
		t.Errorf("resume gave %v, want m1 and m2", got)
	}
}

func TestBadWatermark(t *testing.T) {
	path := filepath.Join(t.TempDir(), "inbox.mbox")
	if err := os.WriteFile(path, []byte(message(0, "a")), 0o600); err != nil {
		t.Fatal(err)
	}
	err := New(path).Read(context.Background(), "not json", func(mail.Mail, string) error { return nil })
	if !errors.Is(err, mail.ErrBadWatermark) {
		t.Errorf("Read with a bad watermark = %v, want ErrBadWatermark", err)
	}
}

// BenchmarkRead parses an mbox of 10,000 messages written by the benchmark.
func BenchmarkRead(b *testing.B) {
	const n = 10000
	path := filepath.Join(b.TempDir(), "big.mbox")
	var sb strings.Builder
	for i := range n {
		sb.WriteString(message(i, strings.Repeat("A line of an ordinary message body.\n", 20)+"From the team"))
	}
	if err := os.WriteFile(path, []byte(sb.String()), 0o600); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(sb.Len()))
	s := New(path)
	b.ResetTimer()
	for b.Loop() {
		count := 0
		if err := s.Read(context.Background(), "", func(mail.Mail, string) error { count++; return nil }); err != nil {
			b.Fatal(err)
		}
		if count != n {
			b.Fatalf("read %d messages, want %d", count, n)
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "msgs/s")
}

func FuzzScan(f *testing.F) {
	f.Add("From a\n\nx\n>From y\n\nFrom b\r\n\r\nz\r\n\r\n", false)
	f.Add("junk\nFrom a\nhalf", true)
	f.Fuzz(func(t *testing.T, text string, partialLast bool) {
		last := int64(-1)
		err := Scan(context.Background(), bufio.NewReaderSize(strings.NewReader(text), 16), 0, partialLast, func(off, end int64, raw []byte) error {
			if off <= last || end <= off || end > int64(len(text)) {
				t.Fatalf("bad span %d..%d after %d in %d bytes", off, end, last, len(text))
			}
			if !strings.HasPrefix(text[off:], "From ") {
				t.Fatalf("message at %d does not start with a From line", off)
			}
			if int64(len(raw)) > end-off {
				t.Fatalf("message longer than its span")
			}
			last = off
			return nil
		})
		if err != nil {
			t.Fatalf("Scan: %v", err)
		}
	})
}
