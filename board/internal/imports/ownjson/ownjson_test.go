package ownjson_test

import (
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/imports/ownjson"
	"github.com/opsboard/opsboard/shared/wire"
)

func TestParseOrdersParentsFirst(t *testing.T) {
	file := `{"exportFormat": "opsboard-export/1", "schemaVersion": 7, "version": 3,
	  "labels": [{"id": "bug", "title": "Bug", "color": "red", "description": ""}],
	  "cases": [
	    {"id": "CASE-3", "title": "Leaf", "kind": "case", "parentId": "CASE-2", "status": "todo", "domain": "work", "labels": ["bug", "gone"],
	     "tasks": [{"id": "CASE-3-T1", "title": "Step", "completedAt": "2026-11-20T10:00:00Z"}], "createdAt": "c3", "updatedAt": "u"},
	    {"id": "CASE-2", "title": "Stream", "kind": "workstream", "parentId": "CASE-1", "status": "todo", "domain": "work", "createdAt": "c2", "updatedAt": "u", "sourceId": "trello:x"},
	    {"id": "CASE-1", "title": "Root", "kind": "initiative", "status": "todo", "domain": "work", "createdAt": "c1", "updatedAt": "u"}
	  ]}`
	if !ownjson.Sniff([]byte(file)) {
		t.Fatal("not recognised")
	}
	p, err := ownjson.Parse([]byte(file))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range p.Nodes {
		got = append(got, n.SourceID+"<"+n.ParentSourceID)
	}
	if diff := cmp.Diff([]string{"opsboard:CASE-1<", "trello:x<opsboard:CASE-1", "opsboard:CASE-3<trello:x"}, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if len(p.Labels) != 2 || p.Labels[1].Key != "gone" {
		t.Errorf("a label missing from the catalog is declared: %+v", p.Labels)
	}
	if p.Nodes[2].Tasks[0].SourceID != "opsboard:CASE-3-T1" || p.Nodes[2].Tasks[0].CompletedAt == "" {
		t.Errorf("task: %+v", p.Nodes[2].Tasks[0])
	}
}

func TestParseRefusesBrokenFiles(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"other format", `{"exportFormat": "x/9", "schemaVersion": 7, "cases": []}`, `file: export format "x/9" is not "opsboard-export/1"`},
		{"newer schema", `{"schemaVersion": 99, "cases": []}`, "file: schema version 99 is newer than this board's " + strconv.Itoa(wire.SchemaVersion)},
		{"duplicate id", `{"schemaVersion": 7, "cases": [{"id": "CASE-1", "title": "a"}, {"id": "CASE-1", "title": "b"}]}`, "cases[1]: id CASE-1 appears twice"},
		{"cycle", `{"schemaVersion": 7, "cases": [{"id": "A", "title": "a", "parentId": "B"}, {"id": "B", "title": "b", "parentId": "A"}]}`, "cases[0]: A is in a parent cycle"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ownjson.Parse([]byte(tc.body))
			if err == nil || err.Error() != tc.want {
				t.Errorf("got %v, want %s", err, tc.want)
			}
		})
	}
}
