package emlfolder

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opsboard/opsboard/board/internal/mail"
)

func write(t *testing.T, dir, name, id string) {
	t.Helper()
	raw := "From: a@example.com\r\nMessage-ID: <" + id + ">\r\n\r\nhello\r\n"
	if err := os.WriteFile(filepath.Join(dir, name), []byte(raw), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestSource(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "b.eml", "b@x")
	write(t, dir, "a.EML", "a@x")
	write(t, dir, "notes.txt", "n@x")
	if err := os.Mkdir(filepath.Join(dir, "sub.eml"), 0o700); err != nil {
		t.Fatal(err)
	}
	s := New(dir)
	read := func(after string) ([]string, string) {
		var refs []string
		wm := after
		if err := s.Read(context.Background(), after, func(m mail.Mail, w string) error {
			refs = append(refs, m.Ref+"="+m.MessageID)
			wm = w
			return nil
		}); err != nil {
			t.Fatalf("Read: %v", err)
		}
		return refs, wm
	}
	got, wm := read("")
	if diff := cmp.Diff([]string{"a.EML=a@x", "b.eml=b@x"}, got); diff != "" {
		t.Errorf("first read (-want +got):\n%s", diff)
	}
	if again, _ := read(wm); len(again) != 0 {
		t.Errorf("re-read gave %v", again)
	}
	write(t, dir, "0.eml", "0@x") // sorts first, but is new
	if got, _ := read(wm); !cmp.Equal(got, []string{"0.eml=0@x"}) {
		t.Errorf("after a new file: %v", got)
	}
	if m, err := s.Get(context.Background(), "b.eml"); err != nil || m.MessageID != "b@x" {
		t.Errorf("Get = %q, %v", m.MessageID, err)
	}
	for _, bad := range []string{"gone.eml", "../b.eml", "notes.txt", ""} {
		if _, err := s.Get(context.Background(), bad); !errors.Is(err, mail.ErrNotFound) {
			t.Errorf("Get(%q) = %v, want ErrNotFound", bad, err)
		}
	}
}
