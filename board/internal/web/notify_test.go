package web

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// notificationShim stands in for the browser's Notification API, which
// headless Chromium has no surface for: it records every notification and
// permission request, and grants permission when asked. The page's own code
// runs unchanged on top of it.
const notificationShim = `(() => {
  window.__notes = [];
  window.__asked = 0;
  class Shim {
    constructor(title, opts) { window.__notes.push({ title, body: (opts && opts.body) || '', tag: (opts && opts.tag) || '' }); }
    close() {}
  }
  Shim.permission = 'default';
  Shim.requestPermission = () => { window.__asked++; Shim.permission = 'granted'; return Promise.resolve('granted'); };
  window.Notification = Shim;
})()`

// withShim injects the shim into every document the tab loads, before the
// page's scripts run.
func withShim(tb *tab) {
	tb.do(chromedp.Func(func(ctx context.Context, tt *chromedp.Target) error {
		_, err := cdp.Call(ctx, tt, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: notificationShim})
		return err
	}))
}

// A reminder the agent sets a few seconds ahead turns the title count to
// (1) when it falls due, from the change set and the page's own timer, with
// no read of the board in between; once the person opted in it rings one
// notification with its title, and after opting out nothing rings.
func TestDueReminderCountsInTheTitleAndRingsOnce(t *testing.T) {
	b := startBoard(t)
	tb := newTab(t, 1280, 860)
	withShim(tb)
	tb.open(b.URL + "/board")
	tb.waitFor("the stream", `!!document.querySelector('.live-dot.live')`)
	tb.waitFor("the agenda", `!!document.querySelector('[data-notify-toggle]')`)
	until := func(what string, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for !ok() {
			if time.Now().After(deadline) {
				t.Fatalf("waiting for %s; the page asked %v", what, b.requests(0))
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	until("the agenda load", func() bool { return asked(b.requests(0), "/api/agenda?") })

	// Opting in asks the browser's permission and is remembered.
	var pressed string
	tb.eval(`document.querySelector('[data-notify-toggle]').getAttribute('aria-pressed')`, &pressed)
	if pressed != "false" {
		t.Fatalf("the toggle starts pressed=%q, want off", pressed)
	}
	tb.click(`[data-notify-toggle]`)
	tb.waitFor("the toggle on", `document.querySelector('[data-notify-toggle]').getAttribute('aria-pressed') === 'true'`)
	var asks float64
	var stored string
	tb.eval(`window.__asked`, &asks)
	tb.eval(`localStorage.getItem('opsboard.notify')`, &stored)
	if asks != 1 || stored != "1" {
		t.Errorf("opting in asked permission %v times and stored %q; want once and \"1\"", asks, stored)
	}

	var title string
	tb.eval(`document.title`, &title)
	if strings.HasPrefix(title, "(") {
		t.Fatalf("title %q on a board with nothing due", title)
	}

	mark := b.requestCount()
	due := time.Now().Add(4 * time.Second).UTC().Format(time.RFC3339)
	b.call("POST", "/api/reminders", map[string]any{"title": "Call the notary", "dueAt": due}, true)
	tb.waitFor("the count in the title", `document.title.startsWith('(1) ')`)
	tb.waitFor("one notification", `window.__notes.length === 1`)
	var note map[string]any
	var v any
	tb.eval(`window.__notes[0]`, &v)
	note, _ = v.(map[string]any)
	if note["title"] != "Call the notary" {
		t.Errorf("notification %v, want the reminder's title", note)
	}
	for _, r := range b.requests(mark) {
		p, _, _ := strings.Cut(r.Path, "?")
		if r.Method != "GET" || (p != "/api/changes" && p != "/api/health") {
			t.Errorf("the page asked the board %s %s; want only the change set (and the stream's health check)", r.Method, r.Path)
		}
	}
	if !asked(b.requests(mark), "/api/changes?since=") {
		t.Errorf("the page never took the change set: %v", b.requests(mark))
	}

	// Another change wakes the page again: the reminder does not ring twice.
	mark2 := b.requestCount()
	b.call("POST", "/api/reminders", map[string]any{"title": "Someday"}, true)
	until("the second change set", func() bool { return asked(b.requests(mark2), "/api/changes?since=") })
	tb.do(chromedp.Sleep(500 * time.Millisecond))
	var n float64
	tb.eval(`window.__notes.length`, &n)
	if n != 1 {
		t.Errorf("%v notifications after a later change, want the one", n)
	}

	// A view's own title keeps the count in front.
	tb.click(`a.nav-item[href="/reminders"]`)
	tb.waitFor("the reminders title with the count", `document.title === '(1) Reminders · opsboard'`)

	// Opted out, a due reminder counts but rings nothing.
	tb.click(`[data-notify-toggle]`)
	tb.waitFor("the toggle off", `document.querySelector('[data-notify-toggle]').getAttribute('aria-pressed') === 'false' && localStorage.getItem('opsboard.notify') === '0'`)
	due = time.Now().Add(3 * time.Second).UTC().Format(time.RFC3339)
	b.call("POST", "/api/reminders", map[string]any{"title": "Quietly due", "dueAt": due}, true)
	tb.waitFor("the count at two", `document.title.startsWith('(2) ')`)
	tb.do(chromedp.Sleep(300 * time.Millisecond))
	tb.eval(`window.__notes.length`, &n)
	if n != 1 {
		t.Errorf("%v notifications with notifications off, want still the one", n)
	}

	// Completing one takes it off the count.
	var id string
	list := b.call("GET", "/api/reminders?status=open", nil, false)
	for _, r := range asSlice(list["reminders"]) {
		m, _ := r.(map[string]any)
		if m["title"] == "Call the notary" {
			id = fmt.Sprint(m["id"])
		}
	}
	b.call("PATCH", "/api/reminders/"+id, map[string]any{"status": "done"}, false)
	tb.waitFor("the count at one", `document.title.startsWith('(1) ')`)

	// A case task due soon counts too (the agenda is asked again for a
	// case with open tasks, whose summary does not hold them); opted in
	// again, it rings with its title.
	tb.click(`[data-notify-toggle]`)
	tb.waitFor("the toggle on again", `document.querySelector('[data-notify-toggle]').getAttribute('aria-pressed') === 'true'`)
	due = time.Now().Add(3 * time.Second).UTC().Format(time.RFC3339)
	b.call("POST", "/api/cases", map[string]any{"title": "Renew the lease", "tasks": []map[string]any{{"title": "Send the deposit", "dueAt": due}}}, true)
	tb.waitFor("the task in the count", `document.title.startsWith('(2) ')`)
	tb.waitFor("the task's notification", `window.__notes.length === 2 && window.__notes[1].title === 'Send the deposit'`)
	tb.noProblems("notifications")
}

// The rules the page computes with: when a timed and a date-only item ring
// and turn overdue on the board's clock, and the next moment to wake at.
func TestDueRulesOnTheBoardsClock(t *testing.T) {
	b := startBoard(t)
	tb := newTab(t, 1280, 860)
	tb.open(b.URL + "/board")
	tb.do(chromedp.Evaluate[chromedp.Void](`import('/static/js/notify.js').then((m) => {
	  const zone = 'America/New_York';
	  const items = [
	    { kind: 'reminder', id: 'R1', title: 'timed', dueAt: '2026-07-01T15:00' },
	    { kind: 'task', id: 'T1', caseId: 'CASE-1', title: 'day', dueAt: '2026-07-01' },
	    { kind: 'event', id: 'E1', title: 'event', dueAt: '2026-07-01T10:00:00-04:00' },
	  ];
	  const at = (s) => Date.parse(s);
	  window.__rules = {
	    ringDay: m.moments(items[1], zone).ring === at('2026-07-01T13:00:00Z'),
	    ringTimed: m.moments(items[0], zone).ring === at('2026-07-01T19:00:00Z'),
	    overdueNoon: m.overdueAt(items, at('2026-07-01T16:00:00Z'), zone).map((i) => i.id).join(),
	    overdueNextDay: m.overdueAt(items, at('2026-07-02T04:00:00Z'), zone).map((i) => i.id).join(),
	    next: new Date(m.nextMoment(items, at('2026-07-01T13:00:00Z'), zone)).toISOString(),
	    ringing: m.ringingBetween(items, at('2026-07-01T12:00:00Z'), at('2026-07-01T13:30:00Z'), zone).map((i) => i.id).join(),
	    title: m.titled('(2) Reminders · opsboard', 3) + '|' + m.titled('(2) opsboard', 0),
	    href: m.hrefOf(items[1]) + '|' + m.hrefOf(items[0]),
	  };
	})`))
	tb.waitFor("the rules", `!!window.__rules`)
	var v any
	tb.eval(`window.__rules`, &v)
	got, _ := v.(map[string]any)
	want := map[string]any{
		"ringDay": true, "ringTimed": true,
		"overdueNoon":    "",      // 12:00 in New York: nothing timed has passed, the day is not over
		"overdueNextDay": "R1,T1", // midnight: the day is over; an event is never overdue
		"next":           "2026-07-01T14:00:00.000Z",
		"ringing":        "T1", // 09:00 on the day; the event rings at 10:00
		"title":          "(3) Reminders · opsboard|opsboard",
		"href":           "/board?case=CASE-1|/reminders?id=R1",
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s = %v, want %v", k, got[k], w)
		}
	}
}
