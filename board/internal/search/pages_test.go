package search_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/search"
	"github.com/opsboard/opsboard/shared/wire"
)

func vault() []search.PageDoc {
	return []search.PageDoc{
		{Summary: wire.PageSummary{ID: "V-1", Path: "people/Ann Lee.md", Title: "Ann Lee", Type: wire.PagePerson, Aliases: []string{"Annie"},
			Emails: []string{"ann@acme.test"}, Cases: []string{"CASE-3"}, UpdatedAt: "2026-01-01T00:00:00Z"}, Body: "Runs billing at acme.\n"},
		{Summary: wire.PageSummary{ID: "V-2", Path: "organizations/Acme.md", Title: "Acme", Type: wire.PageOrganization,
			Domains: []string{"acme.test"}, UpdatedAt: "2026-01-01T00:00:00Z"}, Body: "Supplier since 2020."},
		{Summary: wire.PageSummary{Path: "notes/Zebra facts.md", Title: "Zebra facts", UpdatedAt: "2026-01-01T00:00:00Z"}, Body: "stripes"},
	}
}

func pageIDs(hits []search.Hit) []string {
	var out []string
	for _, h := range hits {
		if h.Type == "page" {
			out = append(out, h.ID)
		}
	}
	return out
}

func TestRankPages(t *testing.T) {
	ix := search.BuildPages(fixture(), search.NewPageSet(vault(), nil), nil)
	for _, tc := range []struct {
		name  string
		q     string
		types []string
		want  []string
	}{
		{"a title word", "annie", nil, []string{"V-1"}},
		{"an exact id", "V-2", nil, []string{"V-2"}},
		{"the body", "supplier", nil, []string{"V-2"}},
		{"an address ranks its page first", "ann@acme.test", nil, []string{"V-1", "V-2"}},
		{"a page without an id is found by its path", "zebra", nil, []string{"notes/Zebra facts.md"}},
		{"pages only", "acme", []string{"page"}, []string{"V-2", "V-1"}},
		{"the types filter drops pages", "acme", []string{"case"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := search.Parse(search.Body{Q: &tc.q, Types: tc.types, Semantic: ptr(false)})
			if err != nil {
				t.Fatal(err)
			}
			env := search.Rank(ix, req, nil)
			if diff := cmp.Diff(tc.want, pageIDs(env.Results[0].Hits)); diff != "" {
				t.Errorf("page hits (-want +got)\n%s", diff)
			}
			var merged []string
			for _, p := range env.Merged.Pages {
				merged = append(merged, p.ID+p.Path)
			}
			if len(merged) != len(tc.want) {
				t.Errorf("merged pages %v, want %d", merged, len(tc.want))
			}
		})
	}
}

func TestPageHitShowsTheSummary(t *testing.T) {
	ix := search.BuildPages(fixture(), search.NewPageSet(vault(), nil), nil)
	env := search.Rank(ix, search.Request{Queries: []string{"V-1"}, K: 3}, nil)
	h := env.Results[0].Hits[0]
	if h.Page == nil || h.Page.Title != "Ann Lee" || h.Case != nil || h.CaseID != nil {
		t.Fatalf("hit %+v, want the page's summary and no case", h)
	}
	raw, _ := json.Marshal(h)
	if !strings.Contains(string(raw), `"page":{"id":"V-1","path":"people/Ann Lee.md"`) || strings.Contains(string(raw), `"body"`) {
		t.Errorf("a page hit carries its summary, never its body: %s", raw)
	}
}

func TestNoVaultAnswersAsBefore(t *testing.T) {
	env := search.Rank(search.Build(fixture(), nil), search.Request{Queries: []string{"acme"}, K: 10}, nil)
	raw, _ := json.Marshal(env.Merged)
	if strings.Contains(string(raw), `"pages"`) {
		t.Errorf("merged view without a vault names pages: %s", raw)
	}
}

func TestPageSetReusesUnchangedPages(t *testing.T) {
	first := search.NewPageSet(vault(), nil)
	pages := vault()
	if body, ok := first.Unchanged(&pages[0].Summary); !ok || body != "Runs billing at acme.\n" {
		t.Errorf("an unchanged page: %q %v", body, ok)
	}
	pages[0].Summary.UpdatedAt = "2026-02-01T00:00:00Z"
	pages[0].Body = "Moved to the audit team."
	if _, ok := first.Unchanged(&pages[0].Summary); ok {
		t.Error("a page edited since is reported unchanged")
	}
	ix := search.BuildPages(fixture(), search.NewPageSet(pages, first), nil)
	env := search.Rank(ix, search.Request{Queries: []string{"audit"}, K: 3}, nil)
	if diff := cmp.Diff([]string{"V-1"}, pageIDs(env.Results[0].Hits)); diff != "" {
		t.Errorf("the edited body is searched (-want +got)\n%s", diff)
	}
}

func TestScanPages(t *testing.T) {
	set := search.NewPageSet(vault(), nil)
	for q, want := range map[string][]string{
		"ACME":          {"people/Ann Lee.md", "organizations/Acme.md"},
		"stripes":       {"notes/Zebra facts.md"},
		"organizations": {"organizations/Acme.md"},
		"  ":            nil,
		"nothing":       nil,
	} {
		var got []string
		for _, p := range search.ScanPages(set, q) {
			got = append(got, p.Path)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("ScanPages(%q) (-want +got)\n%s", q, diff)
		}
	}
	if got := search.ScanPages(nil, "acme"); got != nil {
		t.Errorf("no vault: %v", got)
	}
}
