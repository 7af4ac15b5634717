package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/opsboard/opsboard/shared/client/clienttest"
)

// vaultDir is the world board's vault: the default folder beside its data
// file, where a person's hand-made pages (Obsidian's) live too.
func (w *world) vaultDir() string {
	return filepath.Join(filepath.Dir(w.board.Data), "vault")
}

// handPage writes a page as a person would, outside the board, and waits
// until find_entity sees it (the board's watcher re-reads within 2 s).
func handPage(t *testing.T, w *world, rel, text, findBy string) {
	t.Helper()
	path := filepath.Join(w.vaultDir(), filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		if out, _ := w.s.Call(t, "find_entity", map[string]any{"query": findBy}); strings.Contains(out, rel) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the board did not pick up the hand-made page %s\nboard logs:\n%s", rel, w.board.Logs())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// vaultFamily drives the vault tools against the world's board: a sender
// of linked mail, unresolved, gets a page and its address; a case and a
// page are linked both ways (also through a hand-made page given by path);
// a timeline line, a rename with [[links]] rewritten, and a merge whose
// stub find_entity sees through.
func vaultFamily(t *testing.T, w *world) {
	movers, desks := w.ids["movers"], w.ids["desks"]
	w.ok(t, "list_unresolved_senders", nil, "quotes@movers.example", "resolve one")
	w.ok(t, "find_entity", map[string]any{"query": "quotes@movers.example"}, "No vault page matches")

	org := clienttest.FirstID(t, w.ok(t, "create_page", map[string]any{"title": "Movers Ltd", "type": "organization", "domains": []any{"movers.example"}},
		"Created V-", "[organization] Movers Ltd - organizations/Movers Ltd.md"), "V")
	person := clienttest.FirstID(t, w.ok(t, "create_page", map[string]any{"title": "Quinn Mover", "type": "person", "aliases": []any{"Quinn"}},
		"Created V-", "[person] Quinn Mover - people/Quinn Mover.md"), "V")
	w.ok(t, "create_page", map[string]any{"title": "quinn mover", "type": "person"}, "Already existed, nothing created", person, "update_page "+person)
	w.s.Refused(t, "create_page", map[string]any{"title": "a/b", "type": "person"}, "title")
	w.s.Refused(t, "create_page", map[string]any{"title": "Sam", "type": "people"}, "argument type must be one of person, organization, project, topic")

	// A page from mail the guard did not screen clean waits for the person.
	d := w.caseOf(t, movers)
	if len(d.Messages) == 0 || d.Messages[0].Scan == "clean" {
		t.Fatalf("%s has no unscreened message to make a page from: %+v", movers, d.Messages)
	}
	w.ok(t, "create_page", map[string]any{"title": "Quote Desk", "type": "organization", "fromMessage": d.Messages[0].ID},
		"Not created: "+d.Messages[0].ID+" was not screened clean", "filed for the person's approval: PROP-")
	w.ok(t, "find_entity", map[string]any{"query": "Quote Desk"}, "No vault page matches")
	w.s.Refused(t, "create_page", map[string]any{"title": "Quote Desk", "type": "organization", "fromMessage": "M-999"}, "fromMessage", "M-999")

	// Attaching the address resolves the sender's past mail.
	w.ok(t, "update_page", map[string]any{"id": person, "emails": []any{"quotes@movers.example"}}, "Updated (emails) "+person)
	w.s.Refused(t, "update_page", map[string]any{"id": person}, "nothing to update")
	if out := w.ok(t, "list_unresolved_senders", nil); strings.Contains(out, "quotes@movers.example") {
		t.Errorf("an attached address is still unresolved:\n%s", out)
	}
	w.ok(t, "find_entity", map[string]any{"query": "Quinn <quotes@movers.example>"},
		"Best: "+person+" - [person] Quinn Mover", "Why: its emails hold quotes@movers.example", "Ambiguous: no",
		"Weaker matches:", org+" - [organization] Movers Ltd", "its domains hold movers.example")
	w.ok(t, "find_entity", map[string]any{"query": "someone@movers.example"}, "Best: "+org, "its domains hold movers.example")
	w.ok(t, "find_entity", map[string]any{"query": "quinn", "type": "person"}, "Best: "+person, `it has the alias "Quinn"`, "Ambiguous: no")
	w.ok(t, "get_page", map[string]any{"id": person}, person+" - [person] Quinn Mover", "Emails: quotes@movers.example", "Linked from: messages M-")

	// Both ways: the case's vaultLinks and the page's cases.
	w.ok(t, "link_page", map[string]any{"caseId": movers, "pageId": person}, "Linked "+movers+" and "+person+" (Quinn Mover)")
	w.ok(t, "link_page", map[string]any{"caseId": movers, "pageId": person}, "already links "+person, "nothing changed")
	if d := w.caseOf(t, movers); !slices.Contains(d.Case.VaultLinks, person) {
		t.Errorf("link_page: %s vaultLinks %v, want %s", movers, d.Case.VaultLinks, person)
	}
	w.ok(t, "get_page", map[string]any{"id": person}, "Cases: "+movers, "Linked from: cases "+movers)
	w.s.Refused(t, "link_page", map[string]any{"caseId": movers, "pageId": "V-999"}, "V-999")

	handPageFamily(t, w, desks)
	renameAndMerge(t, w, person)

	w.ok(t, "link_page", map[string]any{"caseId": movers, "pageId": person, "remove": true}, "Unlinked "+movers+" and "+person)
	if d := w.caseOf(t, movers); slices.Contains(d.Case.VaultLinks, person) {
		t.Errorf("link_page remove: %s still links %s", movers, person)
	}
	w.s.Refused(t, "get_page", map[string]any{"id": "V-999"}, "no vault page V-999")
}

// handPageFamily: a page the person wrote in the vault (no id, a property
// of their own) is read by its path, and linking it by path mints its id,
// which is what the case keeps.
func handPageFamily(t *testing.T, w *world, desks string) {
	rel := "people/Sam Hand.md"
	handPage(t, w, rel, "---\ntype: person\naliases: [Sammy]\nrole: CFO\n---\nMet at the fair. Knows [[Quinn Mover]].\n", "Sammy")
	w.ok(t, "get_page", map[string]any{"id": rel}, "[person] Sam Hand - "+rel, "Aliases: Sammy", "Properties: role=CFO", "Body:\nMet at the fair.")
	out := w.ok(t, "link_page", map[string]any{"caseId": desks, "pageId": rel}, "Linked "+desks+" and V-", "(Sam Hand)")
	sam := clienttest.FirstID(t, out, "V")
	if d := w.caseOf(t, desks); !slices.Equal(d.Case.VaultLinks, []string{sam}) {
		t.Errorf("linking by path: %s vaultLinks %v, want [%s]", desks, d.Case.VaultLinks, sam)
	}
	w.ok(t, "find_entity", map[string]any{"query": "sammy"}, "Best: "+sam+" - [person] Sam Hand", "Cases: "+desks)
	w.ids["sam"] = sam
}

// renameAndMerge: a rename lists, then rewrites, the page linking the old
// title; a timeline line lands under the heading; a duplicate merges in,
// and find_entity follows its stub to the page kept.
func renameAndMerge(t *testing.T, w *world, person string) {
	w.ok(t, "update_page", map[string]any{"id": person, "append": "Sent the quote"}, "Updated (append) "+person)
	w.ok(t, "get_page", map[string]any{"id": person}, "## Timeline", "Sent the quote")
	w.ok(t, "update_page", map[string]any{"id": person, "title": "Quinn Movers", "dryRun": true}, "Dry run, nothing changed", "people/Sam Hand.md")
	w.ok(t, "get_page", map[string]any{"id": person}, "[person] Quinn Mover - people/Quinn Mover.md")
	w.ok(t, "update_page", map[string]any{"id": person, "title": "Quinn Movers"}, "Updated (title) "+person+" - [person] Quinn Movers - people/Quinn Movers.md", "people/Sam Hand.md")
	if b, err := os.ReadFile(filepath.Join(w.vaultDir(), "people", "Sam Hand.md")); err != nil || !strings.Contains(string(b), "[[Quinn Movers]]") {
		t.Errorf("the rename did not rewrite the link (%v):\n%s", err, b)
	}

	dup := clienttest.FirstID(t, w.ok(t, "create_page", map[string]any{"title": "Q. Mover", "type": "person", "emails": []any{"quinn@home.example"}}, "Created"), "V")
	w.ok(t, "merge_pages", map[string]any{"sourceId": dup, "intoId": person, "dryRun": true}, "Dry run, nothing changed")
	w.ok(t, "find_entity", map[string]any{"query": "quinn@home.example"}, "Best: "+dup)
	w.s.Refused(t, "merge_pages", map[string]any{"sourceId": person, "intoId": person}, "cannot merge into itself")
	w.ok(t, "merge_pages", map[string]any{"sourceId": dup, "intoId": person}, "Merged "+dup+" into "+person+" - [person] Quinn Movers")
	w.ok(t, "find_entity", map[string]any{"query": "quinn@home.example"}, "Best: "+person, "Ambiguous: no")
	w.ok(t, "find_entity", map[string]any{"query": "Q. Mover"}, "Best: "+person, "(on "+dup+", merged into this page)", "Ambiguous: no")
	w.ok(t, "get_page", map[string]any{"id": dup}, "Merged into "+person+": use "+person)
}

// obsidianVault is a vault as a person keeps it in Obsidian: the app's dot
// folder (with a note that is not a page), a note with no frontmatter, one
// whose frontmatter does not parse, a person with an id of their own and an
// organisation in a folder whose name has a space.
var obsidianVault = map[string]string{
	".obsidian/app.json":                `{"theme":"dark"}`,
	".obsidian/Hidden note.md":          "---\ntype: person\n---\nNot a page.\n",
	"Notes/Plain note.md":               "Just text, no frontmatter.\n",
	"people/Broken.md":                  "---\ntype: person\naliases: [unclosed\n---\nBody.\n",
	"people/Alice Martin.md":            "---\nid: alice-123\ntype: person\nemails: [Alice@Acme.test]\nrole: CFO\n---\nLikes [[Acme Corp]].\n",
	"Clients and partners/Acme Corp.md": "---\ntype: organization\ndomains: [acme.test]\n---\n",
}

// TestVaultReadsInTheDefaultSet: find_entity and get_page are served by
// default, and over an Obsidian vault they find people and organisations,
// show the broken page as broken, never list the dot folder, refuse a path
// out of the vault, and leave every file byte-identical.
func TestVaultReadsInTheDefaultSet(t *testing.T) {
	dir := t.TempDir()
	for rel, text := range obsidianVault {
		path := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	board := clienttest.StartBoardEnv(t, "SVC_VAULT_DIR="+dir)
	bin := clienttest.Build(t, ".", ".")
	s := clienttest.StartSessionWith(t, bin, []string{"CRM_BASE_URL=" + board.URL}, server)

	deadline := time.Now().Add(10 * time.Second)
	for { // the first scan runs in the background; until it ends the vault says it is loading
		out, isErr := s.Call(t, "find_entity", map[string]any{"query": "alice@acme.test"})
		if !isErr {
			break
		}
		if !strings.Contains(out, "loading") || time.Now().After(deadline) {
			t.Fatalf("find_entity: %s\nboard logs:\n%s", out, board.Logs())
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.OK(t, "find_entity", map[string]any{"query": "Alice <ALICE@acme.test>"}, "Best: ", "[person] Alice Martin - people/Alice Martin.md",
		"Why: its emails hold alice@acme.test", "Ambiguous: no", "Weaker matches:", "[organization] Acme Corp", "its domains hold acme.test")
	s.OK(t, "find_entity", map[string]any{"query": "bob@acme.test"}, "[organization] Acme Corp - Clients and partners/Acme Corp.md", "its domains hold acme.test")
	s.OK(t, "find_entity", map[string]any{"query": "plain note"}, "[no type] Plain note - Notes/Plain note.md", `its title is "Plain note"`)
	s.OK(t, "find_entity", map[string]any{"query": "Broken"}, "people/Broken.md - BROKEN: ")
	s.OK(t, "find_entity", map[string]any{"query": "Hidden note"}, "No vault page matches")
	s.OK(t, "get_page", map[string]any{"id": "people/Alice Martin.md"}, "[person] Alice Martin", "Emails: alice@acme.test", "Properties: role=CFO", "Likes [[Acme Corp]].")
	s.OK(t, "get_page", map[string]any{"id": "Notes/Plain note.md"}, "Body:\nJust text, no frontmatter.")
	s.Refused(t, "get_page", map[string]any{"id": "../board.json"}, "no vault page")
	s.Refused(t, "get_page", map[string]any{"id": ".obsidian/Hidden note.md"}, "no vault page")
	if _, _, err := s.Try(clienttest.Context(t), "create_page", map[string]any{"title": "x", "type": "person"}); err == nil {
		t.Error("create_page is served by default; it belongs to the vault set")
	}

	for rel, text := range obsidianVault {
		if b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel))); err != nil || string(b) != text {
			t.Errorf("reading the vault changed %s (%v):\n%s", rel, err, b)
		}
	}
}
