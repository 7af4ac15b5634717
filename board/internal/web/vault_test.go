package web

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/opsboard/opsboard/board/internal/testkit"
	"github.com/opsboard/opsboard/shared/wire"
)

// vaultDir is the board's vault folder: vault/ beside its document, as the
// daemon keeps it.
func (b *board) vaultDir() string { return filepath.Join(filepath.Dir(b.Path), "vault") }

// writePage writes a page into the board's vault folder as a person (or
// Obsidian) would, and waits until the board lists it.
func (b *board) writePage(rel, text string) {
	b.t.Helper()
	path := filepath.Join(b.vaultDir(), filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		b.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		b.t.Fatal(err)
	}
	testkit.Eventually(b.t, "the board to list "+rel, func() bool { return b.pageAt(rel) != nil })
}

// pageAt is the vault's summary of the page at a path, or nil.
func (b *board) pageAt(rel string) *wire.PageSummary {
	b.t.Helper()
	out, code, err := b.try("GET", "/api/vault?limit=500", nil, false)
	if err != nil || code != 200 {
		return nil
	}
	list, _ := out["pages"].([]any)
	for _, x := range list {
		m, _ := x.(map[string]any)
		if m["path"] == rel {
			return &wire.PageSummary{ID: str(m, "id"), Path: rel, Title: str(m, "title"), Emails: strs(m["emails"]), Cases: strs(m["cases"])}
		}
	}
	return nil
}

// page reads one page whole through the API.
func (b *board) page(idOrPath string) wire.Page {
	b.t.Helper()
	var out struct {
		Page wire.Page `json:"page"`
	}
	b.decode("/api/vault/pages/"+url.PathEscape(idOrPath), &out)
	return out.Page
}

func strs(v any) []string {
	var out []string
	for _, x := range asSlice(v) {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}

// people writes a small vault: a person with an address, an organisation
// whose body links her, and a note written without frontmatter.
func people(b *board) {
	b.writePage("people/Ada Lovelace.md", "---\ntype: person\nemails: [ada@example.com]\naliases: [Countess]\n---\n# About\n\nWrites the notes on the **engine**.\n")
	b.writePage("organizations/Analytical Engines.md", "---\ntype: organization\ndomains: [engines.example]\n---\nFounded with [[Ada Lovelace]].\n")
	b.writePage("Loose note.md", "Just a thought.\n")
}

// clickText clicks the first element matching sel whose text is text.
func (tb *tab) clickText(sel, text string) {
	tb.t.Helper()
	tb.waitFor("a "+sel+" reading "+text, fmt.Sprintf(`[...document.querySelectorAll(%q)].some(e => e.textContent.trim() === %q)`, sel, text))
	tb.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`[...document.querySelectorAll(%q)].find(e => e.textContent.trim() === %q).click()`, sel, text)))
}

