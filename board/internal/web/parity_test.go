package web

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/opsboard/opsboard/board/internal/testkit"
)

// labelByID is a label of the catalog, or nil.
func (b *board) labelByID(id string) map[string]any {
	b.t.Helper()
	list, _ := b.call("GET", "/api/labels", nil, false)["labels"].([]any)
	for _, x := range list {
		if l, _ := x.(map[string]any); l["id"] == id {
			return l
		}
	}
	return nil
}

// bundleInstalled reads a bundle's installed flag from the board.
func (b *board) bundleInstalled(id string) bool {
	b.t.Helper()
	list, _ := b.call("GET", "/api/labels/bundles", nil, false)["bundles"].([]any)
	for _, x := range list {
		if bl, _ := x.(map[string]any); bl["id"] == id {
			on, _ := bl["installed"].(bool)
			return on
		}
	}
	return false
}

// clear empties a field as a person's delete does, input event and all, so
// what is typed next replaces its text. A value set without the event left
// the page's own state at the old text, and a redraw in between (a live
// change landing late on a slow run) put the old text back.
func (tb *tab) clear(sel string) {
	tb.t.Helper()
	tb.eval(fmt.Sprintf(`(() => { const e = document.querySelector(%q); e.value = ''; e.dispatchEvent(new Event('input', {bubbles: true})); })()`, sel), nil)
}

// typeInto focuses a field and types text into it.
func (tb *tab) typeInto(sel, text string) {
	tb.t.Helper()
	tb.click(sel)
	tb.do(chromedp.KeyEvent(text))
}

