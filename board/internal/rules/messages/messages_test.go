package messages

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

var now = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func TestNew(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   wire.MessageInput
		want wire.Message
		err  string
	}{
		{"a safe link is kept and the date defaults to now", wire.MessageInput{Subject: "hi", From: " a@b.example ", URL: "https://mail.example/m/1"},
			wire.Message{ID: "M-1", Subject: "hi", From: "a@b.example", URL: "https://mail.example/m/1", ReceivedAt: "2026-03-01T12:00:00Z"}, ""},
		{"any other link is dropped", wire.MessageInput{Body: "x", URL: "javascript:alert(1)", ReceivedAt: "2026-02-01"},
			wire.Message{ID: "M-1", Body: "x", ReceivedAt: "2026-02-01"}, ""},
		{"a message needs content", wire.MessageInput{From: "a@b.example"}, wire.Message{}, "a message needs a subject, preview or body"},
		{"a date must parse", wire.MessageInput{Subject: "x", ReceivedAt: "yesterday"}, wire.Message{}, "field 'receivedAt' must be an ISO date"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := New(store.Scratch(&wire.Doc{}, now, wire.ActorHuman), tc.in)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, *m); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}
