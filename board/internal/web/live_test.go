package web

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/opsboard/opsboard/board/internal/testkit"
	"github.com/opsboard/opsboard/shared/wire"
)

// seedLane creates n cases in lane through the API, as the person would,
// and returns their ids.
func (b *board) seedLane(lane string, n int) []string {
	b.t.Helper()
	ids := make([]string, n)
	for i := range ids {
		ids[i] = str(b.call("POST", "/api/cases", map[string]any{"title": fmt.Sprintf("Seeded %s %d", lane, i+1), "status": lane}, false), "case", "id")
		// Cards created in the same millisecond tie on their key, and a
		// drop between two tied cards cannot be told by one position.
		time.Sleep(2 * time.Millisecond)
	}
	return ids
}

// laneOrder is a lane's ids in the board's lane order.
func (b *board) laneOrder(lane string) []string {
	b.t.Helper()
	all := b.cases()
	wire.SortLanes(all)
	var out []string
	for _, c := range all {
		if string(c.Status) == lane && c.ArchivedAt == "" {
			out = append(out, c.ID)
		}
	}
	return out
}

// announcedText is what the page's live region holds.
const announcedText = `(document.querySelector('[data-announce]') || {}).textContent || ''`

// scrolls is the kanban's scroll state: the page, the board and each lane.
const scrolls = `JSON.stringify([document.getElementById('main') ? document.getElementById('main').scrollTop : 0,
	(document.querySelector('.kanban') || {}).scrollLeft || 0,
	...[...document.querySelectorAll('.lane-body')].map((l) => l.scrollTop)])`

// TestAgentCaseArrivesInView: a case the agent creates in a lane of 200
// is drawn at once, marked and announced once, with nothing scrolled and
// no "Show more" click; a card the agent moves deep into the lane is drawn
// where it lands and marked as well.
func TestAgentCaseArrivesInView(t *testing.T) {
	b := startBoard(t)
	b.seedLane("todo", 200)
	far := b.seedLane("done", 1)[0]
	tb := newTab(t, 1280, 860)
	tb.open(b.URL + "/board")
	tb.waitFor("the stream", `!!document.querySelector('.live-dot.live')`)
	var before string
	tb.eval(scrolls, &before)

	id := str(b.call("POST", "/api/cases", map[string]any{"title": "Renew lease", "status": "todo"}, true), "case", "id")
	tb.waitFor("the agent's card drawn and marked", fmt.Sprintf(`!!document.querySelector(%q)`, cardSel(id)+".arrived"))
	tb.waitFor("the arrival announced", announcedText+`.includes("Agent added 'Renew lease' to To do")`)
	tb.shot("agent-arrival")
	var first string
	tb.eval(`document.querySelector('[data-lane="todo"] [data-card]').dataset.id`, &first)
	if first != id {
		t.Errorf("the top card of To do is %s, want the agent's %s", first, id)
	}
	var after string
	tb.eval(scrolls, &after)
	if after != before {
		t.Errorf("scroll positions moved from %s to %s", before, after)
	}

	// The agent moves a card from Done to the middle of To do, far past
	// the 25 drawn: the lane's window grows to reach it.
	order := b.laneOrder("todo")
	var keys []float64
	for _, c := range b.cases() {
		if c.ID == order[150] || c.ID == order[151] {
			keys = append(keys, wire.LaneKey(c.Spot()))
		}
	}
	slices.Sort(keys)
	b.call("PATCH", "/api/cases/"+far, map[string]any{"status": "todo", "position": (keys[0] + keys[1]) / 2}, true)
	tb.waitFor("the moved card drawn and marked", fmt.Sprintf(`!!document.querySelector(%q)`, `[data-lane="todo"] `+cardSel(far)+".arrived"))
	tb.waitFor("the move announced", announcedText+`.includes("Agent moved 'Seeded done 1' to To do")`)
	var at float64
	tb.eval(fmt.Sprintf(`[...document.querySelectorAll('[data-lane="todo"] [data-card]')].findIndex((e) => e.dataset.id === %q)`, far), &at)
	if want := slices.Index(b.laneOrder("todo"), far); int(at) != want || want < 150 {
		t.Errorf("the moved card is drawn at %v, want %d (where the board sorts it, past the first 150)", at, want)
	}
	// The page draws the lane in the board's order (the same key in Go and JS).
	var drawn any
	tb.eval(`[...document.querySelectorAll('[data-lane="todo"] [data-card]')].map((e) => e.dataset.id)`, &drawn)
	var got []string
	for _, x := range asSlice(drawn) {
		got = append(got, fmt.Sprint(x))
	}
	if want := b.laneOrder("todo"); len(got) > len(want) || !slices.Equal(got, want[:len(got)]) {
		t.Errorf("To do drawn as %v, want the board's order %v", got, want[:min(len(got), len(want))])
	}
	var said string
	tb.eval(announcedText, &said)
	if n := strings.Count(said, "Renew lease"); n != 1 {
		t.Errorf("the arrival was announced %d times: %q", n, said)
	}
	tb.eval(scrolls, &after)
	if after != before {
		t.Errorf("scroll positions moved from %s to %s after the move", before, after)
	}
	// The mark fades after a few seconds; the card stays drawn.
	tb.waitFor("the mark to end", fmt.Sprintf(`!document.querySelector(%q) && !!document.querySelector(%q)`, cardSel(far)+".arrived", cardSel(far)))

	// The person's own write is neither marked nor announced.
	mine := str(b.call("POST", "/api/cases", map[string]any{"title": "My own card", "status": "todo"}, false), "case", "id")
	tb.waitFor("the person's card drawn", fmt.Sprintf(`!!document.querySelector(%q)`, cardSel(mine)))
	time.Sleep(300 * time.Millisecond)
	var marked bool
	tb.eval(fmt.Sprintf(`!!document.querySelector(%q) || (%s).includes('My own card')`, cardSel(mine)+".arrived", announcedText), &marked)
	if marked {
		t.Error("the person's own card was marked or announced")
	}
	tb.noProblems("/board")
}

