package web

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// inZone runs the tab's browser in zone, as a machine set to it would.
func (tb *tab) inZone(zone string) {
	tb.t.Helper()
	tb.do(chromedp.Func(func(ctx context.Context, tt *chromedp.Target) error {
		_, err := cdp.Call(ctx, tt, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: zone})
		return err
	}))
}

// TestTimesFollowTheBoardsZone: with the browser 25 hours ahead of the
// board (so the two never share a date), the calendar's today, the
// Activity feed's days and times and the agenda's today are the board's,
// and the header names the board's zone; a browser in the board's zone is
// not told.
func TestTimesFollowTheBoardsZone(t *testing.T) {
	const board, browser = "Pacific/Pago_Pago", "Pacific/Kiritimati" // UTC-11 and UTC+14
	b := startBoard(t)
	b.call("PATCH", "/api/prefs", map[string]any{"timezone": board}, false)
	loc, err := time.LoadLocation(board)
	if err != nil {
		t.Fatal(err)
	}
	today := time.Now().In(loc).Format("2006-01-02")
	lease := str(b.call("POST", "/api/cases", map[string]any{"title": "Sign the lease"}, false), "case", "id")
	b.call("POST", "/api/reminders", map[string]any{"title": "Call the notary", "dueAt": today}, false)

	tb := newTab(t, 1280, 900)
	tb.inZone(browser)
	tb.open(b.URL + "/calendar")
	tb.waitFor("the zone in the header", fmt.Sprintf(`document.querySelectorAll('[data-zone]').length === 1 && document.querySelector('[data-zone]').dataset.zone === %q`, board))
	tb.waitFor("the board's today in the calendar", fmt.Sprintf(`document.querySelector('.day.today .day-num')?.getAttribute('aria-label').endsWith('new event on %s')`, today))

	tb.open(b.URL + "/activity")
	tb.waitFor("the case's row", `!!document.querySelector('.feed-row time')`)
	var got any
	tb.eval(`(() => { const t = document.querySelector('.feed-row time'); const d = new Date(t.getAttribute('datetime'));
		const f = (z) => new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit', timeZone: z }).format(d);
		return { shown: t.textContent, board: f(`+jsString(board)+`), browser: f(`+jsString(browser)+`), heading: t.closest('.feed-day').getAttribute('aria-label') }; })()`, &got)
	m, _ := got.(map[string]any)
	if m["shown"] != m["board"] || m["shown"] == m["browser"] {
		t.Errorf("the Activity row shows %v; on the board's clock it is %v, on the browser's %v", m["shown"], m["board"], m["browser"])
	}
	if m["heading"] != "Today" {
		t.Errorf("a row written now is under %v, want Today (the board's day)", m["heading"])
	}

	tb.open(b.URL + "/agenda")
	tb.waitFor("the reminder due today on the board's clock", `[...document.querySelectorAll('[data-group=today] .agenda-item')].some((r) => r.textContent.includes('Call the notary') && r.textContent.includes('Today'))`)
	tb.open(b.URL + "/board?case=" + lease)
	tb.waitFor("the drawer", `!!document.querySelector('.drawer')`)
	tb.noProblems("board zone")

	// A browser in the board's zone is not told about it.
	same := newTab(t, 1280, 900)
	same.inZone(board)
	same.open(b.URL + "/agenda")
	same.waitFor("the agenda", `!!document.querySelector('[data-group=today]')`)
	var named bool
	same.eval(`!!document.querySelector('[data-zone]')`, &named)
	if named {
		t.Error("the header names the zone although the browser is in it")
	}
}
