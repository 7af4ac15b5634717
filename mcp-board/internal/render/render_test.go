package render

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/shared/client"
	"github.com/opsboard/opsboard/shared/wire"
)

func TestCaseLineFlags(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    wire.Case
		want string
	}{
		{"leaf", wire.Case{ID: "CASE-1", Title: "Desks", Kind: "case", Status: "todo"}, "CASE-1 - [case] Desks - [todo]"},
		{"absent kind reads as a case", wire.Case{ID: "CASE-1", Title: "Desks", Status: "done"}, "CASE-1 - [case] Desks - [done]"},
		{"container has no lane", wire.Case{ID: "CASE-2", Title: "Move", Kind: "initiative", Status: "todo", Starred: true}, "CASE-2 - [initiative] Move - starred"},
		{"archived", wire.Case{ID: "CASE-3", Title: "Old", Kind: "case", Status: "todo", ArchivedAt: "2030-01-01T00:00:00Z"}, "CASE-3 - [case] Old - [todo] - ARCHIVED: restore and relink, do not create"},
		{"merged wins over archived", wire.Case{ID: "CASE-4", Title: "Dup", Kind: "case", Status: "todo", ArchivedAt: "x", MergedInto: "CASE-1"}, "CASE-4 - [case] Dup - [todo] - merged into CASE-1: use CASE-1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, CaseLine(&tc.c)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestTreeOutline(t *testing.T) {
	leaf := &client.TreeNode{Case: wire.Case{ID: "CASE-3", Title: "Desks", Kind: "case", Status: "todo", Tasks: []wire.Task{{ID: "CASE-3-T1", CompletedAt: "x"}, {ID: "CASE-3-T2"}}}, Children: []*client.TreeNode{}}
	ws := &client.TreeNode{Case: wire.Case{ID: "CASE-2", Title: "Furniture", Kind: "workstream"}, Children: []*client.TreeNode{leaf},
		Rollup: client.Rollup{TotalCases: 1, TotalTasks: 2, DoneTasks: 1, ChildCount: 1}}
	ini := &client.TreeNode{Case: wire.Case{ID: "CASE-1", Title: "Move", Kind: "initiative"}, Children: []*client.TreeNode{ws},
		Rollup: client.Rollup{TotalCases: 2, DoneCases: 1, Ratio: 0.5, TotalTasks: 2, DoneTasks: 1, ChildCount: 1}}
	want := strings.Join([]string{
		"CASE-1 - [initiative] Move - 1/2 cases done (50%), 1/2 tasks done, 1 child",
		"  CASE-2 - [workstream] Furniture - 0/1 cases done (0%), 1/2 tasks done, 1 child",
		"    CASE-3 - [case] Desks - [todo] - tasks 1/2",
	}, "\n")
	if diff := cmp.Diff(want, Tree([]*client.TreeNode{ini}, 200)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	cut := Tree([]*client.TreeNode{ini}, 1)
	if diff := cmp.Diff("CASE-1 - [initiative] Move - 1/2 cases done (50%), 1/2 tasks done, 1 child\n2 more not shown (pass rootId to see one subtree, or raise limit).", cut); diff != "" {
		t.Errorf("cut outline (-want +got)\n%s", diff)
	}
	if got := Tree(nil, 10); !strings.Contains(got, "empty") {
		t.Errorf("empty tree: %q", got)
	}
}

func TestPriorities(t *testing.T) {
	pos := 1.0
	got := Priorities(client.PrioritiesAnswer{
		Starred:    []wire.Case{{ID: "CASE-1", Title: "Move", Kind: "initiative", Status: "todo"}, {ID: "CASE-3", Title: "Desks", Status: "urgent"}},
		Priorities: []wire.Priority{{ID: "PRI-2", Text: "Costs\nlow", Position: &pos}},
	})
	want := "Starred:\nCASE-1 - [initiative] - Move - [todo]\nCASE-3 - [case] - Desks - [urgent]\nPriority notes:\nPRI-2 - Costs low"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestReminderLine(t *testing.T) {
	r := wire.Reminder{ID: "REM-1", Title: "Lease", Status: "open", DueAt: "2030-02-01", CaseID: "CASE-1", Labels: []string{"follow-up"},
		Tasks: []wire.ReminderTask{{ID: "REM-1-T1", Done: true}, {ID: "REM-1-T2"}, {ID: "REM-1-T3"}}}
	want := "REM-1 - Lease - [open] - due 2030-02-01 - tasks 1/3 - case CASE-1 - labels follow-up"
	if diff := cmp.Diff(want, ReminderLine(r)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func ptr(s string) *string { return &s }

func TestSearchTagsEveryHit(t *testing.T) {
	ans := client.SearchAnswer{
		Engine: "keyword", Embedder: "none",
		Results: []wire.QueryResult{{Query: "acme", Hits: []wire.SearchHit{
			{Type: "case", ID: "CASE-4", Why: []string{"title-match"}, Score: 2, Case: &wire.Case{ID: "CASE-4", Title: "Acme old", Kind: "case", Status: "todo", ArchivedAt: "x"}},
			{Type: "case", ID: "CASE-5", Why: []string{"keyword"}, Score: 1, Case: &wire.Case{ID: "CASE-5", Title: "Acme dup", Kind: "case", Status: "todo", ArchivedAt: "x", MergedInto: "CASE-9"}},
			{Type: "task", ID: "CASE-9::CASE-9-T1", CaseID: ptr("CASE-9"), Task: &wire.TaskProjection{ID: "CASE-9-T1", CaseID: "CASE-9", CaseTitle: "Acme", Title: "Call Acme"}},
			{Type: "message", ID: "M-2", CaseID: ptr("CASE-9"), Message: &wire.MessageProjection{ID: "M-2", Subject: "Acme renewal", From: "a@acme.example", ReceivedAt: "2030-01-01", CaseID: "CASE-9", Read: true}},
			{Type: "reminder", ID: "REM-3", Reminder: &wire.ReminderProjection{ID: "REM-3", Title: "Renew Acme", Status: "dismissed"}},
		}}},
	}
	single := Search(ans, true)
	for _, want := range []string{
		`Search "acme" (keyword, embedder none): 5 hits`,
		"- [case] CASE-4 - Acme old - [todo] - ARCHIVED: restore and relink, do not create (title-match; score 2.00)",
		"- [case] CASE-5 - Acme dup - [todo] - merged into CASE-9: use CASE-9",
		"- [task] CASE-9-T1 - Call Acme - in case CASE-9 (Acme)",
		"- [message] M-2 2030-01-01 from a@acme.example: Acme renewal - case CASE-9",
		"Reminders:\n- [reminder dismissed] REM-3 - Renew Acme",
	} {
		if !strings.Contains(single, want) {
			t.Errorf("single-query answer lacks %q:\n%s", want, single)
		}
	}
	multi := Search(ans, false)
	if strings.Contains(multi, "Reminders:") || !strings.Contains(multi, `Query "acme": 5 hits`) || !strings.Contains(multi, "- [reminder dismissed] REM-3") {
		t.Errorf("multi-query answer:\n%s", multi)
	}
	none := Search(client.SearchAnswer{Engine: "keyword", Results: []wire.QueryResult{{Query: "zzz"}}}, true)
	if !strings.Contains(none, "Reminders: none match") || !strings.Contains(none, "Nothing matches") {
		t.Errorf("no-hit answer:\n%s", none)
	}
}

func TestCaseLeadsWithManualActions(t *testing.T) {
	v := CaseView{
		Detail: client.CaseDetail{
			Case:          wire.Case{ID: "CASE-3", Title: "Desks", Kind: "case", Status: "done", Domain: "work", ParentID: "CASE-2"},
			ManualActions: []wire.Activity{{Actor: "human", Verb: "status_changed", TS: "2030-01-01T00:00:00Z", Detail: "todo → done"}},
		},
		Parent: &wire.Case{ID: "CASE-2", Title: "Furniture"},
	}
	got := Case(v)
	want := "Manual actions on CASE-3 (the human did this; do not revert it: add a note or propose a change instead):\n- CASE-3 2030-01-01T00:00:00Z status_changed: todo → done\nCASE-3 - Desks\nCASE-3 Kind: case | Lane: done | Domain: work\nParent of CASE-3: CASE-2 - Furniture\nChildren of CASE-3: none"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	for _, line := range strings.Split(got, "\n") {
		if !strings.Contains(line, "CASE-") {
			t.Errorf("line without an id: %q", line)
		}
	}
}