// TestTypingIsNotInterruptedByAgentWrites: the agent's writes to the lane
// and to the very card being renamed leave the field, its text and the
// focus alone.
func TestTypingIsNotInterruptedByAgentWrites(t *testing.T) {
	b := startBoard(t)
	ids := b.seedLane("todo", 30)
	tb := newTab(t, 1280, 860)
	tb.open(b.URL + "/board")
	tb.waitFor("the stream", `!!document.querySelector('.live-dot.live')`)

	tb.click(`button[aria-label="Add a case to To do"]`)
	tb.waitFor("the quick-add field", `document.activeElement && document.activeElement.getAttribute('aria-label') === 'New case title in To do'`)
	tb.do(chromedp.KeyEvent("Half a tit"))
	agent := str(b.call("POST", "/api/cases", map[string]any{"title": "Agent's own", "status": "todo"}, true), "case", "id")
	b.call("PATCH", "/api/cases/"+ids[3], map[string]any{"title": "Renamed by the agent"}, true)
	tb.waitFor("the agent's card", fmt.Sprintf(`!!document.querySelector(%q)`, cardSel(agent)))
	tb.do(chromedp.KeyEvent("le"))
	var value string
	tb.eval(`document.activeElement && document.activeElement.getAttribute('aria-label') === 'New case title in To do' ? document.activeElement.value : '(focus lost)'`, &value)
	if value != "Half a title" {
		t.Errorf("the quick-add field holds %q, want the text typed across the agent's writes", value)
	}
	tb.do(chromedp.KeyEvent(kb.Escape))

	// Renaming a card while the agent renames the same card.
	target := ids[10]
	tb.eval(fmt.Sprintf(`document.querySelector(%q).focus()`, cardSel(target)), nil)
	tb.do(chromedp.KeyEvent("e"))
	tb.waitFor("the title field", `!!document.activeElement && document.activeElement.matches('.card-title-input, .card-title-input input')`)
	tb.do(chromedp.KeyEvent(" and more"))
	b.call("PATCH", "/api/cases/"+target, map[string]any{"summary": "The agent adds a summary"}, true)
	tb.waitFor("the change announced", announcedText+`.includes("Agent changed")`)
	time.Sleep(400 * time.Millisecond)
	tb.do(chromedp.KeyEvent("!"))
	tb.eval(`document.activeElement && document.activeElement.matches('.card-title-input, .card-title-input input') ? document.activeElement.value : '(focus lost)'`, &value)
	if !strings.HasSuffix(value, " and more!") {
		t.Errorf("the title field holds %q, want the person's typing kept", value)
	}
	tb.noProblems("/board")
}

