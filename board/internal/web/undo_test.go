package web

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/opsboard/opsboard/board/internal/testkit"
)

// The person's gesture is offered back: the toast's Undo reverts it, and so
// does Ctrl Z with the focus outside a text field. The agent's rows in
// Activity carry an Undo of their own, and "Undo the agent…" lists what the
// agent did since a time before undoing it all.
func TestUndoFromThePage(t *testing.T) {
	b := startBoard(t)
	tb := newTab(t, 1280, 860)
	has := func(title string) bool { return findCase(b.cases(), title) != nil }
	click := func(what, sel, text string) {
		find := fmt.Sprintf(`[...document.querySelectorAll(%q)].find(e => e.textContent.trim() === %q && !e.disabled)`, sel, text)
		tb.waitFor(what, "!!"+find)
		tb.do(chromedp.Evaluate[chromedp.Void](find + ".click()"))
	}
	quickAdd := func(title string) {
		tb.click(`button[aria-label="Add a case to To do"]`)
		tb.waitFor("the quick-add field", `document.activeElement && document.activeElement.getAttribute('aria-label') === 'New case title in To do'`)
		tb.do(chromedp.KeyEvent(title + kb.Enter))
		testkit.Eventually(t, title+" on the board", func() bool { return has(title) })
	}

	t.Run("the toast's Undo", func(t *testing.T) {
		tb.open(b.URL + "/board")
		quickAdd("Call the plumber")
		click("the Undo on the toast", ".toast button", "Undo")
		testkit.Eventually(t, "the case undone", func() bool { return !has("Call the plumber") })
		tb.waitFor("the Undone toast", `[...document.querySelectorAll('.toast')].some(e => e.textContent.includes('Undone'))`)
	})

	t.Run("Ctrl Z", func(t *testing.T) {
		tb.open(b.URL + "/board")
		quickAdd("Book the dentist")
		tb.waitFor("the gesture offered back", `[...document.querySelectorAll('.toast button')].some(e => e.textContent.trim() === 'Undo')`)
		tb.do(chromedp.Evaluate[chromedp.Void](`document.activeElement.blur(); document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'z', ctrlKey: true, bubbles: true }))`))
		testkit.Eventually(t, "the case undone", func() bool { return !has("Book the dentist") })
	})

	t.Run("an agent row's Undo", func(t *testing.T) {
		id := str(b.call("POST", "/api/cases", map[string]any{"title": "Quarterly taxes"}, false), "case", "id")
		b.call("PATCH", "/api/cases/"+id, map[string]any{"title": "Quarterly taxes (renamed by the agent)"}, true)
		tb.open(b.URL + "/activity")
		click("the Undo on the agent's row", ".feed-row button", "Undo")
		testkit.Eventually(t, "the title back", func() bool { return has("Quarterly taxes") })
	})

	t.Run("a refusal in words, then undoing the later change too", func(t *testing.T) {
		id := str(b.call("POST", "/api/cases", map[string]any{"title": "Venue"}, false), "case", "id")
		b.call("PATCH", "/api/cases/"+id, map[string]any{"title": "Venue (agent)"}, true)
		b.call("PATCH", "/api/cases/"+id, map[string]any{"status": "in_progress"}, false)
		tb.open(b.URL + "/activity")
		click("the Undo on the agent's row", ".feed-row button", "Undo")
		tb.waitFor("the refusal naming the case", fmt.Sprintf(`[...document.querySelectorAll('.toast')].some(e => e.textContent.includes('Not undone: %s changed again later'))`, id))
		if !has("Venue (agent)") {
			t.Fatalf("a refused undo changed the board")
		}
		click("the offer to undo the later change too", ".toast button", "Undo those too")
		testkit.Eventually(t, "the title back", func() bool { return has("Venue") && !has("Venue (agent)") })
	})

	t.Run("the agent since a time", func(t *testing.T) {
		b.call("POST", "/api/cases", map[string]any{"title": "Agent idea one"}, true)
		b.call("POST", "/api/cases", map[string]any{"title": "Agent idea two"}, true)
		tb.open(b.URL + "/activity")
		click("the action", ".filters button", "Undo the agent…")
		click("the dry run", ".undo-agent button", "Show what it did")
		tb.waitFor("the agent's two writes listed", `document.querySelectorAll('.undo-writes li').length === 2`)
		if !has("Agent idea one") || !has("Agent idea two") {
			t.Fatalf("the dry run changed the board")
		}
		click("apply", ".undo-agent button", "Undo 2 changes")
		testkit.Eventually(t, "the agent's cases undone", func() bool { return !has("Agent idea one") && !has("Agent idea two") })
		if !has("Quarterly taxes") {
			t.Errorf("the person's case went with the agent's")
		}
	})
	tb.noProblems("undo", "/api/undo") // the refused undo's 400, which the browser logs
}
