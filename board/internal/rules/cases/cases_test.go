package cases

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

var (
	then = "2026-01-01T09:00:00Z"
	now  = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	ts   = "2026-03-01T12:00:00Z"
)

// board is a small tree: an initiative holding a workstream holding a case,
// a loose case, with a message, an event and a reminder on CASE-3.
func board() *wire.Doc {
	c := func(id string, kind wire.Kind, parent string, status wire.Lane) *wire.Case {
		return &wire.Case{ID: id, Title: "title of " + id, Kind: kind, ParentID: parent, Status: status, Domain: "work", Labels: []string{"finance"}, CreatedAt: then, UpdatedAt: then}
	}
	return &wire.Doc{
		Version: 7,
		Cases: wire.ListOf([]*wire.Case{
			c("CASE-1", "initiative", "", "todo"), c("CASE-2", "workstream", "CASE-1", "todo"),
			c("CASE-3", "case", "CASE-2", "todo"), c("CASE-4", "case", "", "done"),
		}...),
		Messages:  wire.ListOf([]*wire.Message{{ID: "M-1", Subject: "hello", CaseID: "CASE-3"}}...),
		Events:    wire.ListOf([]*wire.Event{{ID: "EVT-1", Title: "call", Date: "2026-03-02", CaseID: "CASE-3"}}...),
		Reminders: wire.ListOf([]*wire.Reminder{{ID: "REM-1", Title: "chase", Status: "open", CaseID: "CASE-3"}}...),
		Labels:    wire.ListOf([]*wire.LabelDef{{ID: "finance", Title: "Finance", Color: "green"}, {ID: "legal", Title: "Legal", Color: "red"}}...),
		Counters:  map[string]int64{"CASE": 4, "M": 1, "EVT": 1, "REM": 1},
	}
}

func verbs(c *wire.Case) []string {
	var out []string
	for _, a := range c.Activity {
		out = append(out, string(a.Verb)+" "+a.Detail)
	}
	return out
}

func TestPatchTx(t *testing.T) {
	for _, tc := range []struct {
		name  string
		id    string
		patch wire.CasePatch
		err   string   // a part of the refusal; "" means accepted
		log   []string // the entries the patch logs
		check func(t *testing.T, c *wire.Case)
	}{
		{name: "move to a lane logs the move", id: "CASE-3", patch: wire.CasePatch{Status: wire.Some("done")}, log: []string{"status_changed todo → done"},
			check: func(t *testing.T, c *wire.Case) {
				if c.Status != "done" || c.UpdatedAt != ts {
					t.Errorf("status %s updatedAt %s", c.Status, c.UpdatedAt)
				}
			}},
		{name: "a lane outside the set is refused", id: "CASE-3", patch: wire.CasePatch{Status: wire.Some("later")}, err: "field 'status' must be one of urgent, todo, in_progress, waiting_for_input, done"},
		{name: "null status is refused", id: "CASE-3", patch: wire.CasePatch{Status: wire.Null[string]()}, err: "field 'status' cannot be null"},
		{name: "an empty title is refused", id: "CASE-3", patch: wire.CasePatch{Title: wire.Some("  ")}, err: "field 'title' cannot be empty"},
		{name: "a title is trimmed and logged with both values", id: "CASE-3", patch: wire.CasePatch{Title: wire.Some(" New ")}, log: []string{`title_changed "title of CASE-3" → "New"`}},
		{name: "the same value changes nothing", id: "CASE-3", patch: wire.CasePatch{Status: wire.Some("todo")},
			check: func(t *testing.T, c *wire.Case) {
				if c.UpdatedAt != then {
					t.Errorf("updatedAt moved to %s on a patch that changed nothing", c.UpdatedAt)
				}
			}},
		{name: "an added label must be in the catalog", id: "CASE-3", patch: wire.CasePatch{Labels: wire.Some([]string{"finance", "nope"})}, err: "unknown label id(s): nope. Valid label ids: finance, legal"},
		{name: "a label may be dropped", id: "CASE-3", patch: wire.CasePatch{Labels: wire.Some([]string{})}, log: []string{"labels_changed "}},
		{name: "a case cannot hold children", id: "CASE-2", patch: wire.CasePatch{Kind: wire.Some("case")}, err: "a case cannot contain other nodes"},
		{name: "a workstream needs an initiative", id: "CASE-4", patch: wire.CasePatch{Kind: wire.Some("workstream")}, err: "workstream CASE-4 needs a parent initiative"},
		{name: "reparent logs both ends", id: "CASE-4", patch: wire.CasePatch{ParentID: wire.Some("CASE-2")}, log: []string{"parent_changed none → CASE-2"}},
		{name: "archive stamps and logs", id: "CASE-4", patch: wire.CasePatch{ArchivedAt: wire.Some("now")}, log: []string{"archived "},
			check: func(t *testing.T, c *wire.Case) {
				if c.ArchivedAt != ts {
					t.Errorf("archivedAt %q, want the write's time", c.ArchivedAt)
				}
			}},
		{name: "unknown case", id: "CASE-9", patch: wire.CasePatch{Status: wire.Some("done")}, err: "case CASE-9 not found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := board()
			tx := store.Scratch(d, now, wire.ActorAgent)
			c, err := PatchTx(tx, tc.id, tc.patch)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.log, verbs(c)); diff != "" {
				t.Errorf("activity (-want +got)\n%s", diff)
			}
			for _, a := range c.Activity {
				if a.Actor != wire.ActorAgent || a.TS != ts {
					t.Errorf("entry %+v: want the write's actor and time", a)
				}
			}
			if tc.check != nil {
				tc.check(t, c)
			}
			if d.Cases.At(2).Status != "todo" || d.Cases.At(2).Title != "title of CASE-3" || len(d.Cases.At(2).Activity) != 0 {
				t.Errorf("the committed record changed: %+v", d.Cases.At(2))
			}
		})
	}
}

