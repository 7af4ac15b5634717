package vault

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opsboard/opsboard/shared/vaultpage"
	"github.com/opsboard/opsboard/shared/wire"
)

func TestCreateWritesANewPageAndResolvesItsMail(t *testing.T) {
	f := open(t, obsidian)
	p, existing, err := f.v.Create(t.Context(), wire.PageCreate{
		Title: "Carol Diaz", Type: wire.PagePerson, Emails: []string{"Carol@Diaz.org"}, Aliases: []string{"CD"}, Body: "Met at the fair.\n",
	})
	if err != nil || existing {
		t.Fatalf("create: %v existing=%v", err, existing)
	}
	if p.ID != "V-1" || p.Path != "people/Carol Diaz.md" || p.Type != wire.PagePerson {
		t.Errorf("created %+v", p.PageSummary)
	}
	disk := vaultpage.Parse(p.Path, []byte(f.read(p.Path)))
	if disk.Fields.ID != "V-1" || disk.Body != "Met at the fair.\n" || !slices.Equal(disk.Fields.Emails, []string{"carol@diaz.org"}) {
		t.Errorf("on disk: %+v", disk)
	}
	if diff := cmp.Diff([]string{"V-1 [carol@diaz.org] []"}, f.board.resolved); diff != "" {
		t.Errorf("resolve calls (-want +got)\n%s", diff)
	}
	org, _, err := f.v.Create(t.Context(), wire.PageCreate{Title: "Diaz Org", Type: wire.PageOrganization, Domains: []string{"@Diaz.ORG"}})
	if err != nil || org.Path != "organizations/Diaz Org.md" || !slices.Equal(org.Domains, []string{"diaz.org"}) {
		t.Fatalf("organisation: %+v %v", org.PageSummary, err)
	}
	if id, ok := f.v.ByDomain("diaz.org"); !ok || id != org.ID {
		t.Errorf("ByDomain = %s %v", id, ok)
	}
}

func TestCreateFindsTheExistingPageAndWritesNothing(t *testing.T) {
	f := open(t, obsidian)
	before := f.tree()
	for _, in := range []wire.PageCreate{
		{Title: "alice martin", Type: wire.PagePerson},                                 // title, case-insensitively
		{Title: "ALI", Type: wire.PagePerson},                                          // an alias
		{Title: "Someone", Type: wire.PagePerson, Aliases: []string{"Ali"}},            // alias against alias
		{Title: "Al M.", Type: wire.PagePerson, Emails: []string{"alice@EXAMPLE.com"}}, // an email already on a page
	} {
		p, existing, err := f.v.Create(t.Context(), in)
		if err != nil || !existing || p.ID != "V-7" {
			t.Errorf("create %+v = %s existing=%v %v; want V-7, existing", in, p.ID, existing, err)
		}
	}
	if diff := cmp.Diff(before, f.tree()); diff != "" {
		t.Errorf("an existing answer wrote files (-before +after)\n%s", diff)
	}
}

