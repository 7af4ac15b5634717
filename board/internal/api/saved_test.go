package api_test

import (
	"testing"
)

func TestPrefs(t *testing.T) {
	b := newBoard(t)
	got := b.must(200, "GET", "/api/prefs", nil)
	if got.Get("prefs").Raw != `{"view":"operational"}` || got.Get("version").Int() != b.Store.Version() {
		t.Errorf("default prefs %s", got.Raw)
	}
	v := b.Store.Version()
	res := b.must(200, "PATCH", "/api/prefs", map[string]any{"view": "strategy", "board": map[string]any{"density": "compact", "lanes": []string{"todo"}}, "actor": "agent"})
	if res.Get("prefs.view").String() != "strategy" || res.Get("prefs.board.density").String() != "compact" || res.Get("version").Int() != v+1 {
		t.Errorf("patch answer %s", res.Raw)
	}
	if res.Get("prefs.actor").Exists() {
		t.Errorf("the request's actor was stored as a preference: %s", res.Raw)
	}
	// A merge patch: nested objects merge, null removes, arrays replace.
	res = b.must(200, "PATCH", "/api/prefs", map[string]any{"board": map[string]any{"density": nil, "lanes": []string{"done"}, "zoom": 2}})
	if res.Get("prefs.board").Raw != `{"lanes":["done"],"zoom":2}` || res.Get("prefs.view").String() != "strategy" {
		t.Errorf("merged %s", res.Raw)
	}
	// Removing view falls back to the default.
	if res = b.must(200, "PATCH", "/api/prefs", map[string]any{"view": nil}); res.Get("prefs.view").String() != "operational" {
		t.Errorf("view after removal %s", res.Raw)
	}
	b.fails(400, "field 'view' must be one of operational, strategy", "PATCH", "/api/prefs", map[string]any{"view": "kanban"})
	b.fails(400, "field 'view' must be one of", "PATCH", "/api/prefs", map[string]any{"view": 3})
	b.fails(400, "must be a JSON object", "PATCH", "/api/prefs", `["view"]`)
	b.fails(400, "field 'expectedVersion' must be an integer", "PATCH", "/api/prefs", map[string]any{"expectedVersion": "x"})
	b.fails(409, "version conflict", "PATCH", "/api/prefs", map[string]any{"view": "strategy", "expectedVersion": 1})
	if got := b.must(200, "GET", "/api/prefs", nil).Get("prefs").Raw; got != `{"board":{"lanes":["done"],"zoom":2},"view":"operational"}` {
		t.Errorf("stored prefs %s", got)
	}
}

func TestViews(t *testing.T) {
	b := newBoard(t)
	if got := b.must(200, "GET", "/api/views", nil).Get("views").Raw; got != "[]" {
		t.Errorf("no views yet: %s", got)
	}
	b.fails(400, "Field 'name' is required.", "POST", "/api/views", map[string]any{"name": " ", "filters": map[string]any{}})
	b.fails(400, "field 'filters' must be a JSON object", "POST", "/api/views", map[string]any{"name": "x", "filters": []string{"a"}})
	b.fails(400, "field 'name' must be a string", "POST", "/api/views", map[string]any{"name": 4})
	v := b.must(201, "POST", "/api/views", map[string]any{"name": "Urgent work", "filters": map[string]any{"status": "urgent", "domain": "work"}})
	if v.Get("view.id").String() != "VIEW-1" || v.Get("view.filters.status").String() != "urgent" || !v.Get("created").Bool() {
		t.Errorf("create %s", v.Raw)
	}
	// Saving the same name again replaces its filters: one view, not two.
	v = b.must(200, "POST", "/api/views", map[string]any{"name": "urgent  WORK", "filters": map[string]any{"status": "urgent"}}, agent...)
	if v.Get("view.id").String() != "VIEW-1" || v.Get("view.filters").Raw != `{"status":"urgent"}` || v.Get("created").Bool() {
		t.Errorf("replace %s", v.Raw)
	}
	b.must(201, "POST", "/api/views", map[string]any{"name": "Life"}) // filters default to {}
	if got := b.must(200, "GET", "/api/views/VIEW-2", nil).Get("view.filters").Raw; got != "{}" {
		t.Errorf("default filters %s", got)
	}
	b.fails(400, `a view named "Life" exists already (VIEW-2)`, "PATCH", "/api/views/VIEW-1", map[string]any{"name": "life"})
	if got := b.must(200, "PATCH", "/api/views/VIEW-1", map[string]any{"name": "Hot", "filters": nil}).Get("view"); got.Get("name").String() != "Hot" || got.Get("filters").Raw != "{}" {
		t.Errorf("patch %s", got.Raw)
	}
	if got := strList(b.must(200, "GET", "/api/views", nil).Get("views.#.name")); len(got) != 2 || got[0] != "Hot" {
		t.Errorf("list %v", got)
	}
	b.must(200, "DELETE", "/api/views/VIEW-1", nil)
	b.fails(404, "view VIEW-1 not found", "GET", "/api/views/VIEW-1", nil)
	b.fails(404, "view VIEW-1 not found", "PATCH", "/api/views/VIEW-1", map[string]any{"name": "x"})
	b.fails(404, "view VIEW-1 not found", "DELETE", "/api/views/VIEW-1", nil)
}

