package proposals

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/shared/wire"
)

func TestParseProposal(t *testing.T) {
	for _, tc := range []struct {
		verb, payload string
		targets       []string
		fields        []string
		err           string // a part of the refusal; "" means accepted
	}{
		{"update_case", `{"id":"CASE-1","status":"done","title":"x"}`, []string{"CASE-1"}, []string{"status", "title"}, ""},
		{"update_case", `{"status":"done"}`, nil, nil, "payload: field 'id' is required"},
		{"update_case", `{"id":"CASE-1","expectedVersion":3}`, nil, nil, "expectedVersion does not belong in a proposal"},
		{"update_case", `{"id":"CASE-1","colour":"red"}`, nil, nil, `payload: unknown field "colour"`},
		{"update_case", `{"id":"CASE-1","status":5}`, nil, nil, "payload: field 'status' has the wrong type"},
		{"update_case", `[1]`, nil, nil, "field 'payload' must be a JSON object"},
		{"set_parent", `{"id":"CASE-3","parentId":"CASE-2"}`, []string{"CASE-3"}, []string{"parentId"}, ""},
		{"set_parent", `{"id":"CASE-3","parentId":"CASE-2","title":"x"}`, nil, nil, "payload of set_parent is { id, parentId }"},
		{"update_cases", `{"ids":["CASE-1"," CASE-2"],"patch":{"status":"done"}}`, []string{"CASE-1", "CASE-2"}, []string{"status"}, ""},
		{"update_cases", `{"ids":[],"patch":{}}`, nil, nil, "payload: field 'ids' must list at least one case id"},
		{"archive", `{"id":"CASE-1"}`, []string{"CASE-1"}, []string{"archivedAt"}, ""},
		{"delete", `{"id":"CASE-1"}`, []string{"CASE-1"}, []string{"title", "status", "archivedAt"}, ""},
		{"merge", `{"id":"CASE-1","targetId":" CASE-2 "}`, []string{"CASE-1", "CASE-2"}, []string{"archivedAt", "mergedInto"}, ""},
		{"merge", `{"id":"CASE-1"}`, nil, nil, "payload: field 'targetId' is required"},
		{"create_case", `{"title":"x","parentId":"CASE-2"}`, []string{"CASE-2"}, nil, ""},
		{"create_case", `{"title":"x"}`, nil, nil, ""},
		{"update_reminder", `{"id":"REM-1","status":"done"}`, []string{"REM-1"}, []string{"status"}, ""},
		{"update_event", `{"id":"EVT-1","date":"2026-01-02"}`, []string{"EVT-1"}, []string{"date"}, ""},
		{"create_page", `{"title":"Ann Lee","type":"person","emails":["ann@acme.com"],"fromMessage":"M-3"}`, nil, nil, ""},
		{"create_page", `{"type":"person"}`, nil, nil, "field 'title' is required"},
		{"create_page", `{"title":"x","colour":"red"}`, nil, nil, `payload: unknown field "colour"`},
		{"close_case", `{"id":"CASE-1"}`, nil, nil, `unknown verb "close_case": use one of archive, create_case, delete`},
	} {
		t.Run(tc.verb+" "+tc.payload, func(t *testing.T) {
			p, err := parseProposal(tc.verb, json.RawMessage(tc.payload))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.targets, p.targets); diff != "" {
				t.Errorf("targets (-want +got)\n%s", diff)
			}
			if diff := cmp.Diff(tc.fields, p.fields); diff != "" {
				t.Errorf("fields (-want +got)\n%s", diff)
			}
			if p.apply == nil {
				t.Error("no apply")
			}
		})
	}
}

func TestVerbsMatchTheirRoutes(t *testing.T) {
	for _, v := range VerbNames() {
		if _, err := parseProposal(v, json.RawMessage(`{}`)); err != nil && strings.Contains(err.Error(), "unknown verb") {
			t.Errorf("verb %s has a route but no parser", v)
		}
	}
}

func TestListShowsWhatChangedSince(t *testing.T) {
	d := &wire.Doc{
		Cases: wire.ListOf([]*wire.Case{{ID: "CASE-1", Title: "now", Status: "todo", UpdatedAt: "t2"}, {ID: "CASE-2", Title: "same", Status: "todo", UpdatedAt: "t1"}}...),
		Proposals: wire.ListOf([]*wire.Proposal{
			{ID: "PROP-2", Verb: "update_case", CreatedAt: "b", Target: "CASE-1", TargetUpdatedAt: "t1",
				Before: map[string]json.RawMessage{"title": json.RawMessage(`"then"`), "status": json.RawMessage(`"todo"`)}},
			{ID: "PROP-1", Verb: "update_case", CreatedAt: "a", Target: "CASE-2", TargetUpdatedAt: "t1",
				Before: map[string]json.RawMessage{"title": json.RawMessage(`"same"`)}},
			{ID: "PROP-3", Verb: "archive", CreatedAt: "c", Target: "CASE-9", TargetUpdatedAt: "t1"},
		}...),
	}
	got := List(d)
	type row struct {
		ID            string
		Changed, Gone bool
		Fields        []string
	}
	var rows []row
	for _, it := range got {
		rows = append(rows, row{it.ID, it.ChangedSince, it.TargetGone, it.Targets[0].ChangedFields})
	}
	want := []row{{"PROP-1", false, false, nil}, {"PROP-2", true, false, []string{"title"}}, {"PROP-3", true, true, nil}}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("oldest first, with what moved (-want +got)\n%s", diff)
	}
}
