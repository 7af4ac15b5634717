package humanedit_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
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
