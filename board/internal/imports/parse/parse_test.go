package parse_test

import (
	"testing"

	"github.com/opsboard/opsboard/board/internal/imports/parse"
	"github.com/opsboard/opsboard/shared/wire"
)

func TestDetect(t *testing.T) {
	for _, tc := range []struct{ name, data, want string }{
		{"our export", `{"exportFormat": "opsboard-export/1", "schemaVersion": 7, "cases": []}`, wire.ImportJSON},
		{"a board.json", `{"schemaVersion": 7, "version": 3, "cases": []}`, wire.ImportJSON},
		{"trello", `{"id": "b", "name": "x", "lists": [], "cards": []}`, wire.ImportTrello},
		{"todoist", "TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT\ntask,a,,4,1\n", wire.ImportTodoist},
		{"todoist with a byte order mark", "\ufeffTYPE,CONTENT,DESCRIPTION\n", wire.ImportTodoist},
		{"other csv", "Name,Due\nA,2026-12-01\n", wire.ImportCSV},
		{"other json", `{"hello": 1}`, ""},
		{"a json list", `[1, 2]`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := parse.Detect([]byte(tc.data)); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestRequestNamesTheFormatItUsed(t *testing.T) {
	p, err := parse.Request(wire.ImportRequest{Content: "title\nA\n", Title: "Sheet"})
	if err != nil {
		t.Fatal(err)
	}
	if p.Format != wire.ImportCSV || len(p.Nodes) != 2 || p.Nodes[1].ParentSourceID != p.Nodes[0].SourceID {
		t.Errorf("plan: %+v", p)
	}
	if _, err := parse.Request(wire.ImportRequest{Format: "JSON", Content: "{}"}); err == nil {
		t.Error("an empty JSON object imported as our export")
	}
}

// FuzzRequest: no file, in any format, makes a parser panic.
func FuzzRequest(f *testing.F) {
	for _, seed := range []struct{ format, content string }{
		{"auto", `{"exportFormat": "opsboard-export/1", "schemaVersion": 7, "cases": [{"id": "A", "title": "a", "parentId": "A"}]}`},
		{"trello", `{"id": "b", "lists": [{"id": "L", "name": "x"}], "cards": [{"id": "c", "name": "n", "idList": "L"}], "checklists": [{"idCard": "c", "checkItems": [{"name": ""}]}]}`},
		{"todoist", "TYPE,CONTENT,PRIORITY,INDENT\ntask,a,1,1\ntask,b,4,3\nnote,x\n"},
		{"csv", "id,title,type,parentId\n1,a,,2\n2,b,,1\n3,c,task,1\n"},
	} {
		f.Add(seed.format, seed.content)
	}
	f.Fuzz(func(t *testing.T, format, content string) {
		parse.Request(wire.ImportRequest{Format: format, Content: content, Title: "t"})
	})
}
