package api_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPriorityValidation(t *testing.T) {
	b := newBoard(t)
	b.fails(400, "Field 'text' is required.", "POST", "/api/priorities", map[string]any{"text": "   "})
	b.fails(400, "Field 'text' is required.", "POST", "/api/priorities", map[string]any{})
	b.fails(400, "field 'position' must be a number", "POST", "/api/priorities", map[string]any{"text": "x", "position": "1"})
	b.fails(400, "field 'position' must be a number", "POST", "/api/priorities", map[string]any{"text": "x", "position": true})
	b.fails(404, "priority PRI-3 not found", "PATCH", "/api/priorities/PRI-3", map[string]any{"text": "x"})
	b.fails(404, "priority PRI-3 not found", "DELETE", "/api/priorities/PRI-3", nil)
	p := b.must(201, "POST", "/api/priorities", map[string]any{"text": " Hire a designer ", "position": 2.5})
	if p.Get("priority.id").String() != "PRI-1" || p.Get("priority.text").String() != "Hire a designer" || p.Get("priority.position").Float() != 2.5 || p.Get("version").Int() != b.Store.Version() {
		t.Errorf("create answer %s", p.Raw)
	}
}

func TestPriorityPatchSemantics(t *testing.T) {
	b := newBoard(t)
	b.must(201, "POST", "/api/priorities", map[string]any{"text": "Ship", "position": 1})
	patch := func(body map[string]any) string {
		t.Helper()
		return b.must(200, "PATCH", "/api/priorities/PRI-1", body).Get("priority").Raw
	}
	for _, tc := range []struct {
		name string
		body map[string]any
		text string
		pos  string // "" means absent
	}{
		{"empty text is ignored", map[string]any{"text": "  "}, "Ship", "1"},
		{"null text is ignored", map[string]any{"text": nil}, "Ship", "1"},
		{"text replaces", map[string]any{"text": " Ship v2 "}, "Ship v2", "1"},
		{"number sets", map[string]any{"position": 0.5}, "Ship v2", "0.5"},
		{"string clears", map[string]any{"position": "3"}, "Ship v2", ""},
		{"number again", map[string]any{"position": 4}, "Ship v2", "4"},
		{"null clears", map[string]any{"position": nil}, "Ship v2", ""},
		{"text and position together", map[string]any{"position": 7, "text": "Ship v3"}, "Ship v3", "7"},
		{"bool clears", map[string]any{"position": false}, "Ship v3", ""},
		{"object clears", map[string]any{"position": map[string]any{"n": 1}}, "Ship v3", ""},
	} {
		got := b.do("PATCH", "/api/priorities/PRI-1", tc.body)
		if got.Code != 200 {
			t.Fatalf("%s: %d %s", tc.name, got.Code, got.Raw)
		}
		p := got.Body.Get("priority")
		if p.Get("text").String() != tc.text || p.Get("position").Raw != tc.pos {
			t.Errorf("%s: %s", tc.name, p.Raw)
		}
	}
	b.fails(400, "field 'text' must be a string", "PATCH", "/api/priorities/PRI-1", map[string]any{"text": 5})
	v := b.Store.Version()
	b.fails(409, "version conflict", "PATCH", "/api/priorities/PRI-1", map[string]any{"text": "x", "expectedVersion": v - 1})
	patch(map[string]any{"text": "guarded", "expectedVersion": v})
	del := b.must(200, "DELETE", "/api/priorities/PRI-1", nil)
	if !del.Get("ok").Bool() || del.Get("version").Int() != v+2 {
		t.Errorf("delete %s", del.Raw)
	}
	if n := len(b.must(200, "GET", "/api/priorities", nil).Get("priorities").Array()); n != 0 {
		t.Errorf("%d notes after delete", n)
	}
}

func TestPrioritiesOrdering(t *testing.T) {
	b := newBoard(t)
	for _, p := range []map[string]any{
		{"text": "no position, first"}, // PRI-1
		{"text": "three", "position": 3},
		{"text": "one", "position": 1},
		{"text": "no position, second"},
		{"text": "one again", "position": 1}, // tie with PRI-3: createdAt decides
		{"text": "minus", "position": -2},
	} {
		b.must(201, "POST", "/api/priorities", p)
	}
	// Starred: non-archived, by tier, then most recently updated first.
	ini := newCaseID(b, "Initiative", "initiative")
	ws := b.must(201, "POST", "/api/cases", map[string]any{"title": "Workstream", "kind": "workstream", "parentId": ini}).Get("case.id").String()
	leafOld, leafNew, archived := newCaseID(b, "Old leaf"), newCaseID(b, "New leaf"), newCaseID(b, "Archived")
	newCaseID(b, "Never starred")
	for _, id := range []string{leafOld, leafNew, ws, archived, ini} {
		b.must(200, "PATCH", "/api/cases/"+id, map[string]any{"starred": true})
	}
	b.must(200, "DELETE", "/api/cases/"+archived, nil)
	b.must(200, "PATCH", "/api/cases/"+leafNew, map[string]any{"summary": "touched"})
	got := b.must(200, "GET", "/api/priorities", nil)
	if diff := cmp.Diff([]string{"PRI-6", "PRI-3", "PRI-5", "PRI-2", "PRI-1", "PRI-4"}, strList(got.Get("priorities.#.id"))); diff != "" {
		t.Errorf("notes order (-want +got)\n%s", diff)
	}
	if diff := cmp.Diff([]string{ini, ws, leafNew, leafOld}, strList(got.Get("starred.#.id"))); diff != "" {
		t.Errorf("starred order (-want +got)\n%s", diff)
	}
	if got.Get("version").Int() != b.Store.Version() {
		t.Errorf("version %d", got.Get("version").Int())
	}
	// Unstarring clears the flag back to absent.
	b.must(200, "PATCH", "/api/cases/"+leafOld, map[string]any{"starred": false})
	if c := b.must(200, "GET", "/api/cases/"+leafOld, nil).Get("case"); c.Get("starred").Exists() {
		t.Errorf("unstarred case still carries starred: %s", c.Raw)
	}
}
