package activity

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

func TestCategory(t *testing.T) {
	for verb, want := range map[string]string{
		"status_changed": "status", "task_completed": "tasks", "note_added": "notes", "message_linked": "messages",
		"event_linked": "events", "reminder_completed": "reminders", "parent_changed": "hierarchy", "merged_into": "hierarchy",
		"child_detached": "hierarchy", "labels_changed": "labels", "unstarred": "priority", "archived": "lifecycle",
		"title_changed": "edit", "something_new": "edit",
		"ingest_run": "ingest", "task_from_an_older_board": "tasks", "imported": "edit", "undone": "edit", "override": "edit",
	} {
		if got := Category(wire.Verb(verb)); got != want {
			t.Errorf("Category(%q) = %q, want %q", verb, got, want)
		}
	}
}

func TestLogKeepsTheLastEntries(t *testing.T) {
	c := &wire.Case{}
	for i := 0; i < MaxEntries+5; i++ {
		Log(c, wire.ActorHuman, "note_added", "", string(rune('a'+i%26)))
	}
	if len(c.Activity) != MaxEntries || c.Activity[0].TS != string(rune('a'+5%26)) {
		t.Errorf("kept %d entries starting at %q", len(c.Activity), c.Activity[0].TS)
	}
}

func TestFeed(t *testing.T) {
	d := &wire.Doc{
		Cases: wire.ListOf([]*wire.Case{{ID: "CASE-1", Title: "one", Activity: []wire.Activity{
			{Actor: "human", Verb: "status_changed", TS: "2026-01-03"},
			{Actor: "agent", Verb: "reminder_linked", TS: "2026-01-02", Detail: "REM-1 chase"},
		}}}...),
		Reminders: wire.ListOf([]*wire.Reminder{
			// created is synthesized; its link was logged on the case under another verb
			{ID: "REM-1", Title: "chase", CaseID: "CASE-1", CreatedBy: "agent", CreatedAt: "2026-01-02", Status: "done", CompletedAt: "2026-01-04"},
		}...),
		Events: wire.ListOf([]*wire.Event{{ID: "EVT-1", Title: "call", Date: "2026-02-01", CreatedAt: "2026-01-01"}}...),
	}
	type row struct{ Verb, Actor, Category, CaseTitle, Ref string }
	rows := func(es []wire.ActivityEntry) []row {
		var out []row
		for _, e := range es {
			out = append(out, row{string(e.Verb), string(e.Actor), e.Category, e.CaseTitle, e.ReminderID + e.EventID})
		}
		return out
	}
	for _, tc := range []struct {
		name string
		q    Query
		want []row
	}{
		{"newest first, lifecycle rows included", Query{}, []row{
			{"reminder_completed", "system", "reminders", "one", "REM-1"},
			{"status_changed", "human", "status", "one", ""},
			{"reminder_linked", "agent", "reminders", "one", ""},
			{"reminder_created", "agent", "reminders", "one", "REM-1"},
			{"event_created", "system", "events", "", "EVT-1"},
		}},
		{"since", Query{Since: "2026-01-03"}, []row{{"reminder_completed", "system", "reminders", "one", "REM-1"}, {"status_changed", "human", "status", "one", ""}}},
		{"by actor and category", Query{Actor: "agent", Category: "reminders"}, []row{{"reminder_linked", "agent", "reminders", "one", ""}, {"reminder_created", "agent", "reminders", "one", "REM-1"}}},
		{"limit", Query{Limit: 1}, []row{{"reminder_completed", "system", "reminders", "one", "REM-1"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, rows(Feed(d, tc.q))); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestOnBoardKeepsTheNewestRows(t *testing.T) {
	tx := store.Scratch(&wire.Doc{}, time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC), wire.ActorAgent)
	for i := range MaxBoard + 3 {
		OnBoard(tx, fmt.Sprintf("PRI-%d", i+1), wire.VerbOverride, "override")
	}
	rows := tx.Doc().BoardActivity
	if rows.Len() != MaxBoard {
		t.Fatalf("kept %d rows, want %d", rows.Len(), MaxBoard)
	}
	for _, r := range rows.All() {
		if r.Record == "PRI-1" || r.Record == "PRI-3" {
			t.Errorf("the oldest row %s is still kept", r.Record)
		}
	}
	feed := Feed(tx.Doc(), Query{Actor: wire.ActorAgent, Limit: 1})
	if len(feed) != 1 || feed[0].Verb != wire.VerbOverride || feed[0].CaseID != "" {
		t.Errorf("the feed shows %+v", feed)
	}
}
