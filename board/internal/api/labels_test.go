package api_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

func labelIDs(b *board) []string {
	var out []string
	for _, l := range b.must(200, "GET", "/api/labels", nil).Get("labels").Array() {
		out = append(out, l.Get("id").String())
	}
	return out
}

func bundle(b *board, id string) gjson.Result {
	for _, x := range b.must(200, "GET", "/api/labels/bundles", nil).Get("bundles").Array() {
		if x.Get("id").String() == id {
			return x
		}
	}
	b.t.Fatalf("bundle %s not listed", id)
	return gjson.Result{}
}

func TestFreshStoreHasUniversal(t *testing.T) {
	b := newBoard(t)
	want := []string{"waiting-on", "blocked", "at-risk", "needs-decision", "deep-work", "quick-win", "delegated", "follow-up", "scheduled", "snoozed", "reference"}
	got := labelIDs(b)
	slices.Sort(got)
	slices.Sort(want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("fresh catalog (-want +got)\n%s", diff)
	}
	bs := b.must(200, "GET", "/api/labels/bundles", nil).Get("bundles").Array()
	if len(bs) != 37 {
		t.Fatalf("%d bundles listed, want 37", len(bs))
	}
	u := bundle(b, "universal")
	if u.Get("installedCount").Int() != 11 || u.Get("ownedCount").Int() != 11 || !u.Get("installed").Bool() {
		t.Errorf("universal %s", u.Raw)
	}
	if m := bundle(b, "manager"); m.Get("installed").Bool() || m.Get("ownedCount").Int() != 0 {
		t.Errorf("manager before install %s", m.Raw)
	}
}

func TestInstallIsIdempotentAndSharesOwnership(t *testing.T) {
	b := newBoard(t)
	r := b.must(200, "POST", "/api/labels/bundles", map[string]any{"id": "manager"}, agent...)
	added := r.Get("added").Array()
	if len(added) == 0 || len(r.Get("conflicts").Array()) != 0 {
		t.Fatalf("install manager: %s", r.Raw)
	}
	n := len(labelIDs(b))
	again := b.must(200, "POST", "/api/labels/bundles", map[string]any{"id": "manager"})
	if len(again.Get("added").Array()) != 0 || len(labelIDs(b)) != n {
		t.Fatalf("re-install changed the catalog: %s", again.Raw)
	}
	// recruiting shares "hiring" with manager.
	b.must(200, "POST", "/api/labels/bundles", map[string]any{"id": "recruiting"})
	if !slices.Contains(labelIDs(b), "hiring") {
		t.Fatal("hiring missing")
	}
	b.must(201, "POST", "/api/cases", map[string]any{"title": "c", "labels": []string{"hiring"}})
	rm := b.must(200, "DELETE", "/api/labels/bundles/manager", nil)
	if slices.Contains(gjsonStrings(rm.Get("removed")), "hiring") || !slices.Contains(labelIDs(b), "hiring") {
		t.Fatalf("uninstalling manager removed hiring, still owned by recruiting: %s", rm.Raw)
	}
	if got := b.must(200, "GET", "/api/cases/CASE-1", nil).Get("case.labels.0").String(); got != "hiring" {
		t.Errorf("shared label scrubbed from a case: %q", got)
	}
	rm = b.must(200, "DELETE", "/api/labels/bundles/recruiting", nil)
	if !slices.Contains(gjsonStrings(rm.Get("removed")), "hiring") || slices.Contains(labelIDs(b), "hiring") {
		t.Fatalf("uninstalling the last owner kept hiring: %s", rm.Raw)
	}
	if b.must(200, "GET", "/api/cases/CASE-1", nil).Get("case.labels").Exists() {
		t.Error("uninstall did not scrub the case by default")
	}
	b.fails(404, "bundle nope not found", "POST", "/api/labels/bundles", map[string]any{"id": "nope"})
	b.fails(400, "Field 'id' is required.", "POST", "/api/labels/bundles", map[string]any{})
	b.fails(404, "bundle nope not found", "DELETE", "/api/labels/bundles/nope", nil)
}

func gjsonStrings(r gjson.Result) []string {
	var out []string
	for _, x := range r.Array() {
		out = append(out, x.String())
	}
	return out
}

