package trello_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/imports"
	"github.com/opsboard/opsboard/board/internal/imports/trello"
	"github.com/opsboard/opsboard/shared/wire"
)

const sample = `{
  "id": "b1", "name": "Website", "desc": "The site.",
  "labels": [{"id": "l1", "name": "Bug", "color": "red"}, {"id": "l2", "name": "", "color": "yellow"}],
  "lists": [
    {"id": "L1", "name": "To Do", "pos": 1},
    {"id": "L2", "name": "Ideas", "pos": 2},
    {"id": "L3", "name": "Done", "pos": 3},
    {"id": "L4", "name": "Old", "closed": true, "pos": 4}
  ],
  "cards": [
    {"id": "c3", "name": "Shipped", "idList": "L3", "pos": 1},
    {"id": "c1", "name": "Fix header", "desc": "Broken on mobile", "idList": "L1", "idLabels": ["l1", "l2"], "due": "2026-12-01T12:00:00.000Z", "pos": 1},
    {"id": "c2", "name": "Dark mode", "idList": "L2", "pos": 1},
    {"id": "c4", "name": "Gone", "idList": "L1", "closed": true, "pos": 2},
    {"id": "c5", "name": "In old list", "idList": "L4", "pos": 1}
  ],
  "checklists": [{"id": "k1", "idCard": "c1", "name": "Checklist", "pos": 1, "checkItems": [
    {"id": "i2", "name": "Test on phone", "state": "incomplete", "pos": 2, "due": "2026-11-30T09:00:00.000Z"},
    {"id": "i1", "name": "Find cause", "state": "complete", "pos": 1}
  ]}],
  "actions": [
    {"type": "commentCard", "date": "2026-11-02T10:00:00.000Z", "data": {"text": "Second", "card": {"id": "c1"}}, "memberCreator": {"fullName": "Bo"}},
    {"type": "commentCard", "date": "2026-11-01T10:00:00.000Z", "data": {"text": "First", "card": {"id": "c1"}}, "memberCreator": {"fullName": "Ann"}},
    {"type": "updateCard", "data": {"card": {"id": "c1"}}}
  ]
}`

func TestParse(t *testing.T) {
	if !trello.Sniff([]byte(sample)) {
		t.Fatal("sample not recognised")
	}
	p, err := trello.Parse([]byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	want := imports.Plan{
		Format: wire.ImportTrello,
		Labels: []imports.Label{{Key: "Bug", Title: "Bug", Color: "red"}, {Key: "yellow", Title: "yellow", Color: "amber"}, {Key: "list:Ideas", Title: "Ideas"}},
		Nodes: []imports.Node{
			{Row: "board b1", SourceID: "trello:b1", Kind: wire.KindInitiative, Title: "Website", Summary: "The site."},
			{Row: "card c1", SourceID: "trello:c1", ParentSourceID: "trello:b1", Kind: wire.KindCase, Title: "Fix header", Summary: "Broken on mobile",
				Status: wire.LaneTodo, DueAt: "2026-12-01T12:00:00.000Z", Labels: []string{"Bug", "yellow"},
				Tasks: []imports.Task{{SourceID: "trello:i1", Title: "Find cause", Done: true}, {SourceID: "trello:i2", Title: "Test on phone", DueAt: "2026-11-30T09:00:00.000Z"}},
				Notes: []imports.Note{{Text: "Ann: First", CreatedAt: "2026-11-01T10:00:00.000Z"}, {Text: "Bo: Second", CreatedAt: "2026-11-02T10:00:00.000Z"}}},
			{Row: "card c2", SourceID: "trello:c2", ParentSourceID: "trello:b1", Kind: wire.KindCase, Title: "Dark mode", Labels: []string{"list:Ideas"}},
			{Row: "card c3", SourceID: "trello:c3", ParentSourceID: "trello:b1", Kind: wire.KindCase, Title: "Shipped", Status: wire.LaneDone},
		},
	}
	if diff := cmp.Diff(want, p); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestParseRefusesBadCards(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"unknown list", `{"id":"b","lists":[],"cards":[{"id":"c1","name":"A","idList":"nope"}]}`, "card c1: list nope is not in the file"},
		{"no name", `{"id":"b","lists":[{"id":"L","name":"Doing"}],"cards":[{"id":"c1","name":" ","idList":"L"}]}`, "card c1: a card needs a name"},
		{"bad due", `{"id":"b","lists":[{"id":"L","name":"Doing"}],"cards":[{"id":"c1","name":"A","idList":"L","due":"soon"}]}`, `card c1: due "soon" is not a date`},
		{"no board id", `{"lists":[],"cards":[]}`, "file: not a Trello board export: the board has no id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := trello.Parse([]byte(tc.body))
			if err == nil || err.Error() != tc.want {
				t.Errorf("got %v, want %s", err, tc.want)
			}
		})
	}
}