// patches counts the browser's PATCH requests from the n-th request on.
func (b *board) patches(n int) int {
	k := 0
	for _, r := range b.requests(n) {
		if r.Method == "PATCH" {
			k++
		}
	}
	return k
}

// dropWrites is how many writes a drop made: a request is logged once its
// answer is written, a moment after the store has it, so it waits for the
// first and then a little for any second.
func (b *board) dropWrites(n int) int {
	b.t.Helper()
	testkit.Eventually(b.t, "the drop's write logged", func() bool { return b.patches(n) > 0 })
	time.Sleep(300 * time.Millisecond)
	return b.patches(n)
}

// TestKeyboardMovesACard: Space picks a card up, the arrows move it
// between and within lanes, Space or Enter drops it with one write, and
// Escape puts it back with none.
func TestKeyboardMovesACard(t *testing.T) {
	b := startBoard(t)
	b.seedLane("todo", 4)
	b.seedLane("in_progress", 2)
	tb := newTab(t, 1280, 860)
	tb.open(b.URL + "/board")
	tb.waitFor("the stream", `!!document.querySelector('.live-dot.live')`)
	order := b.laneOrder("todo")
	focus := func(id string) {
		tb.eval(fmt.Sprintf(`document.querySelector(%q).focus()`, cardSel(id)), nil)
	}

	// Between lanes: the top card of To do to In progress, second place.
	card := order[0]
	focus(card)
	mark := b.requestCount()
	tb.do(chromedp.KeyEvent(" "))
	tb.waitFor("the pick-up announced", announcedText+`.includes("Picked up")`)
	tb.do(chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowDown))
	tb.waitFor("the step announced", announcedText+`.includes("In progress, position 2 of 3")`)
	tb.do(chromedp.KeyEvent(kb.Enter))
	testkit.Eventually(t, "the card in In progress", func() bool {
		o := b.laneOrder("in_progress")
		return len(o) == 3 && o[1] == card
	})
	if n := b.dropWrites(mark); n != 1 {
		t.Errorf("the drop made %d writes, want 1", n)
	}
	tb.waitFor("the drop announced", announcedText+`.includes("Dropped")`)
	tb.waitFor("the focus back on the moved card", fmt.Sprintf(`!!document.activeElement && document.activeElement.matches(%q)`, cardSel(card)))

	// Within a lane: the new top card of To do two places down.
	order = b.laneOrder("todo")
	card = order[0]
	focus(card)
	mark = b.requestCount()
	tb.do(chromedp.KeyEvent(" "), chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(" "))
	want := []string{order[1], order[2], card}
	testkit.Eventually(t, "the card two places down", func() bool { return slices.Equal(b.laneOrder("todo"), want) })
	if n := b.dropWrites(mark); n != 1 {
		t.Errorf("the drop made %d writes, want 1", n)
	}

	// Escape cancels: nothing is written, the card stays where it was.
	order = b.laneOrder("todo")
	focus(order[0])
	mark = b.requestCount()
	tb.do(chromedp.KeyEvent(" "), chromedp.KeyEvent(kb.ArrowLeft), chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.Escape))
	tb.waitFor("the cancel announced", announcedText+`.includes("cancelled")`)
	time.Sleep(400 * time.Millisecond)
	if n := b.patches(mark); n != 0 {
		t.Errorf("Escape made %d writes, want none", n)
	}
	if got := b.laneOrder("todo"); !slices.Equal(got, order) {
		t.Errorf("To do after Escape: %v, want %v", got, order)
	}
	var lifted bool
	tb.eval(`!!document.querySelector('.is-lifted, .drop-active, .drop-before, .drop-end')`, &lifted)
	if lifted {
		t.Error("marks of the move are left after Escape")
	}
	tb.noProblems("/board")
}

