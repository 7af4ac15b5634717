package api_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/opsboard/opsboard/board/internal/testkit"
)

func TestSearchFindsVaultPages(t *testing.T) {
	b, dir := vaultBoard(t, map[string]string{
		"people/Ann Lee.md":       "---\ntype: person\naliases: [Annie]\nemails: [ann@acme.test]\n---\nRuns billing at Acme.\n",
		"Daily/2026-11-26.md":     "Lunch with [[Ann Lee]] about the consulate.\n",
		".obsidian/workspace.md":  "consulate consulate",
		"organizations/Acme.md":   "---\ntype: organization\ndomains: [acme.test]\n---\nSupplier of invoices.\n",
		"topics/Broken.md":        "---\ntype: [unclosed\n---\nthe consulate again\n",
		"topics/Not markdown.txt": "consulate",
	})
	seedSearch(b)
	cs := b.must(201, "POST", "/api/cases", map[string]any{"title": "Ann's contract"}).Get("case.id").String()
	b.must(200, "PATCH", "/api/cases/"+cs, map[string]any{"vaultLinks": []string{"people/Ann Lee.md"}})
	ann := b.must(200, "GET", "/api/vault?q=Ann", nil).Get("pages.0.id").String()
	if ann == "" {
		t.Fatal("linking a page did not give it an id")
	}

	// POST: pages rank with the rest, and a page hit carries its summary.
	got := b.must(200, "POST", "/api/search", map[string]any{"q": "annie", "semantic": false})
	hit := got.Get("results.0.hits.0")
	if hit.Get("type").String() != "page" || hit.Get("id").String() != ann || hit.Get("page.title").String() != "Ann Lee" ||
		hit.Get("page.cases.0").String() != cs || hit.Get("page.body").Exists() || hit.Get("caseId").Type.String() != "Null" {
		t.Errorf("page hit: %s", hit.Raw)
	}
	if got.Get("merged.pages.0.id").String() != ann {
		t.Errorf("merged pages: %s", got.Get("merged").Raw)
	}
	got = b.must(200, "POST", "/api/search", map[string]any{"q": "consulate", "types": []string{"page"}, "semantic": false})
	var paths []string
	for _, h := range got.Get("results.0.hits").Array() {
		paths = append(paths, h.Get("page.path").String())
	}
	slices.Sort(paths)
	if !slices.Equal(paths, []string{"Daily/2026-11-26.md", "topics/Broken.md"}) {
		t.Errorf("pages only, dot folders and other files never read: %v", paths)
	}
	if got := b.must(200, "POST", "/api/search", map[string]any{"q": "consulate", "types": []string{"case"}, "semantic": false}); strings.Contains(got.Raw, `"page"`) {
		t.Errorf("a types filter without page named a page: %s", got.Raw)
	}
	b.fails(400, "allowed: case, task, message, reminder, page", "POST", "/api/search", map[string]any{"q": "x", "types": []string{"pages"}})

	// GET: the scan lists matching pages beside the records.
	got = b.must(200, "GET", "/api/search?q=ACME", nil)
	if idsOf(got.Get("cases"))[0] != "CASE-3" || len(got.Get("pages").Array()) != 2 {
		t.Errorf("scan: %s", got.Raw)
	}
	if got := b.must(200, "GET", "/api/search?q=nothing-like-this", nil); strings.TrimSpace(got.Raw) != `{"cases":[],"tasks":[],"messages":[],"reminders":[]}` {
		t.Errorf("no page matched, the answer is as before: %s", got.Raw)
	}

	// A hand edit is searched once the vault has read it.
	if err := os.WriteFile(filepath.Join(dir, "organizations", "Acme.md"), []byte("---\ntype: organization\n---\nNow also a sailing club.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, "the edited page is found", func() bool {
		got := b.must(200, "POST", "/api/search", map[string]any{"q": "sailing", "semantic": false})
		return got.Get("results.0.hits.0.page.path").String() == "organizations/Acme.md"
	})
}

func TestSearchWithoutAVaultAnswersAsBefore(t *testing.T) {
	b := newBoard(t)
	seedSearch(b)
	got := b.must(200, "POST", "/api/search", map[string]any{"q": "acme", "semantic": false})
	if strings.Contains(got.Raw, `"pages"`) || strings.Contains(got.Raw, `"page"`) {
		t.Errorf("a board without a vault named pages: %s", got.Raw)
	}
}
