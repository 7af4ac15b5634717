package humanedit_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/opsboard/opsboard/board/internal/rules/humanedit"
	"github.com/opsboard/opsboard/shared/wire"
)

// BenchmarkApply is the rule alone on one write to a case with tasks and
// notes, by the agent against a person's recent edits (the check runs
// whole) and by the person (the edits are stamped).
func BenchmarkApply(b *testing.B) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	c := &wire.Case{ID: "CASE-1", Title: "Lease", Summary: "Sign by Friday", Status: wire.LaneTodo}
	for i := range 20 {
		c.Tasks = append(c.Tasks, wire.Task{ID: fmt.Sprintf("CASE-1-T%d", i), Title: fmt.Sprintf("Task %d", i)})
		c.Notes = append(c.Notes, wire.Note{ID: fmt.Sprintf("N%d", i), Text: "A note of some length about the lease"})
	}
	before := humanedit.Fields(c)
	c.HumanEdits = humanedit.Stamp(nil, before, []string{"title", "status"}, now.Add(-time.Hour))
	after := *c
	after.Summary = "Sign by Monday"
	for _, actor := range []wire.Actor{wire.ActorAgent, wire.ActorHuman} {
		b.Run(string(actor), func(b *testing.B) {
			w := humanedit.Write{Actor: actor, Record: c.ID, Edits: c.HumanEdits, Before: before, After: &after,
				Ignore: humanedit.Untracked, Window: humanedit.Window, Now: now}
			for b.Loop() {
				if _, _, err := w.Apply(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFieldsLongHistory is Fields on a case with a long activity log,
// as a case edited for years has: the log is left out, so the cost stays
// that of the case's own fields.
func BenchmarkFieldsLongHistory(b *testing.B) {
	c := &wire.Case{ID: "CASE-1", Title: "Lease", Summary: "Sign by Friday", Status: wire.LaneTodo}
	for i := range 1000 {
		c.Activity = append(c.Activity, wire.Activity{TS: "2026-11-24T12:00:00Z", Actor: wire.ActorAgent, Verb: wire.VerbTitleChanged, Detail: fmt.Sprintf("title: round %d", i)})
	}
	for b.Loop() {
		humanedit.Fields(c)
	}
}

// BenchmarkFields is Fields on a case with tasks and notes, which every
// tracked patch runs twice.
func BenchmarkFields(b *testing.B) {
	c := &wire.Case{ID: "CASE-1", Title: "Lease", Summary: "Sign by Friday", Status: wire.LaneTodo}
	for i := range 20 {
		c.Tasks = append(c.Tasks, wire.Task{ID: fmt.Sprintf("CASE-1-T%d", i), Title: fmt.Sprintf("Task %d", i)})
		c.Notes = append(c.Notes, wire.Note{ID: fmt.Sprintf("N%d", i), Text: "A note of some length about the lease"})
	}
	for b.Loop() {
		humanedit.Fields(c)
	}
}