// TestKeyboardMovesAPriority: the same gesture reorders priority notes from
// the note's handle, Enter to pick up and drop, Escape to cancel.
func TestKeyboardMovesAPriority(t *testing.T) {
	b := startBoard(t)
	for i, text := range []string{"Close the round", "Hire a designer", "Protect Fridays"} {
		b.call("POST", "/api/priorities", map[string]any{"text": text, "position": i + 1}, false)
	}
	texts := func() []string {
		var out struct {
			Priorities []wire.Priority `json:"priorities"`
		}
		b.decode("/api/priorities", &out)
		var list []string
		for _, p := range out.Priorities {
			list = append(list, p.Text)
		}
		return list
	}
	tb := newTab(t, 1280, 860)
	tb.open(b.URL + "/priorities")
	tb.waitFor("the notes", `document.querySelectorAll('[data-prio]').length === 3`)
	tb.eval(`document.querySelector('[data-prio] [data-move]').focus()`, nil)
	mark := b.requestCount()
	tb.do(chromedp.KeyEvent(kb.Enter), chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.Enter))
	want := []string{"Hire a designer", "Close the round", "Protect Fridays"}
	testkit.Eventually(t, "the first priority one down", func() bool { return slices.Equal(texts(), want) })
	if n := b.dropWrites(mark); n != 1 {
		t.Errorf("the drop made %d writes, want 1", n)
	}
	tb.waitFor("the list redrawn", `document.querySelector('[data-prio] .prio-text') && document.querySelector('[data-prio]').textContent.includes('Hire a designer')`)

	tb.eval(`document.querySelector('[data-prio] [data-move]').focus()`, nil)
	mark = b.requestCount()
	tb.do(chromedp.KeyEvent(" "), chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.Escape))
	tb.waitFor("the cancel announced", announcedText+`.includes("cancelled")`)
	time.Sleep(400 * time.Millisecond)
	if n := b.patches(mark); n != 0 {
		t.Errorf("Escape made %d writes, want none", n)
	}
	if got := texts(); !slices.Equal(got, want) {
		t.Errorf("priorities after Escape: %v, want %v", got, want)
	}
	tb.noProblems("/priorities")
}