func TestLabelCatalogManagement(t *testing.T) {
	b := startBoard(t)
	tb := newTab(t, 1280, 1000)
	tb.open(b.URL + "/board")
	tb.click(`a.nav-item[href="/labels"]`)
	tb.settle()
	tb.waitFor("the 37 bundles", `document.querySelectorAll('[data-bundle]').length === 37`)
	tb.waitFor("the universal bundle shown installed", `document.querySelector('[data-bundle="universal"] [data-bundle-count]').textContent.includes('11 of 11')`)
	if bad := tb.unlabeled(); len(bad) > 0 {
		t.Errorf("controls without a name:\n  %s", strings.Join(bad, "\n  "))
	}

	// A refused create shows the board's words.
	tb.click(`[data-new-label] button[type=submit]`)
	tb.waitFor("the refusal", `(document.querySelector('[data-new-label] [data-error]') || {}).textContent === "Field 'title' is required."`)

	// A custom label, created with a color and a description.
	tb.typeInto(`input[aria-label="New label title"]`, "Bug")
	tb.typeInto(`input[aria-label="New label description"]`, "An insect in the garden")
	tb.click(`[data-new-label] [data-color="green"]`)
	tb.click(`[data-new-label] button[type=submit]`)
	testkit.Eventually(t, "the custom label", func() bool { return b.labelByID("bug") != nil })
	if l := b.labelByID("bug"); l["color"] != "green" || l["description"] != "An insect in the garden" {
		t.Errorf("created label %v", l)
	}
	tb.waitFor("the label's row", `!!document.querySelector('[data-label="bug"]')`)

	// Installing a bundle that means something else by "bug" reports the
	// conflict and keeps the person's label.
	tb.click(`button[aria-label="Install Software engineering"]`)
	tb.waitFor("the conflict", `!!document.querySelector('[data-conflicts] [data-conflict="bug"]')`)
	var conflict string
	tb.eval(`document.querySelector('[data-conflict="bug"]').textContent`, &conflict)
	if !strings.Contains(conflict, "Bug") || !strings.Contains(conflict, "An insect in the garden") {
		t.Errorf("conflict text %q", conflict)
	}
	if l := b.labelByID("bug"); l["description"] != "An insect in the garden" {
		t.Errorf("the install replaced the person's label: %v", l)
	}
	if !b.bundleInstalled("software-engineering") || b.labelByID("incident") == nil {
		t.Fatal("bundle not installed")
	}
	tb.shot("labels-conflict")

	// Uninstall with the default scrub strips the bundle's labels from cases.
	c := b.call("POST", "/api/cases", map[string]any{"title": "Checkout outage", "labels": []string{"incident", "blocked"}}, false)
	id := str(c, "case", "id")
	tb.waitFor("the bundle's uninstall button", `!!document.querySelector('button[aria-label="Uninstall Software engineering"]')`)
	tb.click(`button[aria-label="Uninstall Software engineering"]`)
	tb.waitFor("the uninstall dialog", `!!document.querySelector('.modal .scrub-choice')`)
	tb.shot("labels-uninstall")
	tb.click(`.modal .btn-danger`)
	testkit.Eventually(t, "the bundle uninstalled", func() bool { return !b.bundleInstalled("software-engineering") })
	var got struct {
		Case struct{ Labels []string } `json:"case"`
	}
	b.decode("/api/cases/"+id, &got)
	if !slices.Equal(got.Case.Labels, []string{"blocked"}) {
		t.Errorf("labels after the scrubbing uninstall: %v, want [blocked]", got.Case.Labels)
	}
	if b.labelByID("incident") != nil || b.labelByID("bug") == nil {
		t.Error("uninstall removed the wrong labels")
	}

	// Uninstall keeping the ids on cases (scrub=0).
	b.call("POST", "/api/labels/bundles", map[string]any{"id": "sales"}, true)
	b.call("PATCH", "/api/cases/"+id, map[string]any{"labels": []string{"blocked", "prospect"}}, false)
	tb.waitFor("the sales uninstall button", `!!document.querySelector('button[aria-label="Uninstall Sales"]')`)
	tb.click(`button[aria-label="Uninstall Sales"]`)
	tb.waitFor("the uninstall dialog", `!!document.querySelector('.modal .scrub-choice')`)
	tb.click(`.modal .scrub-choice label:nth-of-type(2) input`)
	tb.click(`.modal .btn-danger`)
	testkit.Eventually(t, "sales uninstalled", func() bool { return !b.bundleInstalled("sales") })
	b.decode("/api/cases/"+id, &got)
	if !slices.Equal(got.Case.Labels, []string{"blocked", "prospect"}) || b.labelByID("prospect") != nil {
		t.Errorf("after uninstall keeping the ids: case labels %v, want [blocked prospect], the label gone from the catalog", got.Case.Labels)
	}
	b.call("PATCH", "/api/cases/"+id, map[string]any{"labels": []string{"blocked"}}, false)

	// Edit: an empty title is refused in the board's words, then a real edit.
	tb.waitFor("the edit button", `!!document.querySelector('button[aria-label="Edit label Bug"]')`)
	tb.click(`button[aria-label="Edit label Bug"]`)
	tb.clear(`input[aria-label="Title of label bug"]`)
	tb.typeInto(`input[aria-label="Title of label bug"]`, " ")
	tb.click(`.label-edit button[type=submit]`)
	tb.waitFor("the refused edit", `(document.querySelector('.label-edit [data-error]') || {}).textContent === "field 'title' cannot be empty"`)
	tb.clear(`input[aria-label="Title of label bug"]`)
	tb.typeInto(`input[aria-label="Title of label bug"]`, "Garden pest")
	tb.clear(`input[aria-label="Description of label bug"]`)
	tb.typeInto(`input[aria-label="Description of label bug"]`, "Slugs, aphids")
	tb.click(`.label-edit [data-color="violet"]`)
	tb.click(`.label-edit button[type=submit]`)
	testkit.Eventually(t, "the edit saved", func() bool {
		l := b.labelByID("bug")
		return l["title"] == "Garden pest" && l["color"] == "violet" && l["description"] == "Slugs, aphids"
	})

	// Delete, stripping it from the cases that carry it.
	b.call("PATCH", "/api/cases/"+id, map[string]any{"labels": []string{"blocked", "bug"}}, false)
	tb.waitFor("the delete button", `!!document.querySelector('button[aria-label="Delete label Garden pest"]')`)
	tb.click(`button[aria-label="Delete label Garden pest"]`)
	tb.waitFor("the delete dialog", `!!document.querySelector('.modal input[type=checkbox]:checked')`)
	tb.click(`.modal .btn-danger`)
	testkit.Eventually(t, "the label deleted", func() bool { return b.labelByID("bug") == nil })
	b.decode("/api/cases/"+id, &got)
	if !slices.Equal(got.Case.Labels, []string{"blocked"}) {
		t.Errorf("labels after the scrubbing delete: %v, want [blocked]", got.Case.Labels)
	}
	tb.waitFor("the row gone", `!document.querySelector('[data-label="bug"]')`)
	tb.noProblems("labels", "400", "Bad Request")
}

