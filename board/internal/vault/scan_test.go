package vault

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/shared/wire"
)

// obsidian is a vault as a person keeps it in Obsidian: its settings and
// trash, notes without frontmatter, a broken page, a folder with a space.
var obsidian = map[string]string{
	".obsidian/app.json":         `{"legacyEditor": false}`,
	".obsidian/plugins/x/a.md":   "---\ntype: person\n---\nnot a page\n",
	".trash/Old Note.md":         "deleted\n",
	"Ideas.md":                   "Just a note, no frontmatter.\n\nSee [[Alice Martin]].\n",
	"people/Alice Martin.md":     "---\nid: V-7\ntype: person\naliases: [Ali]\nemails: [Alice@Example.com]\nmood: sunny # kept\n---\nAlice runs ops at [[Acme Corp]].\n",
	"people/bob.md":              "---\nid: bob-from-crm\ntype: person\ntitle: Bob Stone\nemails: [bob@stone.dev]\n---\nBob.\n",
	"Client Work/Acme Corp.md":   "---\ntype: organization\ndomains: [acme.com]\n---\n# Acme\n",
	"Client Work/Broken page.md": "---\ntype: person\nemails: [unclosed\n---\nbody\n",
	"topics/Hiring.md":           "---\ntype: other\n---\nno known type\n",
	"attachments/photo.png":      "\x89PNG",
}

func TestScanReadsAnObsidianVaultAndWritesNothing(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "Secret.md"), []byte("---\ntype: person\n---\nsecret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	f := &fixture{t: t, dir: dir}
	for p, b := range obsidian {
		f.write(p, b)
	}
	// Symlinks out of the vault, to a folder and to a file: never followed.
	if err := os.Symlink(outside, filepath.Join(f.dir, "linked")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "Secret.md"), filepath.Join(f.dir, "Secret.md")); err != nil {
		t.Fatal(err)
	}
	before := f.tree()
	f = openAt(t, dir, nil)

	got := f.paths(f.list(Filter{Limit: 500}))
	want := []string{"Client Work/Acme Corp.md", "people/Alice Martin.md", "people/bob.md", "Client Work/Broken page.md", "topics/Hiring.md", "Ideas.md"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("listed pages, by title (-want +got)\n%s", diff)
	}
	if diff := cmp.Diff(before, f.tree()); diff != "" {
		t.Errorf("the scan changed files (-before +after)\n%s", diff)
	}
	if h := f.v.Health(); h != (wire.VaultHealth{Pages: 6, Broken: 1}) {
		t.Errorf("health = %+v", h)
	}
	bob := f.get("people/bob.md")
	if bob.ID != "" || bob.Title != "Bob Stone" || bob.Frontmatter["id"] != "bob-from-crm" {
		t.Errorf("a person's own id is kept and is not the board's: %+v", bob.PageSummary)
	}
	alice := f.get("V-7")
	if diff := cmp.Diff([]string{"alice@example.com"}, alice.Emails); diff != "" {
		t.Errorf("emails are lower-cased (-want +got)\n%s", diff)
	}
	if alice.Frontmatter["mood"] != "sunny" {
		t.Errorf("unknown keys are shown as written: %v", alice.Frontmatter)
	}
}

func TestListFiltersByType(t *testing.T) {
	f := open(t, obsidian)
	for _, tc := range []struct {
		typ  wire.PageType
		q    string
		want []string
	}{
		{wire.PagePerson, "", []string{"people/Alice Martin.md", "people/bob.md"}},
		{wire.PageOrganization, "", []string{"Client Work/Acme Corp.md"}},
		{wire.PageTopic, "", nil}, // "type: other" is no type
		{"", "ali", []string{"people/Alice Martin.md"}},
		{"", "stone.dev", []string{"people/bob.md"}},
		{"", "ACME.COM", []string{"Client Work/Acme Corp.md"}},
	} {
		if diff := cmp.Diff(tc.want, f.paths(f.list(Filter{Type: tc.typ, Q: tc.q}))); diff != "" {
			t.Errorf("type %q q %q (-want +got)\n%s", tc.typ, tc.q, diff)
		}
	}
}

