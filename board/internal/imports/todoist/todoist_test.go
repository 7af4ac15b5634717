package todoist_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/imports"
	"github.com/opsboard/opsboard/board/internal/imports/todoist"
	"github.com/opsboard/opsboard/shared/wire"
)

const header = "TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE,DURATION,DURATION_UNIT\n"

func TestParseBuildsTheTree(t *testing.T) {
	file := header +
		"task,Inbox chore @home,,4,1,Ann (1),,,en,Europe/Berlin,,\n" +
		",,,,,,,,,,,\n" +
		"section,Planning,,,,,,,,,,\n" +
		"task,Write brief @work @q4,Two pages,1,1,Ann (1),,2026-12-01,en,Europe/Berlin,,\n" +
		"task,Outline,,4,2,Ann (1),,2026-11-30,en,Europe/Berlin,,\n" +
		"task,Detail of outline,,4,3,Ann (1),,,en,Europe/Berlin,,\n" +
		"note,Ask Bo first,,,,Ann (1),,,,,,\n" +
		"task,Weekly sync,,4,1,Ann (1),,every monday,en,Europe/Berlin,,\n"
	p, err := todoist.Parse([]byte(file), "Q4 plan")
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		Kind                   wire.Kind
		Title, Parent, Summary string
		Status                 wire.Lane
		Labels                 []string
		Due                    string
		Tasks                  []string
		Notes                  int
	}
	ids := map[string]string{}
	var got []row
	for _, n := range p.Nodes {
		ids[n.SourceID] = n.Title
		r := row{Kind: n.Kind, Title: n.Title, Parent: ids[n.ParentSourceID], Summary: n.Summary, Status: n.Status, Labels: n.Labels, Due: n.DueAt, Notes: len(n.Notes)}
		for _, tk := range n.Tasks {
			r.Tasks = append(r.Tasks, tk.Title+"|"+tk.DueAt)
		}
		got = append(got, r)
	}
	want := []row{
		{Kind: wire.KindInitiative, Title: "Q4 plan"},
		{Kind: wire.KindCase, Title: "Inbox chore", Parent: "Q4 plan", Labels: []string{"home"}},
		{Kind: wire.KindWorkstream, Title: "Planning", Parent: "Q4 plan"},
		{Kind: wire.KindCase, Title: "Write brief", Parent: "Planning", Summary: "Two pages", Status: wire.LaneUrgent, Labels: []string{"work", "q4"}, Due: "2026-12-01",
			Tasks: []string{"Outline|2026-11-30", "Detail of outline|"}, Notes: 1},
		{Kind: wire.KindCase, Title: "Weekly sync", Parent: "Planning", Summary: "Todoist date: every monday"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if diff := cmp.Diff([]imports.Label{{Key: "home", Title: "home"}, {Key: "work", Title: "work"}, {Key: "q4", Title: "q4"}}, p.Labels); diff != "" {
		t.Errorf("labels (-want +got)\n%s", diff)
	}
	again, _ := todoist.Parse([]byte(file), "Q4 plan")
	for i := range p.Nodes {
		if p.Nodes[i].SourceID != again.Nodes[i].SourceID {
			t.Errorf("node %d: source id not stable", i)
		}
	}
}

func TestParseRefusesBadRows(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"unknown type", "folder,X,,,,,,,,,,\n", `row 2: TYPE must be task, section or note, not "folder"`},
		{"sub-task first", "task,Orphan,,4,2,,,,,,,\n", "row 2: a sub-task (INDENT 2) needs a task above it"},
		{"note first", "note,Hi,,,,,,,,,,\n", "row 2: a note needs a task above it"},
		{"bad indent", "task,A,,4,x,,,,,,,\n", `row 2: INDENT must be 1 to 5, not "x"`},
		{"empty task", "task,A,,4,1,,,,,,,\ntask,,,4,1,,,,,,,\n", "row 3: a task needs a name in CONTENT"},
		{"bad priority", "task,A,,9,1,,,,,,,\n", `row 2: PRIORITY must be 1 to 4, not "9"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := todoist.Parse([]byte(header+tc.body), "")
			if err == nil || err.Error() != tc.want {
				t.Errorf("got %v, want %s", err, tc.want)
			}
		})
	}
	if _, err := todoist.Parse([]byte("A,B\n1,2\n"), ""); err == nil || !strings.Contains(err.Error(), "no TYPE column") {
		t.Errorf("not a backup: %v", err)
	}
}