func TestWritesRefuseBadInputAndChangeNothing(t *testing.T) {
	f := open(t, obsidian)
	before := f.tree()
	ctx := t.Context()
	create := func(in wire.PageCreate) error { _, _, err := f.v.Create(ctx, in); return err }
	patch := func(id string, p wire.PagePatch) error { _, _, err := f.v.Patch(ctx, id, p); return err }
	merge := func(id, into string) error { _, _, err := f.v.Merge(ctx, id, wire.PageMerge{IntoID: into}); return err }
	for _, tc := range []struct {
		name, field string
		err         error
	}{
		{"unknown type", "type", create(wire.PageCreate{Title: "X", Type: "people"})},
		{"no type", "type", create(wire.PageCreate{Title: "X"})},
		{"empty title", "title", create(wire.PageCreate{Title: "  ", Type: wire.PagePerson})},
		{"slash", "title", create(wire.PageCreate{Title: "a/b", Type: wire.PagePerson})},
		{"backslash", "title", create(wire.PageCreate{Title: `a\b`, Type: wire.PagePerson})},
		{"NUL", "title", create(wire.PageCreate{Title: "a\x00b", Type: wire.PagePerson})},
		{"leading dot", "title", create(wire.PageCreate{Title: ".hidden", Type: wire.PagePerson})},
		{"bracket", "title", create(wire.PageCreate{Title: "a[b", Type: wire.PagePerson})},
		{"hash", "title", create(wire.PageCreate{Title: "a#b", Type: wire.PagePerson})},
		{"caret", "title", create(wire.PageCreate{Title: "a^b", Type: wire.PagePerson})},
		{"pipe", "title", create(wire.PageCreate{Title: "a|b", Type: wire.PagePerson})},
		{"bad email", "emails", create(wire.PageCreate{Title: "X", Type: wire.PagePerson, Emails: []string{"not-an-address"}})},
		{"bad domain", "domains", create(wire.PageCreate{Title: "X", Type: wire.PageOrganization, Domains: []string{"a@b"}})},
		{"rename onto a title", "title", patch("V-7", wire.PagePatch{Title: wire.Some("Bob Stone")})},
		{"rename onto an alias", "title", patch("people/bob.md", wire.PagePatch{Title: wire.Some("ali")})},
		{"rename to a bad title", "title", patch("V-7", wire.PagePatch{Title: wire.Some("a|b")})},
		{"patch a bad email", "emails", patch("V-7", wire.PagePatch{Emails: wire.Some([]string{"x@"})})},
		{"patch an email of another page", "emails", patch("V-7", wire.PagePatch{Emails: wire.Some([]string{"bob@stone.dev"})})},
		{"patch a broken page", "broken", patch("Client Work/Broken page.md", wire.PagePatch{Body: wire.Some("x")})},
		{"link a broken page", "broken", ensure(f, "Client Work/Broken page.md")},
		{"link an unknown page", "V-404", ensure(f, "V-404")},
		{"merge into itself", "intoId", merge("V-7", "people/Alice Martin.md")},
		{"merge into nothing", "intoId", merge("V-7", "")},
		{"merge into an unknown page", "intoId", merge("V-7", "V-404")},
		{"merge a broken page", "broken", merge("Client Work/Broken page.md", "V-7")},
	} {
		t.Run(tc.name, func(t *testing.T) { wantBadRequest(t, tc.err, tc.field) })
	}
	if diff := cmp.Diff(before, f.tree()); diff != "" {
		t.Errorf("a refused write changed files (-before +after)\n%s", diff)
	}
}

func ensure(f *fixture, idOrPath string) error {
	_, err := f.v.EnsureID(f.t.Context(), idOrPath)
	return err
}

func TestEnsureIDMintsOnceAndKeepsTheOwnID(t *testing.T) {
	f := open(t, obsidian)
	id, err := f.v.EnsureID(t.Context(), "people/bob.md")
	if err != nil || id != "V-1" {
		t.Fatalf("EnsureID = %s %v", id, err)
	}
	again, _ := f.v.EnsureID(t.Context(), "V-1")
	if again != "V-1" || f.board.minted != 1 {
		t.Errorf("a second EnsureID minted again: %s, %d minted", again, f.board.minted)
	}
	disk := f.read("people/bob.md")
	if !strings.Contains(disk, "id: bob-from-crm") || !strings.Contains(disk, "boardId: V-1") || !strings.HasSuffix(disk, "---\nBob.\n") {
		t.Errorf("the person's id stays and the board's goes in boardId:\n%s", disk)
	}
	if id, ok := f.v.ByEmail("BOB@stone.dev"); !ok || id != "V-1" {
		t.Errorf("ByEmail = %s %v", id, ok)
	}
	// A note without frontmatter gains one holding only the id; its text
	// stays byte for byte.
	if id, err := f.v.EnsureID(t.Context(), "Ideas.md"); err != nil || id != "V-2" {
		t.Fatalf("EnsureID of a plain note = %s %v", id, err)
	}
	disk = f.read("Ideas.md")
	if !strings.HasPrefix(disk, "---\nid: V-2\n") || !strings.HasSuffix(disk, "---\n"+obsidian["Ideas.md"]) {
		t.Errorf("a plain note given an id:\n%s", disk)
	}
}

func TestByEmailMintsTheIdOfAPageWithout(t *testing.T) {
	f := open(t, map[string]string{"people/Dan.md": "---\ntype: person\nemails: [dan@x.io]\n---\n"})
	id, ok := f.v.ByEmail("dan@x.io")
	if !ok || id != "V-1" || !strings.Contains(f.read("people/Dan.md"), "V-1") {
		t.Errorf("ByEmail = %s %v; file:\n%s", id, ok, f.read("people/Dan.md"))
	}
	if _, ok := f.v.ByEmail("nobody@x.io"); ok {
		t.Error("an unknown address resolves")
	}
	if _, ok := f.v.ByDomain("x.io"); ok {
		t.Error("a person's address domain resolves as an organisation")
	}
}