// pick chooses an option of a select as a person would, firing change.
func (tb *tab) pick(sel, value string) {
	tb.t.Helper()
	tb.waitFor("the option "+value+" in "+sel, fmt.Sprintf(`!!document.querySelector(%q) && [...document.querySelector(%q).options].some(o => o.value === %q)`, sel, sel, value))
	tb.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => { const s = document.querySelector(%q); s.value = %q; s.dispatchEvent(new Event('change', {bubbles: true})); })()`, sel, value)))
}

func TestPeopleViewGroupsAndSearches(t *testing.T) {
	b := startBoard(t)
	people(b)
	tb := newTab(t, 1280, 860)
	tb.open(b.URL + "/vault")
	tb.waitFor("the groups", `[...document.querySelectorAll('.vault-group h2')].map(h => h.firstChild.textContent.trim()).join('|') === 'People|Organizations|Without a type'`)
	tb.waitFor("the rows", `[...document.querySelectorAll('.vault-title')].map(e => e.textContent).join('|') === 'Ada Lovelace|Analytical Engines|Loose note'`)
	var active string
	tb.eval(`document.querySelector('.nav-item[aria-current=page]').textContent.trim()`, &active)
	if active != "People" {
		t.Errorf("the sidebar marks %q, want People", active)
	}
	tb.shot("people")
	if bad := tb.unlabeled(); len(bad) > 0 {
		t.Errorf("controls without an accessible name:\n  %s", strings.Join(bad, "\n  "))
	}

	tb.click(`input[aria-label="Search pages"]`)

	tb.do(chromedp.KeyEvent("countess"))
	tb.waitFor("the search in the address", `new URLSearchParams(location.search).get('q') === 'countess'`)
	tb.waitFor("only Ada", `[...document.querySelectorAll('.vault-title')].map(e => e.textContent).join('|') === 'Ada Lovelace'`)

	// A page written by hand while the view is open shows up by itself.
	b.writePage("topics/Difference engine.md", "---\ntype: topic\n---\n")
	tb.open(b.URL + "/vault")
	tb.waitFor("the topic", `[...document.querySelectorAll('.vault-title')].some(e => e.textContent === 'Difference engine')`)
	tb.do(chromedp.Evaluate[chromedp.Void](`window.__sameDocument = true`))
	b.writePage("topics/Jacquard loom.md", "---\ntype: topic\n---\n")
	tb.waitFor("the hand-written page, live", `[...document.querySelectorAll('.vault-title')].some(e => e.textContent === 'Jacquard loom')`)
	var same bool
	tb.eval(`window.__sameDocument === true`, &same)
	if !same {
		t.Error("the page reloaded; it should have refetched in place")
	}
	tb.noProblems("people")
}

func TestUnresolvedSenderAttachAndNewPage(t *testing.T) {
	b := startBoard(t)
	people(b)
	b.call("POST", "/api/messages", map[string]any{"from": "Charles Babbage <charles@babbage.example>", "subject": "The engine plans"}, true)
	b.call("POST", "/api/messages", map[string]any{"from": "Grace Hopper <grace@navy.example>", "subject": "Compilers"}, true)
	ada := b.pageAt("people/Ada Lovelace.md")
	tb := newTab(t, 1280, 860)
	tb.open(b.URL + "/vault")
	tb.waitFor("the senders", `document.querySelectorAll('[data-sender]').length === 2`)
	tb.shot("people-senders")

	// Attach Charles's address to Ada's page.
	tb.click(`button[aria-label="Attach to a page: charles@babbage.example"]`)
	key := ada.ID
	if key == "" {
		key = ada.Path
	}
	tb.pick(`.modal select[aria-label="Page"]`, key)
	tb.clickText(".modal-foot button", "Attach")
	testkit.Eventually(t, "the address on Ada's page", func() bool {
		return slices.Contains(b.page("people/Ada Lovelace.md").Emails, "charles@babbage.example")
	})
	tb.waitFor("the sender gone from the list", `!document.querySelector('[data-sender="charles@babbage.example"]')`)

	// Make a page of Grace: the dialog starts from her name and address.
	tb.click(`button[aria-label="New page: grace@navy.example"]`)
	tb.waitFor("the dialog, filled in", `document.querySelector('#newpage-form input[required]').value === 'Grace Hopper'`)
	tb.clickText(".modal-foot button", "Make the page")
	testkit.Eventually(t, "Grace's page", func() bool {
		p := b.pageAt("people/Grace Hopper.md")
		return p != nil && slices.Contains(p.Emails, "grace@navy.example")
	})
	tb.waitFor("her panel", `location.pathname.startsWith('/vault/') && (document.querySelector('#panel-title') || {}).textContent === 'Grace Hopper'`)
	tb.noProblems("senders")
}

func TestPagePanel(t *testing.T) {
	b := startBoard(t)
	people(b)
	msg := b.call("POST", "/api/messages", map[string]any{"from": "Ada Lovelace <ada@example.com>", "subject": "Note G", "body": "The algorithm."}, true)
	if ents := strs(asMap(msg["message"])["entities"]); len(ents) != 1 {
		t.Fatalf("the message resolved to %v, want Ada's page", ents)
	}
	adaID := strs(asMap(msg["message"])["entities"])[0]
	caseID := str(b.call("POST", "/api/cases", map[string]any{"title": "Publish the notes", "vaultLinks": []string{adaID}}, false), "case", "id")

	tb := newTab(t, 1280, 860)
	tb.open(b.URL + "/vault/" + url.PathEscape(adaID))
	tb.waitFor("the panel", `(document.querySelector('#panel-title') || {}).textContent === 'Ada Lovelace'`)
	tb.waitFor("the properties", `[...document.querySelectorAll('.page-panel dd')].some(d => d.textContent === 'ada@example.com')`)
	tb.waitFor("the rendered body", `!!document.querySelector('.page-html h1') && document.querySelector('.page-html strong').textContent === 'engine'`)
	tb.waitFor("the linked case", `[...document.querySelectorAll('[aria-labelledby=h-page-cases] button')].some(e => e.textContent.includes('Publish the notes'))`)
	tb.waitFor("the mail", `[...document.querySelectorAll('[aria-labelledby=h-page-mail] a')].some(e => e.textContent.includes('Note G'))`)
	tb.waitFor("the backlink", `[...document.querySelectorAll('[aria-labelledby=h-page-links] a')].some(e => e.textContent.includes('Analytical Engines'))`)
	tb.shot("page-panel")
	if bad := tb.unlabeled(); len(bad) > 0 {
		t.Errorf("controls without an accessible name:\n  %s", strings.Join(bad, "\n  "))
	}

	// The case opens in the drawer over the panel.
	tb.clickText("[aria-labelledby=h-page-cases] button", "Publish the notes")
	tb.waitFor("the drawer", fmt.Sprintf(`location.search.includes('case=%s') && !!document.querySelector('.drawer')`, caseID))
	tb.do(chromedp.KeyEvent(kb.Escape))
	tb.waitFor("the drawer closed", `!document.querySelector('.drawer')`)

	// A line added to the timeline lands in the file.
	tb.click(`input[aria-label="Add to the timeline"]`)
	tb.do(chromedp.KeyEvent("Sent the notes to Babbage" + kb.Enter))
	testkit.Eventually(t, "the timeline line in the file", func() bool {
		data, _ := os.ReadFile(filepath.Join(b.vaultDir(), "people", "Ada Lovelace.md"))
		return strings.Contains(string(data), "## Timeline") && strings.Contains(string(data), "Sent the notes to Babbage")
	})
	tb.waitFor("the line on the panel", `document.querySelector('.page-html').textContent.includes('Sent the notes to Babbage')`)

	// A hand edit of the file shows without a reload.
	path := filepath.Join(b.vaultDir(), "people", "Ada Lovelace.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), "Writes the notes", "Wrote the first program", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	tb.waitFor("the hand edit", `document.querySelector('.page-html').textContent.includes('Wrote the first program')`)

	// A [[link]] in a page's body opens the page it names.
	tb.open(b.URL + "/vault/" + url.PathEscape("organizations/Analytical Engines.md"))
	tb.waitFor("the organisation", `(document.querySelector('#panel-title') || {}).textContent === 'Analytical Engines'`)
	tb.do(chromedp.Evaluate[chromedp.Void](`window.__sameDocument = true`))
	tb.click(`.page-html a`)
	tb.waitFor("Ada's panel through the link", `(document.querySelector('#panel-title') || {}).textContent === 'Ada Lovelace' && window.__sameDocument === true`)

	// A page that does not exist says so; an address outside the board is still the not-found page.
	tb.open(b.URL + "/vault/" + url.PathEscape("people/Nobody.md"))
	tb.waitFor("the problem", `!!document.querySelector('.page-panel .problem')`)
	tb.do(chromedp.Navigate(b.URL + "/nowhere"))
	tb.waitFor("the not-found page", `(document.querySelector('main h1') || {}).textContent === 'Nothing here'`)
	tb.noProblems("page panel", "404 (Not Found)")
}

func TestDrawerLinkedPagesAndInboxNames(t *testing.T) {
	b := startBoard(t)
	people(b)
	msg := b.call("POST", "/api/messages", map[string]any{"from": "Ada Lovelace <ada@example.com>", "subject": "About the engine"}, true)
	adaID := strs(asMap(msg["message"])["entities"])[0]
	org := b.page("organizations/Analytical Engines.md")
	id := str(b.call("POST", "/api/cases", map[string]any{"title": "Fund the engine"}, false), "case", "id")
	links := func() []string {
		var out struct {
			Case wire.Case `json:"case"`
		}
		b.decode("/api/cases/"+id, &out)
		return out.Case.VaultLinks
	}

	tb := newTab(t, 1280, 860)
	tb.open(b.URL + "/board?case=" + id)
	tb.waitFor("the linked pages", `!!document.querySelector('[aria-labelledby=h-pages]')`)
	tb.pick(`select[aria-label="Link a page"]`, adaID)
	testkit.Eventually(t, "Ada linked", func() bool { return slices.Equal(links(), []string{adaID}) })
	testkit.Eventually(t, "the case on Ada's page", func() bool { return slices.Contains(b.page(adaID).Cases, id) })
	tb.waitFor("Ada in the drawer", `[...document.querySelectorAll('[aria-labelledby=h-pages] a')].some(a => a.textContent === 'Ada Lovelace')`)

	// A page without an id yet is linked by its path; the board mints one.
	key := org.ID
	if key == "" {
		key = org.Path
	}
	tb.pick(`select[aria-label="Link a page"]`, key)
	testkit.Eventually(t, "two links, ids only", func() bool {
		l := links()
		return len(l) == 2 && strings.HasPrefix(l[1], "V-")
	})
	tb.waitFor("the organisation in the drawer", `[...document.querySelectorAll('[aria-labelledby=h-pages] a')].some(a => a.textContent === 'Analytical Engines')`)
	tb.shot("drawer-pages")

	tb.click(`button[aria-label="Unlink Ada Lovelace"]`)
	testkit.Eventually(t, "Ada unlinked", func() bool { return !slices.Contains(links(), adaID) })
	testkit.Eventually(t, "the case off Ada's page", func() bool { return !slices.Contains(b.page(adaID).Cases, id) })
	tb.noProblems("drawer pages")

	// The Inbox row names the sender's page; the reader links it.
	tb.open(b.URL + "/inbox")
	tb.waitFor("the page name on the row", `(document.querySelector('.inbox-row [data-page-name]') || {}).textContent === 'Ada Lovelace'`)
	tb.clickText(".inbox-subject", "About the engine")
	tb.waitFor("the page link in the reader", fmt.Sprintf(`(document.querySelector('.message-pages a') || {}).getAttribute?.('href') === %q`, "/vault/"+url.PathEscape(adaID)))
	tb.click(`.message-pages a`)
	tb.waitFor("Ada's panel", `(document.querySelector('#panel-title') || {}).textContent === 'Ada Lovelace'`)
	tb.noProblems("inbox names")
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}
