package web

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/opsboard/opsboard/board/internal/testkit"
)

// The new-case form submitted twice before it can disable itself sends the
// create twice under one Idempotency-Key, and the board makes one case.
func TestDoubleSubmittedNewCaseIsOneCase(t *testing.T) {
	b := startBoard(t)
	tb := newTab(t, 1280, 860)
	tb.open(b.URL + "/board")
	tb.click(`.btn-row .btn-primary`)
	tb.waitFor("the new-case form", `!!document.querySelector('#newcase-form input[required]')`)
	tb.do(chromedp.SendKeys(`#newcase-form input[required]`, "Renew the lease"))
	tb.waitFor("the create button", `!document.querySelector('button[form="newcase-form"]').disabled`)
	from := b.requestCount()
	var ignored any
	tb.eval(`(() => { const f = document.getElementById('newcase-form'); f.requestSubmit(); f.requestSubmit(); return true; })()`, &ignored)
	testkit.Eventually(t, "both submits answered", func() bool {
		n := 0
		for _, r := range b.requests(from) {
			if r.Method == "POST" && r.Path == "/api/cases" {
				n++
			}
		}
		return n == 2
	})
	tb.waitFor("the dialog to close", `!document.querySelector('#newcase-form')`)
	time.Sleep(200 * time.Millisecond) // a second case would be written by now
	n := 0
	for _, c := range b.cases() {
		if c.Title == "Renew the lease" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d cases titled %q, want 1", n, "Renew the lease")
	}
	tb.noProblems(fmt.Sprintf("double submit (%d requests)", len(b.requests(from))))
}