func TestFirstRunPanel(t *testing.T) {
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "mcp-board"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	b := &board{t: t, Path: filepath.Join(t.TempDir(), "board.json"), addr: "127.0.0.1:0", toolDir: bin}
	b.start()
	t.Cleanup(b.stop)
	tb := newTab(t, 1280, 1000)
	tb.open(b.URL + "/board")
	tb.waitFor("the welcome", `!!document.querySelector('.page-board [data-welcome] [data-connect]')`)
	var url, cfg, claude string
	tb.eval(`document.querySelector('[data-board-url]').textContent`, &url)
	if url != b.URL {
		t.Errorf("board address %q, want %q", url, b.URL)
	}
	tb.eval(`document.querySelector('[data-config]').textContent`, &cfg)
	for _, want := range []string{`"command": "` + filepath.Join(bin, "mcp-board") + `"`, `"CRM_BASE_URL": "` + b.URL + `"`, filepath.Join(bin, "mcp-calendar")} {
		if !strings.Contains(cfg, want) {
			t.Errorf("config lacks %s:\n%s", want, cfg)
		}
	}
	tb.eval(`document.querySelector('[data-claude]').textContent`, &claude)
	if want := "claude mcp add opsboard -e CRM_BASE_URL=" + b.URL + " -- " + filepath.Join(bin, "mcp-board"); !strings.Contains(claude, want) {
		t.Errorf("claude lines lack %q:\n%s", want, claude)
	}
	var missing bool
	tb.eval(`!document.querySelector('[data-server="mcp-board"] [data-missing]') && document.querySelector('[data-server="mcp-calendar"] [data-missing]').textContent.includes('make build')`, &missing)
	if !missing {
		t.Error("a server not built is not flagged with make build (or a built one is)")
	}
	if bad := tb.unlabeled(); len(bad) > 0 {
		t.Errorf("controls without a name:\n  %s", strings.Join(bad, "\n  "))
	}
	tb.shot("first-run")
	phone := newTab(t, 390, 844)
	phone.open(b.URL + "/board")
	phone.waitFor("the welcome on a phone", `!!document.querySelector('[data-welcome] [data-config]')`)
	phone.shot("phone-first-run")
	phone.noProblems("first run on a phone")

	b.call("POST", "/api/cases", map[string]any{"title": "Book the movers"}, true)
	tb.waitFor("the welcome gone once a case exists", `!!document.querySelector('[data-card]') && !document.querySelector('[data-welcome]')`)

	tb.click(`[data-help-welcome]`)
	tb.waitFor("the welcome reopened from the help", `!!document.querySelector('.modal [data-welcome] [data-config]')`)
	tb.eval(`document.querySelector('.modal [data-config]').textContent`, &cfg)
	if !strings.Contains(cfg, filepath.Join(bin, "mcp-board")) {
		t.Errorf("reopened config lacks the path:\n%s", cfg)
	}
	tb.noProblems("first run")
}

