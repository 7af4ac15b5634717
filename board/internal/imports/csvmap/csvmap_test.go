package csvmap_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/imports"
	"github.com/opsboard/opsboard/board/internal/imports/csvmap"
	"github.com/opsboard/opsboard/shared/wire"
)

func TestParseMapsColumns(t *testing.T) {
	file := "Key,Summary Line,Lane,Tags,Due Date,Owner\n" +
		"A-1,Renew passport,Doing,home;admin,2026-12-01,me\n" +
		"A-2,Book flights,,travel,,me\n"
	m, err := csvmap.ParseMap("Key=id, Summary Line=title")
	if err != nil {
		t.Fatal(err)
	}
	p, err := csvmap.Parse([]byte(file), m, "Spreadsheet")
	if err != nil {
		t.Fatal(err)
	}
	want := imports.Plan{
		Format: wire.ImportCSV,
		Labels: []imports.Label{{Key: "home", Title: "home"}, {Key: "admin", Title: "admin"}, {Key: "travel", Title: "travel"}},
		Nodes: []imports.Node{
			{Row: "file", SourceID: "csv:root:Spreadsheet", Kind: wire.KindInitiative, Title: "Spreadsheet"},
			{Row: "row 2", SourceID: "csv:A-1", ParentSourceID: "csv:root:Spreadsheet", Kind: wire.KindCase, Title: "Renew passport", Status: wire.LaneInProgress, Labels: []string{"home", "admin"}, DueAt: "2026-12-01"},
			{Row: "row 3", SourceID: "csv:A-2", ParentSourceID: "csv:root:Spreadsheet", Kind: wire.KindCase, Title: "Book flights", Labels: []string{"travel"}},
		},
	}
	if diff := cmp.Diff(want, p); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestParseReadsTheBoardsOwnCSV(t *testing.T) {
	// A child before its parent, and a task row, as the CSV export writes them.
	file := "type,id,parentId,kind,title,status,domain,labels,dueAt,completedAt,archivedAt,detail,sourceId\n" +
		"case,CASE-3,CASE-1,case,Child,todo,work,,,,,,\n" +
		"task,CASE-3-T1,CASE-3,,Step,,,,2026-11-30,2026-11-20T10:00:00Z,,Why,\n" +
		"case,CASE-1,,initiative,Root,todo,work,,,,,Top,\n"
	p, err := csvmap.Parse([]byte(file), nil, "")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range p.Nodes {
		got = append(got, n.SourceID+"<"+n.ParentSourceID+" "+string(n.Kind))
	}
	if diff := cmp.Diff([]string{"csv:CASE-1< initiative", "csv:CASE-3<csv:CASE-1 case"}, got); diff != "" {
		t.Errorf("order (-want +got)\n%s", diff)
	}
	if diff := cmp.Diff([]imports.Task{{SourceID: "csv:CASE-3-T1", Title: "Step", Detail: "Why", DueAt: "2026-11-30", CompletedAt: "2026-11-20T10:00:00Z", Done: true}}, p.Nodes[1].Tasks); diff != "" {
		t.Errorf("tasks (-want +got)\n%s", diff)
	}
}

func TestParseRefusesBadRows(t *testing.T) {
	for _, tc := range []struct {
		name, body, mapping, want string
	}{
		{"no title column", "a,b\n1,2\n", "", "row 1: no column maps to title: name one with --map <column>=title"},
		{"empty title", "title,status\nA,todo\n,todo\n", "", "row 3: title is empty"},
		{"bad status", "title,status\nA,someday\n", "", `row 2: status "someday" is not a lane (one of urgent, todo, in_progress, waiting_for_input, done)`},
		{"bad date", "title,due\nA,31/12/2026\n", "", `row 2: dueAt "31/12/2026" is not a date (YYYY-MM-DD or an ISO datetime)`},
		{"orphan task", "id,title,type,parentId\nT1,Step,task,CASE-9\n", "", "row 2: parentId CASE-9 is no case row of the file"},
		{"unknown field", "title\nA\n", "title=colour", "mapping: title=colour: field must be one of title, summary, status, labels, dueAt, kind, id, parentId, type, domain, completedAt, starred, notes, archivedAt, sourceId"},
		{"unknown column", "title\nA\n", "Name=title", `mapping: Name=title: the header has no column "Name"`},
		{"duplicate id", "id,title\n1,A\n1,B\n", "", "row 3: id 1 appears twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := csvmap.ParseMap(tc.mapping)
			if err != nil {
				t.Fatal(err)
			}
			_, err = csvmap.Parse([]byte(tc.body), m, "")
			if err == nil || err.Error() != tc.want {
				t.Errorf("got %v\nwant %s", err, tc.want)
			}
		})
	}
	if _, err := csvmap.ParseMap("title"); err == nil {
		t.Error("a mapping without = parsed")
	}
}
