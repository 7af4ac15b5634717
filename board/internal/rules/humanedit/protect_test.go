package humanedit_test

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/rules/humanedit"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// TestFields: each field's JSON as the record encodes it, the same as a
// full decode gives, with a case's activity left out.
func TestFields(t *testing.T) {
	due := "2026-12-01"
	for _, rec := range []any{
		&wire.Case{ID: "CASE-1", Title: "Desks \"north\" \u00e9", Status: wire.LaneTodo, Labels: []string{"a", "b"}, DueAt: due,
			Tasks: []wire.Task{{ID: "CASE-1-T1", Title: "Call"}}, Notes: []wire.Note{{ID: "N1", Text: "a {note} [1]"}},
			Activity: []wire.Activity{{Actor: wire.ActorAgent, Verb: wire.VerbTitleChanged, TS: "1"}}},
		&wire.Reminder{ID: "R-1", Title: "Pay rent", Labels: []string{"home"}},
		&wire.Event{ID: "EVT-1", Title: "Board meeting"},
	} {
		data, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		var want map[string]json.RawMessage
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatal(err)
		}
		delete(want, "activity")
		if diff := cmp.Diff(want, humanedit.Fields(rec)); diff != "" {
			t.Errorf("Fields(%T) (-want +got)\n%s", rec, diff)
		}
	}
}

