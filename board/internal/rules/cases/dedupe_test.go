package cases

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// dedupeCase holds an open task, a done task and a note.
func dedupeCase() *wire.Doc {
	return &wire.Doc{Cases: wire.ListOf([]*wire.Case{{ID: "CASE-1", Title: "Lease", Kind: wire.KindCase,
		Tasks: []wire.Task{{ID: "CASE-1-T1", Title: "Call the landlord"}, {ID: "CASE-1-T2", Title: "Sign", CompletedAt: "2026-02-01T00:00:00Z"}},
		Notes: []wire.Note{{ID: "CASE-1-N1", Text: "Rent is due on the 1st"}},
	}}...)}
}

func TestAddTaskTxFindsTheAgentsRepeat(t *testing.T) {
	for _, tc := range []struct {
		name  string
		actor wire.Actor
		title string
		want  string // the task answered
		found bool
	}{
		{"the agent's same title, trimmed and in any case", wire.ActorAgent, "  call the LANDLORD ", "CASE-1-T1", true},
		{"the agent's other title is a new task", wire.ActorAgent, "Call the bank", "CASE-1-T3", false},
		{"a done task does not stand in the way", wire.ActorAgent, "Sign", "CASE-1-T3", false},
		{"the person's repeat is theirs to make", wire.ActorHuman, "Call the landlord", "CASE-1-T3", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tx := store.Scratch(dedupeCase(), time.Now(), tc.actor)
			got, found, err := AddTaskTx(tx, tc.actor, "CASE-1", wire.TaskInput{Title: tc.title})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]any{tc.want, tc.found}, []any{got.ID, found}); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			if c, _ := tx.Cases().Get("CASE-1"); found && len(c.Tasks) != 2 {
				t.Errorf("a found task wrote: %d tasks", len(c.Tasks))
			}
		})
	}
}

func TestAddNoteTxFindsTheAgentsRepeat(t *testing.T) {
	for _, tc := range []struct {
		name  string
		actor wire.Actor
		text  string
		want  string
		found bool
	}{
		{"the agent's same text", wire.ActorAgent, "Rent is due on the 1st ", "CASE-1-N1", true},
		{"the agent's other text is a new note", wire.ActorAgent, "Rent is due on the 2nd", "CASE-1-N2", false},
		{"the person's repeat is theirs to make", wire.ActorHuman, "Rent is due on the 1st", "CASE-1-N2", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tx := store.Scratch(dedupeCase(), time.Now(), tc.actor)
			got, found, err := AddNoteTx(tx, tc.actor, "CASE-1", tc.text)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]any{tc.want, tc.found}, []any{got.ID, found}); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}