func TestContainersAreNotCards(t *testing.T) {
	b := startBoard(t)
	ini := str(b.call("POST", "/api/cases", map[string]any{"title": "Move to Lisbon", "kind": "initiative", "status": "in_progress"}, false), "case", "id")
	ws := str(b.call("POST", "/api/cases", map[string]any{"title": "Visa paperwork", "kind": "workstream", "parentId": ini, "status": "todo"}, false), "case", "id")
	c := str(b.call("POST", "/api/cases", map[string]any{"title": "Book the consulate slot", "parentId": ws, "status": "todo"}, false), "case", "id")
	loose := str(b.call("POST", "/api/cases", map[string]any{"title": "Renew the gym", "status": "todo"}, false), "case", "id")
	tb := newTab(t, 1280, 860)
	tb.open(b.URL + "/board")
	tb.waitFor("the cases", fmt.Sprintf(`!!document.querySelector(%q) && !!document.querySelector(%q)`, cardSel(c), cardSel(loose)))
	var containers float64
	tb.eval(fmt.Sprintf(`document.querySelectorAll(%q).length + document.querySelectorAll(%q).length`, cardSel(ini), cardSel(ws)), &containers)
	if containers != 0 {
		t.Errorf("%v containers drawn as cards in the lanes", containers)
	}
	var crumbs string
	tb.eval(fmt.Sprintf(`[...document.querySelector(%q).querySelectorAll('[data-crumbs] .crumb')].map((x) => x.textContent).join(' › ')`, cardSel(c)), &crumbs)
	if strings.TrimSpace(crumbs) != "Move to Lisbon › Visa paperwork" {
		t.Errorf("breadcrumb %q", crumbs)
	}
	tb.shot("containers-breadcrumb")

	// The scope picks a container: its cases stay, the others go.
	tb.eval(fmt.Sprintf(`(() => { const s = document.querySelector('select[data-scope]'); s.value = %q; s.dispatchEvent(new Event('change', { bubbles: true })); })()`, ws), nil)
	tb.waitFor("the scoped board", fmt.Sprintf(`location.search.includes('in=%s') && !!document.querySelector(%q) && !document.querySelector(%q)`, ws, cardSel(c), cardSel(loose)))
	tb.noProblems("containers")
}

