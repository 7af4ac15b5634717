package labels

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opsboard/opsboard/shared/wire"
)

func mustLoad(t *testing.T) []Bundle {
	t.Helper()
	bundles, err := Load()
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return bundles
}

func TestBundleData(t *testing.T) {
	bundles := mustLoad(t)

	kinds := map[string]int{}
	ids := map[string]bool{}
	entries := 0
	first := map[string]wire.LabelDef{} // label id -> first definition seen
	owners := map[string][]string{}     // label id -> bundles that define it
	kebab := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

	for _, b := range bundles {
		kinds[b.Kind]++
		if ids[b.ID] {
			t.Errorf("bundle id %s is used twice", b.ID)
		}
		ids[b.ID] = true
		if strings.TrimSpace(b.Title) == "" {
			t.Errorf("bundle %s has no title", b.ID)
		}
		if strings.TrimSpace(b.Description) == "" || strings.ContainsAny(b.Description, "\r\n") {
			t.Errorf("bundle %s needs a non-empty one-line description, got %q", b.ID, b.Description)
		}
		inBundle := map[string]bool{}
		for _, l := range b.Labels {
			entries++
			if inBundle[l.ID] {
				t.Errorf("bundle %s lists %s twice", b.ID, l.ID)
			}
			inBundle[l.ID] = true
			if !kebab.MatchString(l.ID) {
				t.Errorf("%s/%s: id is not kebab-case", b.ID, l.ID)
			}
			if strings.TrimSpace(l.Title) == "" || strings.TrimSpace(l.Description) == "" {
				t.Errorf("%s/%s: title and description must be non-empty", b.ID, l.ID)
			}
			if !slices.Contains(wire.LabelColors, l.Color) {
				t.Errorf("%s/%s: color %q is not in the palette", b.ID, l.ID, l.Color)
			}
			if prev, ok := first[l.ID]; ok {
				if diff := cmp.Diff(prev, l); diff != "" {
					t.Errorf("%s recurs in %s with a different definition than in %s (-first +here)\n%s", l.ID, b.ID, owners[l.ID][0], diff)
				}
			} else {
				first[l.ID] = l
			}
			owners[l.ID] = append(owners[l.ID], b.ID)
		}
	}

	if diff := cmp.Diff(map[string]int{KindUniversal: 1, KindRole: 23, KindLife: 13}, kinds); diff != "" {
		t.Errorf("bundles by kind (-want +got)\n%s", diff)
	}
	if len(bundles) != 37 {
		t.Errorf("got %d bundles, want 37", len(bundles))
	}
	if entries != 380 {
		t.Errorf("got %d label entries, want 380", entries)
	}
	if len(first) != 359 {
		t.Errorf("got %d distinct label ids, want 359", len(first))
	}

	for _, id := range []string{
		"manager", "executive-leadership", "administrative-ea", "project-management", "it-support",
		"software-engineering", "product-management", "sales", "marketing", "customer-success-support",
		"finance-accounting", "hr-people-ops", "legal-compliance", "operations", "consulting-services",
		"design-creative",
		"learning", "events", "digital-subscriptions", "pet-care", "vehicle-care", "job-search", "travel",
		"universal",
	} {
		if !ids[id] {
			t.Errorf("required bundle %s is missing", id)
		}
	}

	universal, ok := Find(bundles, "universal")
	if !ok {
		t.Fatal("no universal bundle")
	}
	var got []string
	for _, l := range universal.Labels {
		got = append(got, l.ID)
	}
	want := []string{"waiting-on", "blocked", "at-risk", "needs-decision", "deep-work", "quick-win", "delegated", "follow-up", "scheduled", "snoozed", "reference"}
	slices.Sort(got)
	slices.Sort(want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("universal ids (-want +got)\n%s", diff)
	}
}

