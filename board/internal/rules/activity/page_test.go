package activity

import (
	"testing"

	"github.com/opsboard/opsboard/shared/wire"
)

// Two rows that say the same thing at the same time (one write logging the
// same entry twice on a case) are both in the feed; a page boundary between
// them must not drop the second.
func TestPageKeepsIdenticalRowsAcrossABoundary(t *testing.T) {
	same := wire.Activity{Actor: wire.ActorHuman, Verb: "task_added", TS: "2026-11-26T10:00:00Z", Detail: "Call the bank"}
	d := &wire.Doc{Cases: wire.ListOf([]*wire.Case{{ID: "CASE-1", Title: "Bank", Activity: []wire.Activity{
		{Actor: wire.ActorHuman, Verb: "created", TS: "2026-11-26T09:00:00Z", Detail: "case"}, same, same,
	}}}...)}
	var verbs []string
	cursor := ""
	for range 10 {
		page, next, err := Page(d, Query{}, cursor, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range page {
			verbs = append(verbs, string(r.Verb))
		}
		if next == "" {
			break
		}
		cursor = next
	}
	if len(verbs) != 3 {
		t.Errorf("pages of one row gave %v, want all three rows (task_added twice, then created)", verbs)
	}
}