func TestDueTimesInTheBoardZone(t *testing.T) {
	b := startBoard(t)
	// 20:00 UTC is 15:00 in New York in December; the browser runs in
	// another zone, so only the board's zone gives 15:00.
	b.call("PATCH", "/api/prefs", map[string]any{"timezone": "America/New_York"}, false)
	b.call("POST", "/api/reminders", map[string]any{"title": "Call the notary", "dueAt": "2031-12-02T20:00:00Z"}, false)
	b.call("POST", "/api/reminders", map[string]any{"title": "Renew the permit", "dueAt": "2031-12-03"}, false)
	lease := str(b.call("POST", "/api/cases", map[string]any{"title": "Sign the lease", "dueAt": "2031-12-04T09:30"}, false), "case", "id")
	b.call("POST", "/api/cases/"+lease+"/tasks", map[string]any{"title": "Send the deposit", "dueAt": "2031-12-03T20:00:00Z"}, false)
	tb := newTab(t, 1280, 860)
	tb.do(chromedp.Func(func(ctx context.Context, tt *chromedp.Target) error {
		_, err := cdp.Call(ctx, tt, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: "Asia/Tokyo"})
		return err
	}))
	tb.open(b.URL + "/reminders")
	due := func(title string) string {
		var s string
		tb.eval(fmt.Sprintf(`(() => { const r = [...document.querySelectorAll('.reminder')].find((x) => x.textContent.includes(%q)); const d = r && r.querySelector('[data-due]'); return d ? d.textContent.trim() : ''; })()`, title), &s)
		return s
	}
	tb.waitFor("the board's zone", `document.querySelectorAll('.reminder [data-due]').length === 2 && [...document.querySelectorAll('.reminder [data-due]')].some((d) => d.textContent.includes('15:00'))`)
	if got := due("Call the notary"); !strings.HasSuffix(got, "15:00") || !strings.Contains(got, "2") {
		t.Errorf("reminder due at 15:00 New York shows %q", got)
	}
	if got := due("Renew the permit"); strings.Contains(got, ":") {
		t.Errorf("a date-only reminder shows a time: %q", got)
	}
	// The editor shows the day and the time on the board's clock and keeps
	// the time through an edit.
	tb.click(`.reminder-title`)
	tb.waitFor("the editor", `!!document.querySelector('#reminder-form input[type=time]')`)
	var form string
	tb.eval(`document.querySelector('#reminder-form input[type=date]').value + ' ' + document.querySelector('#reminder-form input[type=time]').value`, &form)
	if form != "2031-12-02 15:00" {
		t.Errorf("the editor shows %q, want 2031-12-02 15:00", form)
	}
	tb.eval(`(() => { const i = document.querySelector('#reminder-form input[type=time]'); i.value = '16:30'; i.dispatchEvent(new Event('input', { bubbles: true })); })()`, nil)
	tb.click(`.modal-foot button[type=submit]`)
	tb.waitFor("the new time", `[...document.querySelectorAll('.reminder [data-due]')].some((d) => d.textContent.trim().endsWith('16:30'))`)
	tb.open(b.URL + "/board")
	var card string
	tb.waitFor("the case card", `!!document.querySelector('[data-card] [data-due]')`)
	tb.eval(`document.querySelector('[data-card] [data-due]').textContent.trim()`, &card)
	if !strings.HasSuffix(card, "09:30") {
		t.Errorf("a case due at 09:30 (board time) shows %q", card)
	}
	// A task keeps its time beside its day in the drawer.
	tb.open(b.URL + "/board?case=" + lease)
	tb.waitFor("the task's time", `!!document.querySelector('.drawer [data-task-time]')`)
	var task string
	tb.eval(`document.querySelector('.drawer [data-task-time]').textContent + ' ' + document.querySelector('.drawer .task-due').value`, &task)
	if task != "15:00 2031-12-03" {
		t.Errorf("a task due at 20:00 UTC on a New York board shows %q, want 15:00 2031-12-03", task)
	}
	tb.noProblems("times")
}

func TestPhoneFoldsEmptyLanes(t *testing.T) {
	b := startBoard(t)
	id := str(b.call("POST", "/api/cases", map[string]any{"title": "Chase the contractor", "status": "in_progress"}, false), "case", "id")
	tb := newTab(t, 390, 844)
	tb.open(b.URL + "/board")
	tb.waitFor("the card", fmt.Sprintf(`!!document.querySelector(%q)`, cardSel(id)))
	var v any
	tb.eval(fmt.Sprintf(`(() => { const u = document.querySelector('.lane-urgent'); const c = document.querySelector(%q).getBoundingClientRect();
		return [u.classList.contains('is-empty'), u.getBoundingClientRect().width, c.left, c.right]; })()`, cardSel(id)), &v)
	got := asSlice(v)
	if len(got) != 4 {
		t.Fatalf("measure: %v", v)
	}
	if folded, _ := got[0].(bool); !folded {
		t.Error("the empty Urgent lane is not folded")
	}
	if w, _ := got[1].(float64); w > 60 {
		t.Errorf("the folded lane is %vpx wide", w)
	}
	if right, _ := got[3].(float64); right > 390 {
		t.Errorf("the first card ends at %vpx, off the first screen", right)
	}
	tb.shot("phone-folded-lanes")
	tb.open(b.URL + "/labels")
	tb.waitFor("the bundles on a phone", `document.querySelectorAll('[data-bundle]').length === 37`)
	tb.shot("phone-labels")
	tb.open(b.URL + "/board")
	tb.waitFor("the card", fmt.Sprintf(`!!document.querySelector(%q)`, cardSel(id)))
	// A tap opens a folded lane again.
	tb.click(`.lane-urgent .lane-unfold`)
	tb.waitFor("the lane unfolded", `!document.querySelector('.lane-urgent').classList.contains('is-empty')`)
	tb.noProblems("phone")
}
