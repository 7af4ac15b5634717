package web

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/opsboard/opsboard/board/internal/testkit"
	"github.com/opsboard/opsboard/shared/storefile"
)

// listReads are the whole-list reads a page must not repeat when it can
// apply a change instead.
func listReads(reqs []request) []string {
	var out []string
	for _, r := range reqs {
		p, _, _ := strings.Cut(r.Path, "?")
		if r.Method == "GET" && (p == "/api/cases" || p == "/api/messages" || p == "/api/tree") {
			out = append(out, r.Path)
		}
	}
	return out
}

func asked(reqs []request, prefix string) bool {
	for _, r := range reqs {
		if r.Method == "GET" && strings.HasPrefix(r.Path, prefix) {
			return true
		}
	}
	return false
}

func TestAgentWriteIsAppliedWithoutAListRefetch(t *testing.T) {
	b := startBoard(t)
	moved := str(b.call("POST", "/api/cases", map[string]any{"title": "Renew the lease", "status": "todo"}, true), "case", "id")
	tb := newTab(t, 1280, 860)
	tb.open(b.URL + "/board")
	tb.waitFor("the stream", `!!document.querySelector('.live-dot.live')`)
	tb.waitFor("the card", fmt.Sprintf(`!!document.querySelector(%s)`, jsString(cardSel(moved))))
	mark := b.requestCount()

	id := str(b.call("POST", "/api/cases", map[string]any{"title": "Filed by the agent", "status": "urgent",
		"tasks": []map[string]any{{"title": "call"}, {"title": "write"}}}, true), "case", "id")
	tb.waitFor("the agent's card", fmt.Sprintf(`!!document.querySelector('[data-lane="urgent"] ' + %s)`, jsString(cardSel(id))))
	tb.waitFor("its task count", fmt.Sprintf(`(document.querySelector(%s + ' .tasks') || {}).textContent === '0/2'`, jsString(cardSel(id))))
	b.call("PATCH", "/api/cases/"+moved, map[string]any{"status": "done"}, true)
	tb.waitFor("the agent's move", fmt.Sprintf(`!!document.querySelector('[data-lane="done"] ' + %s)`, jsString(cardSel(moved))))
	b.call("DELETE", "/api/cases/"+id+"?hard=1", nil, true)
	tb.waitFor("the removed card gone", fmt.Sprintf(`!document.querySelector(%s)`, jsString(cardSel(id))))

	reqs := b.requests(mark)
	if !asked(reqs, "/api/changes?since=") {
		t.Errorf("the page did not ask what changed; it asked %v", reqs)
	}
	if lists := listReads(reqs); len(lists) > 0 {
		t.Errorf("the page refetched whole lists after the writes: %v", lists)
	}

	// The tree takes a rename in place too.
	opened := b.requestCount()
	tb.open(b.URL + "/strategy")
	tb.waitFor("the tree", `!!document.querySelector('.tree-loose .node-title')`)
	tb.waitFor("the stream", `!!document.querySelector('.live-dot.live')`)
	testkit.Eventually(t, "the view's lists", func() bool {
		return asked(b.requests(opened), "/api/tree?") && asked(b.requests(opened), "/api/cases?view=summary")
	})
	mark = b.requestCount()
	b.call("PATCH", "/api/cases/"+moved, map[string]any{"title": "Lease renewed"}, true)
	tb.waitFor("the renamed node", `[...document.querySelectorAll('.node-title')].some((e) => e.textContent === 'Lease renewed')`)
	if lists := listReads(b.requests(mark)); len(lists) > 0 {
		t.Errorf("the tree was refetched for a rename: %v", lists)
	}
	tb.noProblems("apply changes")
}