func TestCreateTx(t *testing.T) {
	for _, tc := range []struct {
		name  string
		in    wire.CaseCreate
		id    string // the case that comes back
		found bool
		err   string
	}{
		{"defaults and a fresh id", wire.CaseCreate{Title: "New"}, "CASE-5", false, ""},
		{"dedupe returns an exact match", wire.CaseCreate{Title: " TITLE of  case-3", Kind: "case", ParentID: "CASE-2", Dedupe: true}, "CASE-3", true, ""},
		{"dedupe compares the parent too", wire.CaseCreate{Title: "title of CASE-3", Dedupe: true}, "CASE-5", false, ""},
		{"a title is required", wire.CaseCreate{Title: " "}, "", false, "Field 'title' is required."},
		{"a case cannot sit under a case", wire.CaseCreate{Title: "x", ParentID: "CASE-4"}, "", false, "parent CASE-4 is a case"},
		{"a task needs a title", wire.CaseCreate{Title: "x", Tasks: []wire.TaskInput{{Title: "a"}, {}}}, "", false, "task 2 needs a title"},
		{"a template must exist", wire.CaseCreate{TemplateID: "TPL-1"}, "", false, "template TPL-1 not found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tx := store.Scratch(board(), now, wire.ActorHuman)
			c, found, err := CreateTx(tx, tc.in)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.ID != tc.id || found != tc.found {
				t.Errorf("got %s found=%v, want %s found=%v", c.ID, found, tc.id, tc.found)
			}
			if !found && (c.Status != "todo" || c.Domain != "work" || c.Kind != "case" || c.CreatedAt != ts) {
				t.Errorf("defaults: %+v", c)
			}
		})
	}
}