func TestChanged(t *testing.T) {
	before := &wire.Case{ID: "CASE-1", Title: "Desks", Status: "todo", Labels: []string{"a"}, UpdatedAt: "1"}
	for _, tc := range []struct {
		name  string
		after wire.Case
		want  []string
	}{
		{"nothing", *before, nil},
		{"a stamp alone is no change", wire.Case{ID: "CASE-1", Title: "Desks", Status: "todo", Labels: []string{"a"}, UpdatedAt: "2"}, nil},
		{"two fields", wire.Case{ID: "CASE-1", Title: "Chairs", Status: "done", Labels: []string{"a"}}, []string{"status", "title"}},
		{"a cleared field", wire.Case{ID: "CASE-1", Title: "Desks", Status: "todo"}, []string{"labels"}},
		{"a set field", wire.Case{ID: "CASE-1", Title: "Desks", Status: "todo", Labels: []string{"a"}, DueAt: "2026-12-01"}, []string{"dueAt"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := humanedit.Changed(humanedit.Fields(before), humanedit.Fields(&tc.after), humanedit.Untracked)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestFind(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	was := humanedit.Fields(&wire.Case{Status: "todo", Title: "Desks"})
	person := humanedit.Fields(&wire.Case{Status: "waiting_for_input", Title: "Chairs", DueAt: "2026-12-01"})
	edits := humanedit.Stamp(nil, was, []string{"status"}, now.Add(-2*time.Hour))
	edits = humanedit.Stamp(edits, was, []string{"title", "labels"}, now.Add(-8*24*time.Hour))
	edits["dueAt"] = wire.HumanEdit{At: "not a time"}
	edits["summary"] = wire.HumanEdit{At: "2026-11-24T11:00:00Z"} // the older form: no replaced value
	for _, tc := range []struct {
		name   string
		after  wire.Case
		fields []string
		window time.Duration
		want   humanedit.Conflict
		ok     bool
	}{
		{"a change two hours old holds", wire.Case{Status: "done"}, []string{"status"}, humanedit.Window, humanedit.Conflict{Field: "status", TS: "2026-11-24T10:00:00Z", Value: json.RawMessage(`"waiting_for_input"`)}, true},
		{"a change older than the window no longer does", wire.Case{Title: "Tables"}, []string{"title"}, humanedit.Window, humanedit.Conflict{}, false},
		{"but its revert is refused at any age", wire.Case{Title: "Desks"}, []string{"title"}, humanedit.Window, humanedit.Conflict{Field: "title", TS: "2026-11-16T12:00:00Z", Value: json.RawMessage(`"Chairs"`), Revert: true}, true},
		{"a window of 0 leaves only the revert", wire.Case{Status: "done"}, []string{"status"}, 0, humanedit.Conflict{}, false},
		{"a revert with a window of 0", wire.Case{Status: "todo"}, []string{"status"}, 0, humanedit.Conflict{Field: "status", TS: "2026-11-24T10:00:00Z", Value: json.RawMessage(`"waiting_for_input"`), Revert: true}, true},
		{"clearing a field the person set is a revert to empty", wire.Case{}, []string{"labels"}, 0, humanedit.Conflict{Field: "labels", TS: "2026-11-16T12:00:00Z", Value: json.RawMessage(`null`), Revert: true}, true},
		{"a field the person never changed", wire.Case{Eta: "soon"}, []string{"eta"}, humanedit.Window, humanedit.Conflict{}, false},
		{"an unreadable stamp protects no new value", wire.Case{DueAt: "2026-12-09"}, []string{"dueAt"}, humanedit.Window, humanedit.Conflict{}, false},
		{"an older stamp holds for the window", wire.Case{Summary: "x"}, []string{"summary"}, humanedit.Window, humanedit.Conflict{Field: "summary", TS: "2026-11-24T11:00:00Z", Value: json.RawMessage(`null`)}, true},
		{"nothing changed", wire.Case{}, nil, humanedit.Window, humanedit.Conflict{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := humanedit.Find(edits, person, humanedit.Fields(&tc.after), tc.fields, tc.window, now)
			if diff := cmp.Diff([]any{tc.want, tc.ok}, []any{got, ok}); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
	if got := humanedit.Stamp(nil, was, nil, now); got != nil {
		t.Errorf("stamping nothing made %v", got)
	}
}

func TestHumanEditsLoad(t *testing.T) {
	var c wire.Case
	doc := `{"id":"CASE-1","humanEdits":{"status":"2026-11-24T09:00:00Z","title":{"at":"2026-11-25T09:00:00Z","was":"Desks"},"labels":{"at":"2026-11-25T09:00:00Z","was":null}}}`
	if err := json.Unmarshal([]byte(doc), &c); err != nil {
		t.Fatal(err)
	}
	want := wire.HumanEdits{
		"status": {At: "2026-11-24T09:00:00Z"},
		"title":  {At: "2026-11-25T09:00:00Z", Was: json.RawMessage(`"Desks"`)},
		"labels": {At: "2026-11-25T09:00:00Z", Was: json.RawMessage(`null`)},
	}
	if diff := cmp.Diff(want, c.HumanEdits); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	out, _ := json.Marshal(c.HumanEdits)
	if got := string(out); got != `{"labels":{"at":"2026-11-25T09:00:00Z","was":null},"status":{"at":"2026-11-24T09:00:00Z"},"title":{"at":"2026-11-25T09:00:00Z","was":"Desks"}}` {
		t.Errorf("written back as %s", got)
	}
}

func TestWindowOf(t *testing.T) {
	for _, tc := range []struct {
		prefs string
		want  time.Duration
	}{
		{``, 7 * 24 * time.Hour},
		{`{"view":"operational"}`, 7 * 24 * time.Hour},
		{`{"humanEditWindow":0}`, 0},
		{`{"humanEditWindow":30}`, 30 * 24 * time.Hour},
		{`{"humanEditWindow":91}`, 7 * 24 * time.Hour},
		{`{"humanEditWindow":1.5}`, 7 * 24 * time.Hour},
		{`{"humanEditWindow":"3"}`, 7 * 24 * time.Hour},
	} {
		if got := humanedit.WindowOf(json.RawMessage(tc.prefs)); got != tc.want {
			t.Errorf("WindowOf(%s) = %v, want %v", tc.prefs, got, tc.want)
		}
	}
}

func TestWrite(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	before := &wire.Case{ID: "CASE-1", Title: "Desks", Status: "todo"}
	moved := &wire.Case{ID: "CASE-1", Title: "Desks", Status: "done"}
	recent := humanedit.Stamp(nil, humanedit.Fields(before), []string{"status"}, now.Add(-time.Hour))
	reverted := humanedit.Stamp(nil, humanedit.Fields(moved), []string{"status"}, now.Add(-30*24*time.Hour))
	for _, tc := range []struct {
		name      string
		w         humanedit.Write
		wantOver  *humanedit.Conflict
		wantErr   string
		wantEdits []string // the fields Track stamps
	}{
		{"the person's change is stamped", humanedit.Write{Actor: wire.ActorHuman, After: moved}, nil, "", []string{"status"}},
		{"the agent may change what the person left alone", humanedit.Write{Actor: wire.ActorAgent, After: moved}, nil, "", nil},
		{"the agent may not undo the person's recent change", humanedit.Write{Actor: wire.ActorAgent, Edits: recent, After: moved}, nil, "status", []string{"status"}},
		{"unless it says override", humanedit.Write{Actor: wire.ActorAgent, Override: true, Edits: recent, After: moved}, &humanedit.Conflict{Field: "status", TS: "2026-11-24T11:00:00Z", Value: json.RawMessage(`"todo"`)}, "", []string{"status"}},
		{"nor set back what the person replaced a month ago", humanedit.Write{Actor: wire.ActorAgent, Edits: reverted, After: moved}, nil, "status", []string{"status"}},
		{"an approved proposal is the person's decision", humanedit.Write{Actor: wire.ActorAgent, Decided: true, Edits: recent, After: moved}, nil, "", []string{"status"}},
		{"an ignored field is never protected", humanedit.Write{Actor: wire.ActorAgent, Edits: recent, After: moved, Ignore: []string{"status"}}, nil, "", []string{"status"}},
		{"the system is never refused", humanedit.Write{Actor: wire.ActorSystem, Edits: recent, After: moved}, nil, "", []string{"status"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.w.Record, tc.w.Before, tc.w.Now, tc.w.Window = "CASE-1", humanedit.Fields(before), now, humanedit.Window
			over, err := tc.w.Check()
			var refused *errs.HumanChangeError
			if errors.As(err, &refused) {
				if diff := cmp.Diff([]string{"CASE-1", tc.wantErr}, []string{refused.Record, refused.Field}); diff != "" {
					t.Errorf("refusal (-want +got)\n%s", diff)
				}
			} else if err != nil || tc.wantErr != "" {
				t.Errorf("Check: %v, want a refusal naming %q", err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.wantOver, over); diff != "" {
				t.Errorf("override (-want +got)\n%s", diff)
			}
			var stamped []string
			for f := range tc.w.Track() {
				stamped = append(stamped, f)
			}
			if diff := cmp.Diff(tc.wantEdits, stamped); diff != "" {
				t.Errorf("Track (-want +got)\n%s", diff)
			}
		})
	}
}

func TestRemoval(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	c := &wire.Case{ID: "CASE-1", Title: "Chairs"}
	c.HumanEdits = humanedit.Stamp(nil, humanedit.Fields(&wire.Case{Title: "Desks"}), []string{"title"}, now.Add(-time.Hour))
	for _, tc := range []struct {
		name    string
		by      wire.Actor
		decided bool
		prefs   string
		want    string // the field refused over, "" when allowed
	}{
		{"the agent may not delete the person's recent work", wire.ActorAgent, false, ``, "title"},
		{"the person may", wire.ActorHuman, false, ``, ""},
		{"an approved proposal may", wire.ActorAgent, true, ``, ""},
		{"past the window the agent may", wire.ActorAgent, false, `{"humanEditWindow":0}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tx := store.Scratch(&wire.Doc{Prefs: json.RawMessage(tc.prefs)}, now, tc.by)
			if tc.decided {
				tx.MarkDecided()
			}
			got := ""
			var refused *errs.HumanChangeError
			if err := humanedit.Removal(tx, c.ID, c.HumanEdits, c); errors.As(err, &refused) {
				got = refused.Field
				if string(refused.Value) != `"Chairs"` {
					t.Errorf("value %s, want the person's", refused.Value)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("refused over %q, want %q", got, tc.want)
			}
		})
	}
}