func TestPatchSetsFieldsAppendsAndResolves(t *testing.T) {
	f := open(t, obsidian)
	p, changed, err := f.v.Patch(t.Context(), "V-7", wire.PagePatch{
		Emails: wire.Some([]string{"alice@example.com", "A.Martin@Work.io"}),
		Append: "Signed the contract",
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"people/Alice Martin.md"}, changed); diff != "" {
		t.Errorf("changed (-want +got)\n%s", diff)
	}
	if !strings.Contains(p.Body, "## Timeline\n") || !strings.Contains(p.Body, "- 2026-03-04 Signed the contract") {
		t.Errorf("append adds a dated timeline line:\n%s", p.Body)
	}
	if diff := cmp.Diff([]string{"V-7 [a.martin@work.io] []"}, f.board.resolved); diff != "" {
		t.Errorf("only the new address resolves past mail (-want +got)\n%s", diff)
	}
	if !strings.Contains(f.read("people/Alice Martin.md"), "mood: sunny") {
		t.Error("an unknown key was dropped")
	}
}

func TestRenameMovesTheFileAndRewritesLinks(t *testing.T) {
	f := open(t, map[string]string{
		"people/Alice Martin.md": "---\nid: V-7\ntype: person\ntitle: Alice Martin\n---\nme\n",
		"Ideas.md":               "See [[Alice Martin]] and [[alice martin|her]].\n",
		"Other.md":               "No link here.\n",
		"Broken.md":              "---\na: [\n---\n[[Alice Martin]]\n",
	})
	before := f.tree()
	_, files, err := f.v.Patch(t.Context(), "V-7", wire.PagePatch{Title: wire.Some("Alice Moreau"), DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"people/Alice Martin.md", "people/Alice Moreau.md", "Ideas.md"}
	if diff := cmp.Diff(want, files); diff != "" {
		t.Errorf("dry run lists (-want +got)\n%s", diff)
	}
	if diff := cmp.Diff(before, f.tree()); diff != "" {
		t.Errorf("a dry run wrote (-before +after)\n%s", diff)
	}
	p, files, err := f.v.Patch(t.Context(), "V-7", wire.PagePatch{Title: wire.Some("Alice Moreau")})
	if err != nil {
		t.Fatal(err)
	}
	if p.ID != "V-7" || p.Path != "people/Alice Moreau.md" || f.exists("people/Alice Martin.md") {
		t.Errorf("renamed: %+v", p.PageSummary)
	}
	if diff := cmp.Diff([]string{"people/Alice Martin.md", "people/Alice Moreau.md", "Ideas.md"}, files); diff != "" {
		t.Errorf("changed (-want +got)\n%s", diff)
	}
	if got := f.read("Ideas.md"); got != "See [[Alice Moreau]] and [[Alice Moreau|her]].\n" {
		t.Errorf("links rewritten: %q", got)
	}
	if f.read("Broken.md") != before["Broken.md"] || f.read("Other.md") != before["Other.md"] {
		t.Error("a broken or unlinking page was rewritten")
	}
	if got := f.get("V-7").Backlinks.Pages; !slices.Equal(got, []string{"Ideas.md"}) {
		t.Errorf("backlinks after the rename: %v", got)
	}
}

func TestMergeFoldsIntoTheTargetAndLeavesAStub(t *testing.T) {
	f := open(t, map[string]string{
		"people/Alice Martin.md": "---\nid: V-7\ntype: person\nemails: [alice@example.com]\ncases: [CASE-1]\n---\nA.\n",
		"people/A. Martin.md":    "---\ntype: person\naliases: [AM]\nemails: [am@work.io]\ncases: [CASE-2]\n---\nNotes on A.\n",
		"Ideas.md":               "Ask [[A. Martin]].\n",
	})
	f.board.setDoc(&wire.Doc{Cases: wire.ListOf([]*wire.Case{{ID: "CASE-1", VaultLinks: []string{"V-7"}}}...)})
	p, files, err := f.v.Merge(t.Context(), "people/A. Martin.md", wire.PageMerge{IntoID: "V-7"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"people/Alice Martin.md", "people/A. Martin.md", "Ideas.md"}, files); diff != "" {
		t.Errorf("changed (-want +got)\n%s", diff)
	}
	if !slices.Equal(p.Emails, []string{"alice@example.com", "am@work.io"}) || !slices.Equal(p.Aliases, []string{"AM", "A. Martin"}) || !slices.Equal(p.Cases, []string{"CASE-1", "CASE-2"}) {
		t.Errorf("target: %+v", p.PageSummary)
	}
	if diff := cmp.Diff([]string{"V-1>V-7"}, f.board.relinked); diff != "" {
		t.Errorf("relink (-want +got)\n%s", diff)
	}
	stub := f.get("people/A. Martin.md")
	if stub.MergedInto != "V-7" || len(stub.Emails)+len(stub.Aliases)+len(stub.Cases) != 0 || stub.Body != "Notes on A.\n" {
		t.Errorf("stub: %+v body %q", stub, stub.Body)
	}
	if f.read("Ideas.md") != "Ask [[Alice Martin]].\n" {
		t.Errorf("links: %q", f.read("Ideas.md"))
	}
	if id, _ := f.v.ByEmail("am@work.io"); id != "V-7" {
		t.Errorf("the source's address now resolves to %q", id)
	}
	_, _, err = f.v.Merge(t.Context(), "V-7", wire.PageMerge{IntoID: "V-1"})
	wantBadRequest(t, err, "intoId")
	if id, err := f.v.EnsureID(t.Context(), "people/A. Martin.md"); err != nil || id != "V-7" {
		t.Errorf("a link to the stub goes to the merged page: %s %v", id, err)
	}
}

func TestSyncCasesWritesOnlyPagesThatDiffer(t *testing.T) {
	f := open(t, map[string]string{
		"people/A.md": "---\nid: V-1\ntype: person\ncases: [CASE-1]\n---\n",
		"people/B.md": "---\nid: V-2\ntype: person\ncases: [CASE-9]\n---\n",
		"people/C.md": "---\nid: V-3\ntype: person\n---\n",
		"people/D.md": "---\ntype: person\ncases: [mine]\n---\n", // no id: nothing links it, and its key is the person's
	})
	before := f.tree()
	doc := &wire.Doc{Cases: wire.ListOf([]*wire.Case{
		{ID: "CASE-10", VaultLinks: []string{"V-3"}},
		{ID: "CASE-1", VaultLinks: []string{"V-1", "V-3"}},
	}...)}
	if err := f.v.SyncCases(t.Context(), doc); err != nil {
		t.Fatal(err)
	}
	after := f.tree()
	if after["people/A.md"] != before["people/A.md"] || after["people/D.md"] != before["people/D.md"] {
		t.Error("a page already in line was written")
	}
	if got := f.get("V-2").Cases; len(got) != 0 {
		t.Errorf("a case the store does not link stays: %v", got)
	}
	if got := f.get("V-3").Cases; !slices.Equal(got, []string{"CASE-1", "CASE-10"}) {
		t.Errorf("V-3 cases = %v", got)
	}
	if err := f.v.SyncCases(t.Context(), doc, "V-1"); err != nil {
		t.Fatal(err)
	}
}

func TestMergeDryRunListsFilesAndWritesNothing(t *testing.T) {
	f := open(t, obsidian)
	before := f.tree()
	_, files, err := f.v.Merge(t.Context(), "people/bob.md", wire.PageMerge{IntoID: "V-7", DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"people/Alice Martin.md", "people/bob.md"}, files); diff != "" {
		t.Errorf("files (-want +got)\n%s", diff)
	}
	if diff := cmp.Diff(before, f.tree()); diff != "" {
		t.Errorf("a dry run wrote (-before +after)\n%s", diff)
	}
	if len(f.board.relinked) != 0 || f.board.minted != 0 {
		t.Errorf("a dry run reached the store: relinked %v, minted %d", f.board.relinked, f.board.minted)
	}
}

func TestWritesTellTheBoard(t *testing.T) {
	f := open(t, obsidian)
	count := func() int { f.mu.Lock(); defer f.mu.Unlock(); return f.changes }
	start := count()
	if _, _, err := f.v.Create(t.Context(), wire.PageCreate{Title: "Gus", Type: wire.PageTopic}); err != nil {
		t.Fatal(err)
	}
	if count() == start {
		t.Error("a create did not call OnChange")
	}
	start = count()
	if _, _, err := f.v.Patch(t.Context(), "V-7", wire.PagePatch{Append: "x"}); err != nil {
		t.Fatal(err)
	}
	if count() == start {
		t.Error("a patch did not call OnChange")
	}
}

func TestSuggestByDisplayName(t *testing.T) {
	f := open(t, obsidian)
	for _, tc := range []struct {
		name string
		want []wire.PageSuggestion
	}{
		{"Alice Martin", []wire.PageSuggestion{{ID: "V-7", Reason: "title is the name"}}},
		{"  ali ", []wire.PageSuggestion{{ID: "V-7", Reason: "alias Ali is the name"}}},
		{"Bob", []wire.PageSuggestion{{ID: "people/bob.md", Reason: "title matches the name"}}},
		{"Zed", nil},
		{"", nil},
	} {
		if diff := cmp.Diff(tc.want, f.v.Suggest(tc.name)); diff != "" {
			t.Errorf("Suggest(%q) (-want +got)\n%s", tc.name, diff)
		}
	}
}
