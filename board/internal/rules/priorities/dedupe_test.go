package priorities

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

func TestCreateTxFindsTheAgentsRepeat(t *testing.T) {
	for _, tc := range []struct {
		name  string
		actor wire.Actor
		text  string
		found bool
	}{
		{"the agent's same text", wire.ActorAgent, " Ship the lease ", true},
		{"the agent's other text is a new note", wire.ActorAgent, "Ship the lease today", false},
		{"the person's repeat is theirs to make", wire.ActorHuman, "Ship the lease", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := &wire.Doc{Priorities: wire.ListOf([]*wire.Priority{{ID: "PRI-1", Text: "Ship the lease"}}...), Counters: map[string]int64{"PRI": 1}}
			tx := store.Scratch(d, time.Now(), tc.actor)
			got, found, err := CreateTx(tx, tc.actor, wire.PriorityCreate{Text: tc.text})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.found, found); diff != "" {
				t.Errorf("found (-want +got)\n%s", diff)
			}
			if found != (got.ID == "PRI-1") || tx.Doc().Priorities.Len() != map[bool]int{true: 1, false: 2}[found] {
				t.Errorf("answered %s with %d notes held", got.ID, tx.Doc().Priorities.Len())
			}
		})
	}
}