func TestLoadSortsByKindThenID(t *testing.T) {
	bundles := mustLoad(t)
	if bundles[0].ID != "universal" {
		t.Errorf("first bundle is %s, want universal", bundles[0].ID)
	}
	sorted := slices.IsSortedFunc(bundles, func(a, b Bundle) int {
		if d := kindRank(a.Kind) - kindRank(b.Kind); d != 0 {
			return d
		}
		return strings.Compare(a.ID, b.ID)
	})
	if !sorted {
		t.Error("bundles are not sorted by kind (universal, role, life) then id")
	}
}

func TestFind(t *testing.T) {
	bundles := mustLoad(t)
	if b, ok := Find(bundles, "pet-care"); !ok || b.Kind != KindLife {
		t.Errorf("Find(pet-care) = %s/%s, %v; want a life bundle", b.ID, b.Kind, ok)
	}
	if _, ok := Find(bundles, "no-such-bundle"); ok {
		t.Error("Find(no-such-bundle) reported a bundle")
	}
}

// The real bundles must install side by side without a single conflict, and
// uninstalling all of them must leave nothing behind.
func TestInstallEveryBundle(t *testing.T) {
	bundles := mustLoad(t)
	var cat []*wire.LabelDef
	var src wire.LabelSources
	for _, b := range bundles {
		var conflicts []Conflict
		cat, src, conflicts = Install(cat, src, b)
		if len(conflicts) != 0 {
			t.Errorf("installing %s: conflicts %+v", b.ID, conflicts)
		}
	}
	if len(cat) != 359 {
		t.Errorf("catalog has %d labels after installing everything, want 359", len(cat))
	}
	for _, st := range Statuses(bundles, cat, src) {
		if !st.Installed || st.InstalledCount != st.LabelCount || st.OwnedCount != st.LabelCount {
			t.Errorf("status %+v: want installed with every label present and owned", st)
		}
	}
	for _, b := range slices.Backward(bundles) {
		cat, src, _ = Uninstall(cat, src, b.ID)
	}
	if diff := cmp.Diff(wire.LabelSources{}, src); diff != "" || len(cat) != 0 {
		t.Errorf("after uninstalling everything: %d labels left, provenance (-want +got)\n%s", len(cat), diff)
	}
}

// Fixtures for the rule tests: two small bundles sharing one concept.
var (
	invoice   = wire.LabelDef{ID: "invoice", Title: "Invoice", Description: "Apply when an invoice must be issued, checked, approved or paid.", Color: "teal"}
	budget    = wire.LabelDef{ID: "budget", Title: "Budget", Description: "Apply when the work tracks spending against a budget.", Color: "green"}
	timesheet = wire.LabelDef{ID: "timesheet", Title: "Timesheet", Description: "Apply when hours must be logged before the billing cutoff.", Color: "amber"}
	vip       = wire.LabelDef{ID: "vip", Title: "VIP", Description: "Apply when the item involves a top customer.", Color: "red"}

	finance    = Bundle{ID: "finance", Title: "Finance", Kind: KindRole, Description: "Money.", Labels: []wire.LabelDef{invoice, budget}}
	consulting = Bundle{ID: "consulting", Title: "Consulting", Kind: KindRole, Description: "Clients.", Labels: []wire.LabelDef{invoice, timesheet}}
)

// defs builds a catalog of fresh pointers, as a store would hold it.
func defs(ls ...wire.LabelDef) []*wire.LabelDef {
	out := make([]*wire.LabelDef, 0, len(ls))
	for _, l := range ls {
		out = append(out, &l)
	}
	return out
}

func with(l wire.LabelDef, edit func(*wire.LabelDef)) wire.LabelDef {
	edit(&l)
	return l
}

