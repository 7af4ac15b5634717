package mbox

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opsboard/opsboard/board/internal/mail"
)

// A message over the raw limit is read only that far, says so, and the
// messages after it are read whole from the right place.
func TestBigMessageIsCutAndTheNextOneFollows(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.mbox")
	line := "a body line of the big one, long enough to add up quickly\n"
	big := strings.Repeat(line, mail.MaxRaw/len(line)+1000)
	text := "From a Thu Jan  1 00:00:00 2026\nSubject: small\n\nfirst\n\n" +
		"From b Thu Jan  1 00:00:00 2026\nSubject: big\n\n" + big + "\n" +
		"From c Thu Jan  1 00:00:00 2026\nSubject: after\n\nlast\n\n"
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	var got []mail.Mail
	err := New(path).Read(context.Background(), "", func(m mail.Mail, _ string) error {
		got = append(got, m)
		return nil
	})
	if err != nil || len(got) != 3 {
		t.Fatalf("read %d messages: %v", len(got), err)
	}
	if got[0].Truncated != nil || got[2].Subject != "after" || got[2].Body != "last" || got[2].Truncated != nil {
		t.Errorf("neighbours: %v / %q %q %v", got[0].Truncated, got[2].Subject, got[2].Body, got[2].Truncated)
	}
	b := got[1]
	if len(b.Raw) != mail.MaxRaw || b.Subject != "big" || len(b.Truncated) != 2 || b.Truncated[0] != "raw" || b.Truncated[1] != "body" {
		t.Errorf("big one: raw %d, subject %q, truncated %v", len(b.Raw), b.Subject, b.Truncated)
	}
	if b.OriginalSizes["raw"] <= mail.MaxRaw {
		t.Errorf("raw size %d", b.OriginalSizes["raw"])
	}
	again, err := New(path).Get(context.Background(), got[1].Ref)
	if err != nil || again.Subject != "big" || again.OriginalSizes["raw"] != b.OriginalSizes["raw"] {
		t.Errorf("get: %v %q %v", err, again.Subject, again.OriginalSizes)
	}
}
