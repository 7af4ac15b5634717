package priorities

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/shared/wire"
)

func TestList(t *testing.T) {
	pos := func(f float64) *float64 { return &f }
	d := &wire.Doc{
		Priorities: wire.ListOf([]*wire.Priority{
			{ID: "PRI-10", CreatedAt: "a"}, {ID: "PRI-2", Position: pos(2)}, {ID: "PRI-9", CreatedAt: "a"},
			{ID: "PRI-1", Position: pos(1)}, {ID: "PRI-3", CreatedAt: "0"},
		}...),
		Cases: wire.ListOf([]*wire.Case{
			{ID: "CASE-1", Kind: wire.KindCase, Starred: true, UpdatedAt: "2"},
			{ID: "CASE-2", Kind: wire.KindInitiative, Starred: true, UpdatedAt: "1"},
			{ID: "CASE-3", Kind: wire.KindCase, Starred: true, UpdatedAt: "3"},
			{ID: "CASE-4", Kind: wire.KindWorkstream, Starred: true, ArchivedAt: "x"},
			{ID: "CASE-5", Kind: wire.KindWorkstream},
		}...),
	}
	notes, starred := List(d)
	var got []string
	for _, n := range notes {
		got = append(got, n.ID)
	}
	for _, c := range starred {
		got = append(got, c.ID)
	}
	want := []string{
		"PRI-1", "PRI-2", "PRI-3", "PRI-9", "PRI-10", // by position, then unplaced by creation and id number
		"CASE-2", "CASE-3", "CASE-1", // initiatives first, then newest first; archived and unstarred left out
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}