func TestInstall(t *testing.T) {
	otherInvoice := with(invoice, func(l *wire.LabelDef) { l.Description = "Apply when a client has to be billed." })
	recolored := with(invoice, func(l *wire.LabelDef) { l.Color = "pink" })
	renamed := with(budget, func(l *wire.LabelDef) { l.Title = "Spend" })

	for _, tc := range []struct {
		name          string
		catalog       []*wire.LabelDef
		src           wire.LabelSources
		bundle        Bundle
		wantCatalog   []*wire.LabelDef
		wantSrc       wire.LabelSources
		wantConflicts []Conflict
	}{
		{
			name:        "fresh install adds every label and owns it",
			bundle:      finance,
			wantCatalog: defs(invoice, budget),
			wantSrc:     wire.LabelSources{Bundles: map[string][]string{"finance": {"budget", "invoice"}}},
		},
		{
			name:        "new labels go after the existing ones",
			catalog:     defs(vip),
			src:         wire.LabelSources{Custom: []string{"vip"}},
			bundle:      finance,
			wantCatalog: defs(vip, invoice, budget),
			wantSrc:     wire.LabelSources{Bundles: map[string][]string{"finance": {"budget", "invoice"}}, Custom: []string{"vip"}},
		},
		{
			name:        "re-install is idempotent",
			catalog:     defs(invoice, budget),
			src:         wire.LabelSources{Bundles: map[string][]string{"finance": {"budget", "invoice"}}},
			bundle:      finance,
			wantCatalog: defs(invoice, budget),
			wantSrc:     wire.LabelSources{Bundles: map[string][]string{"finance": {"budget", "invoice"}}},
		},
		{
			name:          "conflict keeps the existing definition, reports both and is not owned",
			catalog:       defs(otherInvoice),
			src:           wire.LabelSources{Custom: []string{"invoice"}},
			bundle:        finance,
			wantCatalog:   defs(otherInvoice, budget),
			wantSrc:       wire.LabelSources{Bundles: map[string][]string{"finance": {"budget"}}, Custom: []string{"invoice"}},
			wantConflicts: []Conflict{{ID: "invoice", Existing: otherInvoice, Incoming: invoice}},
		},
		{
			name:        "a second bundle co-owns the shared concept",
			catalog:     defs(invoice, budget),
			src:         wire.LabelSources{Bundles: map[string][]string{"finance": {"budget", "invoice"}}},
			bundle:      consulting,
			wantCatalog: defs(invoice, budget, timesheet),
			wantSrc: wire.LabelSources{Bundles: map[string][]string{
				"finance":    {"budget", "invoice"},
				"consulting": {"invoice", "timesheet"},
			}},
		},
		{
			name:        "same meaning in another color is shared and keeps the existing color",
			catalog:     defs(recolored),
			src:         wire.LabelSources{Custom: []string{"invoice"}},
			bundle:      finance,
			wantCatalog: defs(recolored, budget),
			wantSrc:     wire.LabelSources{Bundles: map[string][]string{"finance": {"budget", "invoice"}}, Custom: []string{"invoice"}},
		},
		{
			name:        "re-install after the human edited an owned label is not a conflict",
			catalog:     defs(invoice, renamed),
			src:         wire.LabelSources{Bundles: map[string][]string{"finance": {"budget", "invoice"}}},
			bundle:      finance,
			wantCatalog: defs(invoice, renamed),
			wantSrc:     wire.LabelSources{Bundles: map[string][]string{"finance": {"budget", "invoice"}}},
		},
		{
			name:        "ids the bundle brought earlier stay owned after it stops listing them",
			catalog:     defs(invoice, budget, vip),
			src:         wire.LabelSources{Bundles: map[string][]string{"finance": {"budget", "invoice", "vip"}}},
			bundle:      finance,
			wantCatalog: defs(invoice, budget, vip),
			wantSrc:     wire.LabelSources{Bundles: map[string][]string{"finance": {"budget", "invoice", "vip"}}},
		},
		{
			name:          "a bundle that owns nothing is still recorded as installed",
			catalog:       defs(otherInvoice),
			bundle:        Bundle{ID: "billing", Labels: []wire.LabelDef{invoice}},
			wantCatalog:   defs(otherInvoice),
			wantSrc:       wire.LabelSources{Bundles: map[string][]string{"billing": {}}},
			wantConflicts: []Conflict{{ID: "invoice", Existing: otherInvoice, Incoming: invoice}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cat, src, conflicts := Install(tc.catalog, tc.src, tc.bundle)
			if diff := cmp.Diff(tc.wantCatalog, cat); diff != "" {
				t.Errorf("catalog (-want +got)\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantSrc, src); diff != "" {
				t.Errorf("sources (-want +got)\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantConflicts, conflicts); diff != "" {
				t.Errorf("conflicts (-want +got)\n%s", diff)
			}
			// Installing the same bundle again changes nothing.
			cat2, src2, conflicts2 := Install(cat, src, tc.bundle)
			if diff := cmp.Diff(cat, cat2); diff != "" {
				t.Errorf("second install changed the catalog (-first +second)\n%s", diff)
			}
			if diff := cmp.Diff(src, src2); diff != "" {
				t.Errorf("second install changed the sources (-first +second)\n%s", diff)
			}
			if diff := cmp.Diff(conflicts, conflicts2); diff != "" {
				t.Errorf("second install reported other conflicts (-first +second)\n%s", diff)
			}
		})
	}
}

func TestUninstall(t *testing.T) {
	both := wire.LabelSources{Bundles: map[string][]string{
		"finance":    {"budget", "invoice"},
		"consulting": {"invoice", "timesheet"},
	}}
	for _, tc := range []struct {
		name        string
		catalog     []*wire.LabelDef
		src         wire.LabelSources
		bundleID    string
		wantCatalog []*wire.LabelDef
		wantSrc     wire.LabelSources
		wantRemoved []string
	}{
		{
			name:        "removes only what the bundle alone owns and keeps co-owned ids",
			catalog:     defs(invoice, budget, timesheet),
			src:         both,
			bundleID:    "consulting",
			wantCatalog: defs(invoice, budget),
			wantSrc:     wire.LabelSources{Bundles: map[string][]string{"finance": {"budget", "invoice"}}},
			wantRemoved: []string{"timesheet"},
		},
		{
			name:        "keeps ids co-owned by the other bundle either way round",
			catalog:     defs(invoice, budget, timesheet),
			src:         both,
			bundleID:    "finance",
			wantCatalog: defs(invoice, timesheet),
			wantSrc:     wire.LabelSources{Bundles: map[string][]string{"consulting": {"invoice", "timesheet"}}},
			wantRemoved: []string{"budget"},
		},
		{
			name:        "keeps custom ids and labels it never owned",
			catalog:     defs(vip, invoice, budget),
			src:         wire.LabelSources{Bundles: map[string][]string{"finance": {"budget", "invoice"}}, Custom: []string{"budget", "vip"}},
			bundleID:    "finance",
			wantCatalog: defs(vip, budget),
			wantSrc:     wire.LabelSources{Custom: []string{"budget", "vip"}},
			wantRemoved: []string{"invoice"},
		},
		{
			name:        "the last bundle out leaves empty provenance and sorted removals",
			catalog:     defs(invoice, budget),
			src:         wire.LabelSources{Bundles: map[string][]string{"finance": {"budget", "invoice"}}},
			bundleID:    "finance",
			wantCatalog: defs(),
			wantSrc:     wire.LabelSources{},
			wantRemoved: []string{"budget", "invoice"},
		},
		{
			name:        "ids already deleted by hand are not reported",
			catalog:     defs(budget),
			src:         wire.LabelSources{Bundles: map[string][]string{"finance": {"budget", "invoice"}}},
			bundleID:    "finance",
			wantCatalog: defs(),
			wantSrc:     wire.LabelSources{},
			wantRemoved: []string{"budget"},
		},
		{
			name:        "a bundle that is not installed changes nothing",
			catalog:     defs(invoice, budget),
			src:         wire.LabelSources{Bundles: map[string][]string{"finance": {"budget", "invoice"}}},
			bundleID:    "consulting",
			wantCatalog: defs(invoice, budget),
			wantSrc:     wire.LabelSources{Bundles: map[string][]string{"finance": {"budget", "invoice"}}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cat, src, removed := Uninstall(tc.catalog, tc.src, tc.bundleID)
			if diff := cmp.Diff(tc.wantCatalog, cat); diff != "" {
				t.Errorf("catalog (-want +got)\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantSrc, src); diff != "" {
				t.Errorf("sources (-want +got)\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantRemoved, removed); diff != "" {
				t.Errorf("removed (-want +got)\n%s", diff)
			}
		})
	}
}

// snapshot renders a catalog and its provenance so a test can tell whether
// anything reachable from them changed.
func snapshot(t *testing.T, cat []*wire.LabelDef, src wire.LabelSources) string {
	t.Helper()
	b, err := json.Marshal(struct {
		Cat []*wire.LabelDef
		Src wire.LabelSources
	}{cat, src})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestInstallAndUninstallDoNotTouchTheirInputs(t *testing.T) {
	for _, tc := range []struct {
		name string
		run  func(cat []*wire.LabelDef, src wire.LabelSources) ([]*wire.LabelDef, wire.LabelSources)
	}{
		{"install", func(cat []*wire.LabelDef, src wire.LabelSources) ([]*wire.LabelDef, wire.LabelSources) {
			cat, src, _ = Install(cat, src, consulting)
			return cat, src
		}},
		{"install with conflict", func(cat []*wire.LabelDef, src wire.LabelSources) ([]*wire.LabelDef, wire.LabelSources) {
			cat, src, _ = Install(cat, src, Bundle{ID: "other", Labels: []wire.LabelDef{with(budget, func(l *wire.LabelDef) { l.Title = "Spend" })}})
			return cat, src
		}},
		{"uninstall", func(cat []*wire.LabelDef, src wire.LabelSources) ([]*wire.LabelDef, wire.LabelSources) {
			cat, src, _ = Uninstall(cat, src, "finance")
			return cat, src
		}},
		{"uninstall of a bundle that is not installed", func(cat []*wire.LabelDef, src wire.LabelSources) ([]*wire.LabelDef, wire.LabelSources) {
			cat, src, _ = Uninstall(cat, src, "nope")
			return cat, src
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Spare capacity everywhere, so an append into a shared backing
			// array would show up in the input.
			cat := make([]*wire.LabelDef, 0, 10)
			cat = append(cat, defs(vip, invoice, budget)...)
			owned := make([]string, 0, 10)
			owned = append(owned, "budget", "invoice")
			custom := make([]string, 0, 10)
			custom = append(custom, "vip")
			src := wire.LabelSources{Bundles: map[string][]string{"finance": owned}, Custom: custom}
			before := snapshot(t, cat, src)

			outCat, outSrc := tc.run(cat, src)
			// Scribble over everything the caller got back.
			for _, l := range outCat {
				l.Title, l.Color = "scribbled", "gray"
			}
			_ = append(outCat, &wire.LabelDef{ID: "extra"})
			if outSrc.Bundles == nil {
				outSrc.Bundles = map[string][]string{}
			}
			for id, ids := range outSrc.Bundles {
				for i := range ids {
					ids[i] = "scribbled"
				}
				outSrc.Bundles[id] = append(ids, "extra")
			}
			outSrc.Bundles["new"] = []string{"x"}
			for i := range outSrc.Custom {
				outSrc.Custom[i] = "scribbled"
			}
			_ = append(outSrc.Custom, "extra")

			if diff := cmp.Diff(before, snapshot(t, cat, src)); diff != "" {
				t.Errorf("inputs changed (-before +after)\n%s", diff)
			}
			if len(cat) != 3 || len(owned) != 2 || len(custom) != 1 || owned[:3][2] != "" || custom[:2][1] != "" {
				t.Errorf("inputs or their spare capacity changed: cat %d, owned %q, custom %q", len(cat), owned[:3], custom[:2])
			}
		})
	}
}

func TestStatuses(t *testing.T) {
	otherInvoice := with(invoice, func(l *wire.LabelDef) { l.Title = "Bill" })
	bundles := []Bundle{finance, consulting}
	for _, tc := range []struct {
		name    string
		catalog []*wire.LabelDef
		src     wire.LabelSources
		want    []Status
	}{
		{
			name: "nothing installed",
			want: []Status{
				{ID: "finance", Title: "Finance", Kind: KindRole, Description: "Money.", LabelCount: 2},
				{ID: "consulting", Title: "Consulting", Kind: KindRole, Description: "Clients.", LabelCount: 2},
			},
		},
		{
			name:    "one installed counts shared ids as present for the other",
			catalog: defs(invoice, budget),
			src:     wire.LabelSources{Bundles: map[string][]string{"finance": {"budget", "invoice"}}},
			want: []Status{
				{ID: "finance", Title: "Finance", Kind: KindRole, Description: "Money.", LabelCount: 2, InstalledCount: 2, OwnedCount: 2, Installed: true},
				{ID: "consulting", Title: "Consulting", Kind: KindRole, Description: "Clients.", LabelCount: 2, InstalledCount: 1},
			},
		},
		{
			name:    "a conflicted id is present but not owned",
			catalog: defs(otherInvoice, budget),
			src:     wire.LabelSources{Bundles: map[string][]string{"finance": {"budget"}}, Custom: []string{"invoice"}},
			want: []Status{
				{ID: "finance", Title: "Finance", Kind: KindRole, Description: "Money.", LabelCount: 2, InstalledCount: 2, OwnedCount: 1, Installed: true},
				{ID: "consulting", Title: "Consulting", Kind: KindRole, Description: "Clients.", LabelCount: 2, InstalledCount: 1},
			},
		},
		{
			name:    "installed with nothing owned is still installed",
			catalog: defs(otherInvoice),
			src:     wire.LabelSources{Bundles: map[string][]string{"consulting": {}}},
			want: []Status{
				{ID: "finance", Title: "Finance", Kind: KindRole, Description: "Money.", LabelCount: 2, InstalledCount: 1},
				{ID: "consulting", Title: "Consulting", Kind: KindRole, Description: "Clients.", LabelCount: 2, InstalledCount: 1, Installed: true},
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Statuses(bundles, tc.catalog, tc.src)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestStatusJSONNames(t *testing.T) {
	b, err := json.Marshal(Status{ID: "x", LabelCount: 1, InstalledCount: 2, OwnedCount: 3, Installed: true})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"x","title":"","kind":"","description":"","labelCount":1,"installedCount":2,"ownedCount":3,"installed":true}`
	if diff := cmp.Diff(want, string(b)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestKebab(t *testing.T) {
	for _, tc := range []struct {
		title, want string
	}{
		{"Waiting on", "waiting-on"},
		{"already-kebab", "already-kebab"},
		{"  Q3 Budget!! ", "q3-budget"},
		{"M&A", "m-a"},
		{"--a__b  c--", "a-b-c"},
		{"Café crème", "caf-cr-me"},
		{"1:1 prep", "1-1-prep"},
		{"", "label"},
		{"!!!", "label"},
		{"日本語", "label"},
	} {
		t.Run(tc.title, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Kebab(tc.title)); diff != "" {
				t.Errorf("Kebab(%q) (-want +got)\n%s", tc.title, diff)
			}
		})
	}
}

func TestMintID(t *testing.T) {
	for _, tc := range []struct {
		name  string
		title string
		taken []string
		want  string
	}{
		{"free id is used as is", "Invoice", nil, "invoice"},
		{"first clash gets -2", "Invoice", []string{"invoice"}, "invoice-2"},
		{"further clashes count up", "Invoice", []string{"invoice", "invoice-2", "invoice-3"}, "invoice-4"},
		{"a gap is reused", "Invoice", []string{"invoice", "invoice-3"}, "invoice-2"},
		{"empty titles de-duplicate too", "???", []string{"label"}, "label-2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := MintID(tc.title, func(id string) bool { return slices.Contains(tc.taken, id) })
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}
