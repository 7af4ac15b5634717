package web

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/opsboard/opsboard/board/internal/testkit"
	"github.com/opsboard/opsboard/shared/wire"
)

// A person sets "every 2 weeks on Mon, Thu" on a new reminder with the
// repeat builder, sees it saved as the RRULE and shown in words, and
// completes it to see the next occurrence; a case's task gets a rule from
// its menu; a repeating event shows on each day it occurs.
func TestRepeatFromThePage(t *testing.T) {
	b := startBoard(t)
	tb := newTab(t, 1280, 860)
	reminders := func() []wire.Reminder {
		var out struct {
			Reminders []wire.Reminder `json:"reminders"`
		}
		b.decode("/api/reminders", &out)
		return out.Reminders
	}
	// set changes a form control as a person would, firing the event the
	// page listens to.
	set := func(sel, value, event string) {
		tb.waitFor(sel, fmt.Sprintf(`!!document.querySelector(%q)`, sel))
		tb.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => { const el = document.querySelector(%q); el.value = %q; el.dispatchEvent(new Event(%q, {bubbles: true})); })()`, sel, value, event)))
	}
	click := func(sel string) {
		tb.waitFor(sel, fmt.Sprintf(`!!document.querySelector(%q)`, sel))
		tb.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector(%q).click()`, sel)))
	}
	clickText := func(sel, text string) {
		tb.waitFor("a "+sel+" reading "+text, fmt.Sprintf(`[...document.querySelectorAll(%q)].some(e => e.textContent.trim() === %q)`, sel, text))
		tb.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`[...document.querySelectorAll(%q)].find(e => e.textContent.trim() === %q).click()`, sel, text)))
	}

	t.Run("reminder", func(t *testing.T) {
		tb.open(b.URL + "/reminders")
		clickText(".page-head button", "New reminder")
		tb.waitFor("the form", `!!document.querySelector('#reminder-form input[required]')`)
		tb.click(`#reminder-form input[required]`)
		tb.do(chromedp.KeyEvent("Water the plants"))
		set(`#reminder-form input[type=date]`, "2026-03-02", "input") // a Monday
		set(`select[aria-label="Repeat"]`, "weekly", "change")
		set(`input[aria-label="Repeat every"]`, "2", "input")
		tb.waitFor("Monday ticked from the due date", `(document.querySelector('input[aria-label="Repeat on Monday"]') || {}).checked === true`)
		click(`input[aria-label="Repeat on Thursday"]`)
		tb.waitFor("the rule in words", `(document.querySelector('.repeat-words') || {}).textContent === 'Repeats every 2 weeks on Mon, Thu.'`)
		if testing.Verbose() {
			tb.shot("repeat-builder")
		}
		clickText(".modal-foot button", "Add reminder")
		var id string
		testkit.Eventually(t, "the reminder with its rule", func() bool {
			for _, r := range reminders() {
				if r.Title == "Water the plants" && r.Repeat == "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH" && r.DueAt == "2026-03-02" {
					id = r.ID
				}
			}
			return id != ""
		})
		row := fmt.Sprintf("#rem-%s", id)
		tb.waitFor("the rule in words on the row", fmt.Sprintf(`(document.querySelector('%s .repeat-text') || {}).textContent === '↻ every 2 weeks on Mon, Thu'`, row))

		click(`button[aria-label="Complete Water the plants"]`)
		var next wire.Reminder
		testkit.Eventually(t, "the next occurrence", func() bool {
			for _, r := range reminders() {
				if r.ID != id && r.Title == "Water the plants" {
					next = r
				}
			}
			return next.ID != ""
		})
		if next.DueAt != "2026-03-05" || next.Status != wire.ReminderOpen || next.Repeat != "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH" {
			t.Errorf("next occurrence %+v", next)
		}
		tb.waitFor("the next occurrence on the page", fmt.Sprintf(`(document.querySelector('#rem-%s .repeat-text') || {}).textContent === '↻ every 2 weeks on Mon, Thu'`, next.ID))
		if testing.Verbose() {
			tb.shot("repeat-reminders")
		}
		tb.waitFor("the toast naming it", `[...document.querySelectorAll('.toast')].some(e => e.textContent.includes('Next “Water the plants”'))`)
		tb.noProblems("repeat a reminder")
	})

	t.Run("task", func(t *testing.T) {
		id := str(b.call("POST", "/api/cases", map[string]any{"title": "Payroll", "tasks": []map[string]any{{"title": "Run payroll", "dueAt": "2026-01-30"}}}, false), "case", "id")
		tb.open(b.URL + "/board?case=" + id)
		click(`button[aria-label="Actions for task Run payroll"]`)
		clickText(`[role=menuitem]`, "Repeat…")
		set(`#repeat-form select[aria-label="Repeat"]`, "monthnth", "change")
		tb.waitFor("the last Friday from the due date", `(document.querySelector('.repeat-words') || {}).textContent === 'Repeats monthly on the last Friday.'`)
		clickText(".modal-foot button", "Save")
		testkit.Eventually(t, "the task's rule", func() bool {
			var out struct {
				Case wire.Case `json:"case"`
			}
			b.decode("/api/cases/"+id, &out)
			return len(out.Case.Tasks) == 1 && out.Case.Tasks[0].Repeat == "FREQ=MONTHLY;BYDAY=-1FR"
		})
		tb.waitFor("the rule in words on the task", `(document.querySelector('[data-task] .repeat-text') || {}).textContent === '↻ monthly on the last Friday'`)
		tb.noProblems("repeat a task")
	})

	t.Run("event", func(t *testing.T) {
		b.call("POST", "/api/events", map[string]any{"title": "Standup", "date": "2026-03-02", "startTime": "09:00", "repeat": "FREQ=WEEKLY;BYDAY=MO,TH"}, false)
		tb.open(b.URL + "/calendar?d=2026-03-10")
		tb.waitFor("every Monday and Thursday of the month", `[...document.querySelectorAll('.ev')].filter(e => e.textContent.includes('↻ Standup')).length >= 9`)
		tb.do(chromedp.Evaluate[chromedp.Void](`[...document.querySelectorAll('.ev')].filter(e => e.textContent.includes('Standup'))[3].click()`))
		tb.waitFor("the series in the editor", `(document.querySelector('#event-form input[type=date]') || {}).value === '2026-03-02' && (document.querySelector('#event-form .repeat-words') || {}).textContent === 'Repeats weekly on Mon, Thu.'`)
		tb.noProblems("repeating event")
	})
}