func TestTemplatesAndCreatingFromOne(t *testing.T) {
	b := newBoard(t)
	b.fails(400, "Field 'name' is required.", "POST", "/api/templates", map[string]any{"title": "x"})
	b.fails(400, "field 'status' must be one of", "POST", "/api/templates", map[string]any{"name": "x", "status": "later"})
	b.fails(400, "field 'kind' must be one of", "POST", "/api/templates", map[string]any{"name": "x", "kind": "epic"})
	b.fails(400, "unknown label id(s): ghost", "POST", "/api/templates", map[string]any{"name": "x", "labels": []string{"ghost"}})
	tpl := b.must(201, "POST", "/api/templates", map[string]any{
		"name": "Vendor onboarding", "title": "Onboard vendor", "status": "in_progress", "domain": "work",
		"labels": []string{"follow-up"}, "tags": []string{"vendor"}, "tasks": []string{"NDA", " ", "W-9"},
	}).Get("template")
	if tpl.Get("id").String() != "TPL-1" || tpl.Get("tasks").Raw != `["NDA","W-9"]` {
		t.Errorf("template %s", tpl.Raw)
	}
	// From a template: its fields fill what the body leaves out; labels and
	// tags add up; its tasks become the checklist.
	c := b.must(201, "POST", "/api/cases", map[string]any{"templateId": "TPL-1", "title": "Onboard Acme", "labels": []string{"blocked"}}).Get("case")
	for path, want := range map[string]string{
		"title": "Onboard Acme", "status": "in_progress", "labels": `["follow-up","blocked"]`, "tags": `["vendor"]`,
		"tasks.#.title": `["NDA","W-9"]`, "tasks.1.id": c.Get("id").String() + "-T2",
	} {
		if got := c.Get(path).Raw; got != want && c.Get(path).String() != want {
			t.Errorf("%s = %s, want %s", path, got, want)
		}
	}
	if got := b.must(201, "POST", "/api/cases", map[string]any{"templateId": "TPL-1"}).Get("case.title").String(); got != "Onboard vendor" {
		t.Errorf("title from the template: %q", got)
	}
	b.fails(404, "template TPL-9 not found", "POST", "/api/cases", map[string]any{"templateId": "TPL-9", "title": "x"})
	// Saving the same name replaces the template whole.
	again := b.must(200, "POST", "/api/templates", map[string]any{"name": "vendor onboarding", "title": "Vendor"}).Get("template")
	if again.Get("id").String() != "TPL-1" || again.Get("tasks").Exists() || again.Get("status").Exists() || again.Get("createdAt").String() != tpl.Get("createdAt").String() {
		t.Errorf("replaced %s", again.Raw)
	}
	p := b.must(200, "PATCH", "/api/templates/TPL-1", map[string]any{"kind": "initiative", "tasks": []string{"kickoff"}, "title": nil}).Get("template")
	if p.Get("kind").String() != "initiative" || p.Get("tasks").Raw != `["kickoff"]` || p.Get("title").Exists() {
		t.Errorf("patched %s", p.Raw)
	}
	b.must(201, "POST", "/api/templates", map[string]any{"name": "Other"})
	b.fails(400, `a template named "Other" exists already`, "PATCH", "/api/templates/TPL-1", map[string]any{"name": "other"})
	if n := len(b.must(200, "GET", "/api/templates", nil).Get("templates").Array()); n != 2 {
		t.Errorf("%d templates", n)
	}
	b.must(200, "GET", "/api/templates/TPL-1", nil)
	b.must(200, "DELETE", "/api/templates/TPL-1", nil, agent...)
	b.fails(404, "template TPL-1 not found", "GET", "/api/templates/TPL-1", nil)
	b.fails(404, "template TPL-1 not found", "DELETE", "/api/templates/TPL-1", nil)
}
