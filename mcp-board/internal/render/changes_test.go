package render

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/shared/wire"
)

func row(actor wire.Actor, verb, ts, caseID, title string) wire.ActivityEntry {
	return wire.ActivityEntry{Activity: wire.Activity{Actor: actor, Verb: wire.Verb(verb), TS: ts}, CaseID: caseID, CaseTitle: title}
}

// TestChanges: rows group by record (a task under its case, a reminder on
// its own, named from the ring), the person first, verbs oldest first; the
// ring's records no row names and the removed ones follow.
func TestChanges(t *testing.T) {
	rem := row(wire.ActorAgent, "reminder_created", "2026-11-26T10:00:00Z", "", "")
	rem.ReminderID = "REM-2"
	got := Changes(ChangeSet{
		Since: "version 40", Version: 47,
		Rows: []wire.ActivityEntry{ // newest first, as the feed answers
			row(wire.ActorHuman, "status_changed", "2026-11-26T12:00:00Z", "CASE-7", "Order desks"),
			row(wire.ActorAgent, "task_completed", "2026-11-26T11:00:00Z", "CASE-7", "Order desks"),
			row(wire.ActorAgent, "task_completed", "2026-11-26T10:30:00Z", "CASE-7", "Order desks"),
			rem,
			row(wire.ActorAgent, "note_added", "2026-11-26T09:00:00Z", "CASE-7", "Order desks"),
		},
		Others:  []wire.ChangedRecord{{ID: "PRI-1", Kind: "priority", Record: json.RawMessage(`{"id":"PRI-1","text":"Desks first"}`)}},
		Removed: []wire.RecordRef{{ID: "M-4", Kind: "message"}},
		Titles:  map[string]string{"REM-2": "Call movers"},
	})
	want := `Since version 40 (now version 47: pass it as sinceVersion next time): 5 changes on 2 records; by human 1, agent 4.
CASE-7 "Order desks" - human: status_changed - agent: note_added, task_completed x2
REM-2 "Call movers" - agent: reminder_created
Also changed (no Activity row names who): priority PRI-1 "Desks first"
Removed: message M-4`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if got := Changes(ChangeSet{Since: "2026-11-25T12:00:00Z", Version: 3}); got != "Since 2026-11-25T12:00:00Z (now version 3: pass it as sinceVersion next time): 0 changes on 0 records.\nNothing changed." {
		t.Errorf("nothing: %q", got)
	}
}