func TestUninstallWithoutScrubKeepsReferencesEditable(t *testing.T) {
	b := newBoard(t)
	b.must(200, "POST", "/api/labels/bundles", map[string]any{"id": "travel"})
	travel := bundle(b, "travel")
	if travel.Get("installedCount").Int() != travel.Get("labelCount").Int() {
		t.Fatalf("travel %s", travel.Raw)
	}
	b.must(201, "POST", "/api/cases", map[string]any{"title": "trip", "labels": []string{"travel-booking", "blocked"}})
	b.must(200, "DELETE", "/api/labels/bundles/travel?scrub=0", nil)
	if slices.Contains(labelIDs(b), "travel-booking") {
		t.Fatal("label still in catalog")
	}
	c := b.must(200, "GET", "/api/cases/CASE-1", nil).Get("case")
	if got := c.Get("labels").Raw; got != `["travel-booking","blocked"]` {
		t.Fatalf("scrub=0 changed references: %s", got)
	}
	// The stale id does not block edits, nor keeping it while adding others.
	b.must(200, "PATCH", "/api/cases/CASE-1", map[string]any{"title": "trip 2"})
	b.must(200, "PATCH", "/api/cases/CASE-1", map[string]any{"labels": []string{"travel-booking", "blocked", "at-risk"}})
	b.fails(400, "unknown label id(s): passport", "PATCH", "/api/cases/CASE-1", map[string]any{"labels": []string{"passport"}})
}

func TestInstallConflictKeepsExistingDefinition(t *testing.T) {
	b := newBoard(t)
	custom := b.must(201, "POST", "/api/labels", map[string]any{"title": "Hiring", "description": "Our own meaning.", "color": "red"}).Get("label")
	if custom.Get("id").String() != "hiring" {
		t.Fatalf("custom id %s", custom.Get("id"))
	}
	r := b.must(200, "POST", "/api/labels/bundles", map[string]any{"id": "manager"})
	conf := r.Get("conflicts").Array()
	if len(conf) != 1 || conf[0].Get("id").String() != "hiring" || conf[0].Get("existing.description").String() != "Our own meaning." || conf[0].Get("incoming.description").String() == "Our own meaning." {
		t.Fatalf("conflict report %s", r.Get("conflicts").Raw)
	}
	for _, l := range b.must(200, "GET", "/api/labels", nil).Get("labels").Array() {
		if l.Get("id").String() == "hiring" && l.Get("description").String() != "Our own meaning." {
			t.Errorf("existing definition replaced: %s", l.Raw)
		}
	}
	// The custom label survives the bundle's uninstall.
	b.must(200, "DELETE", "/api/labels/bundles/manager", nil)
	if !slices.Contains(labelIDs(b), "hiring") {
		t.Error("uninstall removed a custom label")
	}
}

func TestCustomLabels(t *testing.T) {
	b := newBoard(t)
	for _, want := range []string{"q3-launch", "q3-launch-2", "q3-launch-3"} {
		got := b.must(201, "POST", "/api/labels", map[string]any{"title": "Q3 Launch!"}).Get("label")
		if got.Get("id").String() != want || got.Get("color").String() != "gray" {
			t.Errorf("minted %s, want %s", got.Raw, want)
		}
	}
	b.fails(400, "Field 'title' is required.", "POST", "/api/labels", map[string]any{"title": ""})
	b.fails(400, "field 'color' must be one of", "POST", "/api/labels", map[string]any{"title": "x", "color": "mauve"})
	p := b.must(200, "PATCH", "/api/labels/q3-launch", map[string]any{"title": "Launch", "description": "Apply when it ships in Q3.", "color": "violet"}).Get("label")
	if p.Get("title").String() != "Launch" || p.Get("color").String() != "violet" || p.Get("id").String() != "q3-launch" {
		t.Errorf("patch %s", p.Raw)
	}
	b.fails(400, "field 'color'", "PATCH", "/api/labels/q3-launch", map[string]any{"color": "mauve"})
	b.fails(404, "label nope not found", "PATCH", "/api/labels/nope", map[string]any{"title": "x"})
	b.must(201, "POST", "/api/cases", map[string]any{"title": "a", "labels": []string{"q3-launch", "blocked"}})
	b.must(201, "POST", "/api/cases", map[string]any{"title": "b", "labels": []string{"q3-launch-2"}})
	b.must(200, "DELETE", "/api/labels/q3-launch?scrub=1", nil)
	if got := b.must(200, "GET", "/api/cases/CASE-1", nil).Get("case.labels").Raw; got != `["blocked"]` {
		t.Errorf("scrub left %s", got)
	}
	b.must(200, "DELETE", "/api/labels/q3-launch-2", nil)
	if got := b.must(200, "GET", "/api/cases/CASE-2", nil).Get("case.labels").Raw; got != `["q3-launch-2"]` {
		t.Errorf("delete without scrub changed references: %s", got)
	}
	b.fails(404, "label q3-launch not found", "DELETE", "/api/labels/q3-launch", nil)
	// A new label with a freed title mints the freed id again only if unused.
	if id := b.must(201, "POST", "/api/labels", map[string]any{"title": "Q3 launch"}).Get("label.id").String(); !strings.HasPrefix(id, "q3-launch") {
		t.Errorf("minted %s", id)
	}
}