func TestDeleteTxRepairsLinks(t *testing.T) {
	tx := store.Scratch(board(), now, wire.ActorHuman)
	if err := DeleteTx(tx, "CASE-1"); err != nil {
		t.Fatal(err)
	}
	ws, _ := tx.Cases().Get("CASE-2")
	if ws.ParentID != "" || ws.Kind != "initiative" {
		t.Errorf("the orphaned workstream is %s under %q, want a root initiative", ws.Kind, ws.ParentID)
	}
	if diff := cmp.Diff([]string{"kind_changed workstream → initiative: its initiative was deleted", "parent_changed detached: parent CASE-1 was deleted"}, verbs(ws)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if tx.Cases().Has("CASE-1") {
		t.Error("CASE-1 is still there")
	}
	if err := DeleteTx(tx, "CASE-3"); err != nil {
		t.Fatal(err)
	}
	d := tx.Doc()
	if d.Messages.At(0).CaseID != "" || d.Events.At(0).CaseID != "" || d.Reminders.At(0).CaseID != "" {
		t.Errorf("links to a deleted case remain: %+v %+v %+v", d.Messages.At(0), d.Events.At(0), d.Reminders.At(0))
	}
	if err := DeleteTx(tx, "CASE-3"); err == nil || err.Error() != "case CASE-3 not found" {
		t.Errorf("second delete: %v", err)
	}
}

func TestMergeTx(t *testing.T) {
	d := board()
	d.Cases.At(2).Tasks = []wire.Task{{ID: "CASE-3-T1", Title: "a"}}
	d.Cases.At(3).Tasks = []wire.Task{{ID: "CASE-4-T1", Title: "b"}, {ID: "CASE-4-T2", Title: "c"}}
	for _, tc := range []struct {
		name, src, dst, err string
	}{
		{"into itself", "CASE-3", "CASE-3", "cannot merge CASE-3 into itself"},
		{"no target", "CASE-3", " ", "field 'targetId' is required"},
		{"unknown target", "CASE-3", "CASE-9", "case CASE-9 not found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := MergeTx(store.Scratch(d, now, wire.ActorHuman), tc.src, tc.dst); err == nil || err.Error() != tc.err {
				t.Errorf("err %v, want %q", err, tc.err)
			}
		})
	}
	tx := store.Scratch(d, now, wire.ActorHuman)
	got, err := MergeTx(tx, "CASE-3", "CASE-4")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"CASE-4-T1", "CASE-4-T2", "CASE-4-T3"}, taskIDs(got)); diff != "" {
		t.Errorf("tasks move with fresh ids (-want +got)\n%s", diff)
	}
	src, _ := tx.Cases().Get("CASE-3")
	if src.ArchivedAt != ts || src.MergedInto != "CASE-4" || len(src.Tasks) != 0 || src.Notes[0].Text != "Merged into CASE-4: use CASE-4." {
		t.Errorf("source after merge: %+v", src)
	}
	if d := tx.Doc(); d.Messages.At(0).CaseID != "CASE-4" || d.Events.At(0).CaseID != "CASE-4" || d.Reminders.At(0).CaseID != "CASE-4" {
		t.Error("links did not follow the merge")
	}
}

func TestList(t *testing.T) {
	d := board()
	d.Cases.At(3).ArchivedAt = then
	d.Cases.At(0).Starred = true
	ids := func(cs []*wire.Case) []string {
		out := []string{}
		for _, c := range cs {
			out = append(out, c.ID)
		}
		return out
	}
	for _, tc := range []struct {
		name string
		f    Filter
		want []string
		err  string
	}{
		{"archived are left out", Filter{}, []string{"CASE-1", "CASE-2", "CASE-3"}, ""},
		{"unless asked for", Filter{IncludeArchived: true}, []string{"CASE-1", "CASE-2", "CASE-3", "CASE-4"}, ""},
		{"by kind", Filter{Kind: "workstream"}, []string{"CASE-2"}, ""},
		{"top level only", Filter{ParentGiven: true}, []string{"CASE-1"}, ""},
		{"children of one parent", Filter{ParentGiven: true, ParentID: "CASE-2"}, []string{"CASE-3"}, ""},
		{"starred", Filter{Starred: true, StarredGiven: true}, []string{"CASE-1"}, ""},
		{"not starred", Filter{StarredGiven: true}, []string{"CASE-2", "CASE-3"}, ""},
		{"by label", Filter{Label: "legal"}, []string{}, ""},
		{"a bad lane", Filter{Status: "later"}, nil, "query 'status' must be one of [urgent todo in_progress waiting_for_input done]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := List(d, tc.f)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, ids(got)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestGet(t *testing.T) {
	d := board()
	d.Cases.At(2).Activity = []wire.Activity{{Actor: wire.ActorAgent, Verb: "created"}, {Actor: wire.ActorHuman, Verb: "status_changed"}}
	got, err := Get(d, "CASE-3")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Messages) != 1 || len(got.Events) != 1 || len(got.Reminders) != 1 || len(got.ManualActions) != 1 || got.ManualActions[0].Verb != "status_changed" {
		t.Errorf("detail: %+v", got)
	}
	empty, _ := Get(d, "CASE-4")
	if empty.Messages == nil || empty.Events == nil || empty.Reminders == nil || empty.ManualActions == nil {
		t.Error("empty lists must be [] on the wire, not null")
	}
	if _, err := Get(d, "CASE-9"); err == nil || err.Error() != "case CASE-9 not found" {
		t.Errorf("unknown case: %v", err)
	}
}