func TestInboxPagesOnScrollAndDrawsAWindow(t *testing.T) {
	b := startBoardOn(t, testkit.BoardDoc(30)) // 300 linked messages
	tb := newTab(t, 1280, 860)
	tb.open(b.URL + "/inbox")
	tb.waitFor("the first rows", `document.querySelectorAll('.inbox-item').length > 0`)
	var rows, height float64
	tb.eval(`document.querySelectorAll('.inbox-item').length`, &rows)
	if rows > 40 {
		t.Errorf("%v rows in the page before any scroll: want only those in view", rows)
	}
	tb.eval(`parseFloat(document.querySelector('.inbox-list').style.height)`, &height)
	if height >= 300*96 {
		t.Errorf("the first load holds every message (list %vpx tall): want one page", height)
	}
	for _, r := range b.requests(0) {
		if strings.HasPrefix(r.Path, "/api/messages") && !strings.Contains(r.Path, "view=summary") {
			t.Errorf("the inbox read whole messages: %s", r.Path)
		}
	}

	// Scroll to the end until the oldest message is drawn.
	tb.waitFor("the oldest message after scrolling", `(() => { const s = document.querySelector('.inbox-scroll'); s.scrollTop = s.scrollHeight;
		s.dispatchEvent(new Event('scroll')); return !!document.querySelector('a.inbox-row[href="/inbox?m=M-1"]'); })()`)
	paged := false
	for _, r := range b.requests(0) {
		paged = paged || strings.HasPrefix(r.Path, "/api/messages?") && strings.Contains(r.Path, "cursor=")
	}
	if !paged {
		t.Errorf("no page was loaded by cursor: %v", b.requests(0))
	}
	tb.eval(`document.querySelectorAll('.inbox-item').length`, &rows)
	tb.eval(`parseFloat(document.querySelector('.inbox-list').style.height)`, &height)
	if height != 300*96 || rows > 40 {
		t.Errorf("after scrolling to the end: list %vpx tall with %v rows drawn; want all 300 rows' height and only a window drawn", height, rows)
	}

	// Opening a message loads it whole.
	tb.click(`a.inbox-row[href="/inbox?m=M-1"]`)
	tb.waitFor("the body", `(document.querySelector('.message-body') || { textContent: '' }).textContent.length > 200`)
	if !asked(b.requests(0), "/api/messages/M-1") {
		t.Error("the reader did not load the message")
	}

	// A mail the agent files lands on top, from the change set alone (once
	// the reader has loaded its case and reminder lists).
	tb.waitFor("the stream", `!!document.querySelector('.live-dot.live')`)
	testkit.Eventually(t, "the reader's lists", func() bool {
		return asked(b.requests(0), "/api/cases?view=summary") && asked(b.requests(0), "/api/reminders?status=open")
	})
	mark := b.requestCount()
	m := b.call("POST", "/api/cases/CASE-3/messages", map[string]any{"from": "new@example.com", "subject": "Filed just now", "body": "Fresh mail."}, true)
	mid := str(m, "message", "id")
	tb.waitFor("the new mail on top", fmt.Sprintf(`(() => { const s = document.querySelector('.inbox-scroll'); s.scrollTop = 0; s.dispatchEvent(new Event('scroll'));
		const first = document.querySelector('.inbox-item[style*="top: 0px"] a.inbox-row'); return !!first && first.getAttribute('href').endsWith('m=' + %q); })()`, mid))
	if lists := listReads(b.requests(mark)); len(lists) > 0 {
		t.Errorf("the inbox refetched its pages for one new mail: %v", lists)
	}
	tb.noProblems("inbox paging")
}

func TestPageReloadsWhenTheBoardCannotSayWhatChanged(t *testing.T) {
	b := startBoard(t)
	b.call("POST", "/api/cases", map[string]any{"title": "Before the restore"}, true)
	tb := newTab(t, 1280, 860)
	tb.open(b.URL + "/board")
	tb.waitFor("the stream", `!!document.querySelector('.live-dot.live')`)
	tb.do(chromedp.Evaluate[chromedp.Void](`window.__sameDocument = true`))

	// A restore while the board is down: another state, a later version.
	b.stop()
	d, err := storefile.Load(b.Path)
	if err != nil {
		t.Fatal(err)
	}
	d.Cases.At(0).Title = "Restored from a snapshot"
	d.Version += 5
	data, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b.Path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	mark := b.requestCount()
	b.start()

	tb.waitFor("the restored title", `[...document.querySelectorAll('.card-title')].some((e) => e.textContent === 'Restored from a snapshot')`)
	reqs := b.requests(mark)
	if !asked(reqs, "/api/changes?since=") || !asked(reqs, "/api/cases?view=summary") {
		t.Errorf("want a changes request answered with a reset, then the list again; got %v", reqs)
	}
	var same bool
	tb.eval(`window.__sameDocument === true`, &same)
	if !same {
		t.Error("the page reloaded; it should have refetched in place")
	}
	tb.noProblems("reset", "ERR_CONNECTION_REFUSED")
}

