package messages

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// The agent's mail without a Message-ID or a date is the stored mail of
// the same sender, recipients and body, whatever time the board stamped
// it with; a dated mail, a Message-ID or the person's own post is compared
// by the full key only.
func TestNewFindsTheAgentsUndatedRepeat(t *testing.T) {
	stored := &wire.Message{ID: "M-1", From: "alice@example.test", To: wire.Addresses{"me@home.test"}, Subject: "Lease", Body: "Signed copy attached.", ReceivedAt: "2026-02-01T09:00:00Z"}
	mail := wire.MessageInput{From: " alice@example.test ", To: wire.Addresses{"me@home.test"}, Subject: "Lease", Body: "Signed copy attached."}
	for _, tc := range []struct {
		name  string
		actor wire.Actor
		edit  func(*wire.MessageInput)
		found bool
	}{
		{"the agent's undated repeat", wire.ActorAgent, func(*wire.MessageInput) {}, true},
		{"another body", wire.ActorAgent, func(m *wire.MessageInput) { m.Body = "Another text." }, false},
		{"another recipient", wire.ActorAgent, func(m *wire.MessageInput) { m.To = wire.Addresses{"you@home.test"} }, false},
		{"a date the caller gave counts", wire.ActorAgent, func(m *wire.MessageInput) { m.ReceivedAt = "2026-02-02T09:00:00Z" }, false},
		{"the person's post", wire.ActorHuman, func(*wire.MessageInput) {}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := mail
			tc.edit(&in)
			_, err := newOrExisting(store.Scratch(&wire.Doc{Messages: wire.ListOf([]*wire.Message{stored}...)}, now, tc.actor), in)
			ex, found := AsExisting(err)
			if !found && err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.found, found); diff != "" {
				t.Fatalf("found (-want +got)\n%s", diff)
			}
			if found && ex.Message.ID != "M-1" {
				t.Errorf("found %s, want M-1", ex.Message.ID)
			}
		})
	}
}
