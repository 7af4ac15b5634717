package humanedit_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/rules/humanedit"
	"github.com/opsboard/opsboard/shared/wire"
)

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

func TestRecent(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	edits := humanedit.Stamp(nil, []string{"status"}, now.Add(-2*time.Hour))
	edits = humanedit.Stamp(edits, []string{"title"}, now.Add(-25*time.Hour))
	edits["dueAt"] = "not a time"
	for _, tc := range []struct {
		name   string
		fields []string
		want   humanedit.Conflict
		ok     bool
	}{
		{"a change two hours old holds", []string{"summary", "status"}, humanedit.Conflict{Field: "status", TS: "2026-11-24T10:00:00Z"}, true},
		{"a change a day old no longer does", []string{"title"}, humanedit.Conflict{}, false},
		{"a field the person never changed", []string{"labels"}, humanedit.Conflict{}, false},
		{"an unreadable stamp protects nothing", []string{"dueAt"}, humanedit.Conflict{}, false},
		{"nothing changed", nil, humanedit.Conflict{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := humanedit.Recent(edits, tc.fields, now)
			if diff := cmp.Diff([]any{tc.want, tc.ok}, []any{got, ok}); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
	if got := humanedit.Stamp(nil, nil, now); got != nil {
		t.Errorf("stamping nothing made %v", got)
	}
}

func TestWrite(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	before := &wire.Case{ID: "CASE-1", Title: "Desks", Status: "todo"}
	moved := &wire.Case{ID: "CASE-1", Title: "Desks", Status: "done"}
	recent := humanedit.Stamp(nil, []string{"status"}, now.Add(-time.Hour))
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
		{"unless it says override", humanedit.Write{Actor: wire.ActorAgent, Override: true, Edits: recent, After: moved}, &humanedit.Conflict{Field: "status", TS: "2026-11-24T11:00:00Z"}, "", []string{"status"}},
		{"an ignored field is never protected", humanedit.Write{Actor: wire.ActorAgent, Edits: recent, After: moved, Ignore: []string{"status"}}, nil, "", []string{"status"}},
		{"the system is never refused", humanedit.Write{Actor: wire.ActorSystem, Edits: recent, After: moved}, nil, "", []string{"status"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.w.Record, tc.w.Before, tc.w.Now = "CASE-1", humanedit.Fields(before), now
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