func TestViewsWhoseAnswerHoldsCasesFollowACaseChange(t *testing.T) {
	b := startBoard(t)
	id := str(b.call("POST", "/api/cases", map[string]any{"title": "Quarterly taxes"}, true), "case", "id")
	tb := newTab(t, 1280, 860)
	tb.open(b.URL + "/priorities")
	tb.waitFor("the stream", `!!document.querySelector('.live-dot.live')`)
	// The priorities answer lists the starred cases: a star is a case change.
	b.call("PATCH", "/api/cases/"+id, map[string]any{"starred": true}, true)
	tb.waitFor("the starred case", `[...document.querySelectorAll('.starred-row')].some((e) => e.textContent.includes('Quarterly taxes'))`)
	tb.noProblems("priorities follow a star")
}

// The Reminders view counts each reminder's mail from the messages linked to
// a reminder, not from every message on the board, and follows a new link
// without a refetch.
func TestRemindersCountTheirMailFromLinkedMessagesOnly(t *testing.T) {
	b := startBoard(t)
	c := str(b.call("POST", "/api/cases", map[string]any{"title": "Lease"}, false), "case", "id")
	r := str(b.call("POST", "/api/reminders", map[string]any{"title": "Answer the landlord"}, false), "reminder", "id")
	b.call("POST", "/api/cases/"+c+"/messages", map[string]any{"source": "mail", "subject": "on the case"}, false)
	b.call("POST", "/api/reminders/"+r+"/messages", map[string]any{"source": "mail", "subject": "on the reminder"}, false)
	mark := b.requestCount()
	tb := newTab(t, 1280, 860)
	tb.open(b.URL + "/reminders")
	tb.waitFor("the stream", `!!document.querySelector('.live-dot.live')`)
	count := `[...document.querySelectorAll('ul.reminders button')].map((e) => e.textContent.trim()).find((s) => /email/.test(s)) || ''`
	tb.waitFor("one email on the reminder", count+` === '1 email'`)
	for _, q := range b.requests(mark) {
		if p, _, _ := strings.Cut(q.Path, "?"); q.Method == "GET" && p == "/api/messages" && !strings.Contains(q.Path, "onReminder=1") {
			t.Errorf("the view read every message: %s", q.Path)
		}
	}
	mark = b.requestCount()
	b.call("POST", "/api/reminders/"+r+"/messages", map[string]any{"source": "mail", "subject": "a second"}, true)
	tb.waitFor("two emails on the reminder", count+` === '2 emails'`)
	if lists := listReads(b.requests(mark)); len(lists) > 0 {
		t.Errorf("the view refetched lists for a new link: %v", lists)
	}
	tb.noProblems("reminder mail counts")
}

// The Activity view shows the newest page and fetches older pages by
// cursor on request; a live write on top keeps the rows below continuous.
func TestActivityPagesOlderRowsByCursor(t *testing.T) {
	b := startBoardOn(t, testkit.BoardDoc(80)) // 12 activity rows a case
	total := func() int {
		var feed struct {
			Activity []json.RawMessage `json:"activity"`
		}
		b.decode("/api/activity?limit=5000", &feed)
		return len(feed.Activity)
	}
	all := total()
	if all <= 800 {
		t.Fatalf("the sample board has %d activity rows; the test needs more than two pages", all)
	}
	tb := newTab(t, 1280, 860)
	tb.open(b.URL + "/activity")
	tb.waitFor("the stream", `!!document.querySelector('.live-dot.live')`)
	tb.waitFor("the first page", `document.querySelectorAll('.feed-row').length === 400`)
	tb.click(`[data-older]`)
	tb.waitFor("the second page", `document.querySelectorAll('.feed-row').length === 800`)

	// A write on top: the first page moves, and the rows below follow it,
	// one place down, with neither a gap nor a repeat.
	var before string
	tb.eval(`document.querySelectorAll('.feed-row')[798].textContent`, &before)
	mark := b.requestCount()
	b.call("POST", "/api/cases", map[string]any{"title": "A new case"}, true)
	tb.waitFor("the new row on top", `document.querySelector('.feed-row').textContent.includes('A new case')`)
	tb.waitFor("the rows below one place down", fmt.Sprintf(`document.querySelectorAll('.feed-row').length === 800 && document.querySelectorAll('.feed-row')[799].textContent === %s`, jsString(before)))
	if !asked(b.requests(mark), "/api/activity?") {
		t.Error("the older rows were not fetched again after the first page moved")
	}
	for n := 0; n < 20; n++ {
		var left bool
		tb.eval(`!!document.querySelector('[data-older]')`, &left)
		if !left {
			break
		}
		tb.click(`[data-older]`)
		tb.settle()
	}
	tb.waitFor("every row once", fmt.Sprintf(`document.querySelectorAll('.feed-row').length === %d && !document.querySelector('[data-older]')`, all+1))
	tb.noProblems("activity pages")
}