// TestFocusReturnsAfterADialogCloses: closing the case drawer gives the
// focus back to the card that opened it, and closing the new-case dialog
// to the button that opened it.
func TestFocusReturnsAfterADialogCloses(t *testing.T) {
	b := startBoard(t)
	id := b.seedLane("todo", 3)[1]
	tb := newTab(t, 1280, 860)
	tb.open(b.URL + "/board")
	tb.eval(fmt.Sprintf(`document.querySelector(%q).focus()`, cardSel(id)), nil)
	tb.do(chromedp.KeyEvent(kb.Enter))
	tb.waitFor("the drawer", `!!document.querySelector('.drawer #drawer-title')`)
	tb.waitFor("the focus in the drawer", `!!document.activeElement && !!document.activeElement.closest('.drawer')`)
	tb.do(chromedp.KeyEvent(kb.Escape))
	tb.waitFor("the drawer closed and the focus back on the card", fmt.Sprintf(`!document.querySelector('.drawer') && !!document.activeElement && document.activeElement.matches(%q)`, cardSel(id)))

	// The agent redraws the card while the drawer is open: the focus goes
	// to the card as drawn now.
	tb.do(chromedp.KeyEvent(kb.Enter))
	tb.waitFor("the drawer", `!!document.querySelector('.drawer #drawer-title')`)
	b.call("PATCH", "/api/cases/"+id, map[string]any{"status": "in_progress"}, true)
	tb.waitFor("the card in its new lane", fmt.Sprintf(`!!document.querySelector('[data-lane="in_progress"] %s')`, cardSel(id)))
	tb.do(chromedp.KeyEvent(kb.Escape))
	tb.waitFor("the focus on the card in its new lane", fmt.Sprintf(`!document.querySelector('.drawer') && !!document.activeElement && document.activeElement.matches(%q)`, cardSel(id)))

	tb.eval(`[...document.querySelectorAll('button')].find((e) => e.textContent.trim() === 'New case').focus()`, nil)
	tb.do(chromedp.KeyEvent(kb.Enter))
	tb.waitFor("the new-case dialog", `!!document.querySelector('[role=dialog] #newcase-title')`)
	// Escape goes where the focus is: to the dialog only once it holds it.
	tb.waitFor("the focus in the dialog", `!!document.activeElement && !!document.activeElement.closest('[role=dialog]')`)
	tb.do(chromedp.KeyEvent(kb.Escape))
	tb.waitFor("the focus back on New case", `!document.querySelector('#newcase-title') && !!document.activeElement && document.activeElement.textContent.trim() === 'New case'`)
	tb.noProblems("/board")
}

// TestKeyboardMovesANodeOnStrategy: on the tree, the arrows step through
// the places a node may go and the drop sets its parent with one write.
func TestKeyboardMovesANodeOnStrategy(t *testing.T) {
	b := startBoard(t)
	first := str(b.call("POST", "/api/cases", map[string]any{"title": "Fundraising", "kind": "initiative"}, false), "case", "id")
	b.call("POST", "/api/cases", map[string]any{"title": "Hiring", "kind": "initiative"}, false)
	loose := str(b.call("POST", "/api/cases", map[string]any{"title": "Pitch deck"}, false), "case", "id")
	parent := func() string {
		for _, c := range b.cases() {
			if c.ID == loose {
				return c.ParentID
			}
		}
		return "?"
	}
	tb := newTab(t, 1280, 860)
	tb.open(b.URL + "/strategy")
	handle := fmt.Sprintf(`[data-node=%q] [data-move]`, loose)
	tb.waitFor("the ungrouped case", fmt.Sprintf(`!!document.querySelector(%q)`, handle))
	tb.eval(fmt.Sprintf(`document.querySelector(%q).focus()`, handle), nil)
	mark := b.requestCount()
	tb.do(chromedp.KeyEvent(kb.Enter))
	tb.waitFor("the pick-up announced", announcedText+`.includes("Picked up 'Pitch deck'. Ungrouped cases")`)
	tb.do(chromedp.KeyEvent(kb.ArrowDown))
	tb.waitFor("the step announced", announcedText+`.includes("'Pitch deck': under Fundraising")`)
	tb.do(chromedp.KeyEvent(kb.Enter))
	testkit.Eventually(t, "the case under Fundraising", func() bool { return parent() == first })
	if n := b.dropWrites(mark); n != 1 {
		t.Errorf("the drop made %d writes, want 1", n)
	}

	tb.waitFor("the case drawn under Fundraising", fmt.Sprintf(`!!document.querySelector(%q)`, handle))
	tb.eval(fmt.Sprintf(`document.querySelector(%q).focus()`, handle), nil)
	mark = b.requestCount()
	tb.do(chromedp.KeyEvent(" "), chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.Escape))
	tb.waitFor("the cancel announced", announcedText+`.includes("cancelled")`)
	time.Sleep(400 * time.Millisecond)
	if n := b.patches(mark); n != 0 || parent() != first {
		t.Errorf("Escape made %d writes and left the parent %q, want none and %s", n, parent(), first)
	}
	tb.noProblems("/strategy")
}