func TestListPagesThroughCursors(t *testing.T) {
	files := map[string]string{}
	for i := range 250 {
		files[filepathOf(i)] = "---\ntype: topic\n---\n"
	}
	f := open(t, files)
	var seen []string
	cursor := ""
	for range 10 {
		got, next, err := f.v.List(Filter{Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		seen = append(seen, f.paths(got)...)
		if next == "" {
			break
		}
		cursor = next
	}
	if len(seen) != 250 {
		t.Fatalf("listed %d pages through cursors, want 250", len(seen))
	}
	for i := range seen {
		if seen[i] != filepathOf(i) {
			t.Fatalf("page %d is %s, want %s (by title, once each)", i, seen[i], filepathOf(i))
		}
	}
}

func filepathOf(i int) string { return fmt.Sprintf("topics/Topic %03d.md", i) }

func TestListRefusesBadInput(t *testing.T) {
	f := open(t, obsidian)
	for _, tc := range []struct {
		name  string
		f     Filter
		field string
	}{
		{"unknown type", Filter{Type: "people"}, "type"},
		{"foreign cursor", Filter{Cursor: "abc"}, "cursor"},
		{"limit over the cap", Filter{Limit: wire.MaxPageList + 1}, "limit"},
		{"negative limit", Filter{Limit: -1}, "limit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := f.v.List(tc.f)
			wantBadRequest(t, err, tc.field)
		})
	}
}

func TestReadsWaitForTheFirstScan(t *testing.T) {
	v := &Vault{idx: newIndex()} // not ready: the scan has not ended
	var un *errs.UnavailableError
	_, _, err := v.List(Filter{})
	if !errors.As(err, &un) {
		t.Errorf("List before the scan: %v, want 503", err)
	}
	if _, err := v.Get("V-1"); !errors.As(err, &un) {
		t.Errorf("Get before the scan: %v, want 503", err)
	}
	if !v.Health().Loading {
		t.Error("health says loading")
	}
}

func TestGetRefusesPathsLeavingTheVault(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "x.md")
	if err := os.WriteFile(secret, []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := open(t, obsidian)
	rel, _ := filepath.Rel(f.dir, secret)
	for _, p := range []string{"../x.md", filepath.ToSlash(rel), secret, "people/../../x.md", "./Ideas.md", ".obsidian/plugins/x/a.md", "people\\Alice Martin.md", "V-999", "Ideas"} {
		_, err := f.v.Get(p)
		if !errs.IsNotFound(err) {
			t.Errorf("Get(%q) = %v, want 404", p, err)
		}
	}
}

func TestAPageOverTheLimitIsListedNotRead(t *testing.T) {
	big := "---\ntype: person\n---\n" + strings.Repeat("x", wire.MaxPageBytes)
	f := open(t, map[string]string{"people/Big.md": big})
	got := f.list(Filter{})
	if len(got) != 1 || got[0].Broken == "" || got[0].Type != "" {
		t.Fatalf("the large page is listed as broken: %+v", got)
	}
	var tl *errs.TooLargeError
	if _, err := f.v.Get("people/Big.md"); !errors.As(err, &tl) {
		t.Errorf("Get of a large page = %v, want 413", err)
	}
	_, err := f.v.EnsureID(t.Context(), "people/Big.md")
	if !errors.As(err, &tl) {
		t.Errorf("EnsureID of a large page = %v, want 413", err)
	}
}

func TestGetRendersBodyAndBacklinks(t *testing.T) {
	f := open(t, obsidian)
	f.board.setDoc(&wire.Doc{
		Cases: wire.ListOf([]*wire.Case{{ID: "CASE-1", VaultLinks: []string{"V-7"}}, {ID: "CASE-2"}}...),
		Messages: wire.ListOf([]*wire.Message{
			{ID: "M-1", Entities: []string{"V-7"}, ReceivedAt: "2026-01-01T00:00:00Z"},
			{ID: "M-2", Entities: []string{"V-7"}, ReceivedAt: "2026-02-01T00:00:00Z"},
			{ID: "M-3"},
		}...),
	})
	alice := f.get("V-7")
	if body, err := f.v.Body("V-7"); err != nil || body != alice.Body {
		t.Errorf("Body = %q, %v; want the body Get answers, %q", body, err, alice.Body)
	}
	if _, err := f.v.Body("Nobody.md"); err == nil {
		t.Error("Body of a page that is not there answered")
	}
	want := wire.PageBacklinks{Cases: []string{"CASE-1"}, Messages: []string{"M-2", "M-1"}, Pages: []string{"Ideas.md"}}
	if diff := cmp.Diff(want, alice.Backlinks); diff != "" {
		t.Errorf("backlinks (-want +got)\n%s", diff)
	}
	if !strings.Contains(alice.HTML, `<a href="/vault/Client%20Work%2FAcme%20Corp.md">Acme Corp</a>`) {
		t.Errorf("a wikilink to a page without an id links its path: %s", alice.HTML)
	}
	f.write("Scratch.md", "Hi [[Ali|my friend]] and [[Nobody]]. <script>alert(1)</script> `[[Alice Martin]]`\n")
	eventually(t, 2*time.Second, "the new note is read", func() bool { _, err := f.v.Get("Scratch.md"); return err == nil })
	html := f.get("Scratch.md").HTML
	for _, want := range []string{`<a href="/vault/V-7">my friend</a>`, "Nobody", "<code>[[Alice Martin]]</code>"} {
		if !strings.Contains(html, want) {
			t.Errorf("html lacks %s: %s", want, html)
		}
	}
	if strings.Contains(html, "<script>") {
		t.Errorf("raw HTML is rendered: %s", html)
	}
}

// A YAML alias bomb in a page makes it broken, not a hang of the scan.
func TestAnAliasBombIsBroken(t *testing.T) {
	bomb := "---\na: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\nh: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\ntype: person\n---\nboom\n"
	f := open(t, map[string]string{"people/Bomb.md": bomb})
	got := f.list(Filter{})
	if len(got) != 1 || got[0].Broken == "" {
		t.Fatalf("the bomb is listed broken: %+v", got)
	}
	_, _, err := f.v.Patch(t.Context(), "people/Bomb.md", wire.PagePatch{Append: "x"})
	wantBadRequest(t, err, "broken")
}
