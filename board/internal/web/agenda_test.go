package web

import (
	"fmt"
	"testing"
	"time"

	"github.com/opsboard/opsboard/board/internal/testkit"
)

// itemSel selects an agenda row: kind is task, reminder or event.
func itemSel(kind, id string) string { return fmt.Sprintf(`[data-item=%q]`, kind+":"+id) }

// TestAgendaActsInPlace: the Agenda is first in the sidebar with the count
// of what is due; it shows overdue, today and the week, and the proposals
// waiting; each is completed, snoozed, opened, approved or rejected in
// place, through the API, and an agent's write shows without a reload.
func TestAgendaActsInPlace(t *testing.T) {
	b := startBoard(t)
	tb := newTab(t, 1280, 900)
	// An empty board's welcome ends on the Agenda.
	tb.open(b.URL + "/board")
	tb.waitFor("the welcome's last step", `document.querySelector('[data-welcome] section:last-child a[data-welcome-agenda]')?.getAttribute('href') === '/agenda'`)

	b.call("PATCH", "/api/prefs", map[string]any{"timezone": "UTC"}, false)
	now := time.Now().UTC()
	day := func(n int) string { return now.AddDate(0, 0, n).Format("2006-01-02") }
	lease := str(b.call("POST", "/api/cases", map[string]any{"title": "Sign the lease"}, false), "case", "id")
	seats := str(b.call("POST", "/api/cases", map[string]any{"title": "Cancel the design tool seats"}, false), "case", "id")
	task := str(b.call("POST", "/api/cases/"+lease+"/tasks", map[string]any{"title": "Send the deposit", "dueAt": day(-1)}, false), "task", "id")
	notary := str(b.call("POST", "/api/reminders", map[string]any{"title": "Call the notary", "dueAt": day(0), "caseId": lease}, false), "reminder", "id")
	invoice := str(b.call("POST", "/api/reminders", map[string]any{"title": "Pay the invoice", "dueAt": day(0)}, false), "reminder", "id")
	permit := str(b.call("POST", "/api/reminders", map[string]any{"title": "Renew the permit", "dueAt": day(3)}, false), "reminder", "id")
	walk := str(b.call("POST", "/api/events", map[string]any{"title": "Walkthrough", "date": day(0), "allDay": true, "caseId": lease}, false), "event", "id")
	move := str(b.call("POST", "/api/pending", map[string]any{"verb": "update_case", "summary": "Move the lease to In progress",
		"payload": map[string]any{"id": lease, "status": "in_progress"}}, true), "proposal", "id")
	archive := str(b.call("POST", "/api/pending", map[string]any{"verb": "archive", "summary": "Archive the seats case",
		"payload": map[string]any{"id": seats}}, true), "proposal", "id")

	tb.open(b.URL + "/board")
	tb.waitFor("the Agenda first in the sidebar", `document.querySelector('.sidebar .nav-list .nav-item')?.getAttribute('href') === '/agenda'`)
	tb.waitFor("the count of what is due", `document.querySelector('[data-testid=due-count]')?.textContent === '3'`)
	tb.click(`a.nav-item[href="/agenda"]`)
	tb.settle()
	tb.waitFor("the agenda's rows", fmt.Sprintf(`!!document.querySelector('[data-group=overdue] %s') && !!document.querySelector('[data-group=today] %s') && !!document.querySelector('[data-group=today] %s')
		&& !!document.querySelector('[data-group=today] %s') && !!document.querySelector('[data-group=%q] %s') && document.querySelectorAll('[data-proposal]').length === 2`,
		itemSel("task", task), itemSel("reminder", notary), itemSel("reminder", invoice), itemSel("event", walk), day(3), itemSel("reminder", permit)))
	tb.shot("agenda")
	if bad := tb.unlabeled(); len(bad) > 0 {
		t.Errorf("controls without an accessible name: %v", bad)
	}

	// Complete the overdue task and a reminder; snooze the other.
	tb.click(itemSel("task", task) + ` [data-complete]`)
	tb.waitFor("the task to leave", fmt.Sprintf(`!document.querySelector(%q)`, itemSel("task", task)))
	var c struct {
		Case struct {
			Status string `json:"status"`
			Tasks  []struct {
				CompletedAt string `json:"completedAt"`
			} `json:"tasks"`
		} `json:"case"`
	}
	b.decode("/api/cases/"+lease, &c)
	if len(c.Case.Tasks) != 1 || c.Case.Tasks[0].CompletedAt == "" {
		t.Errorf("the task is not completed on the board: %+v", c.Case.Tasks)
	}
	tb.click(itemSel("reminder", invoice) + ` [data-complete]`)
	tb.click(itemSel("reminder", notary) + ` [data-snooze]`)
	testkit.Eventually(t, "the reminders done and snoozed", func() bool {
		var r1, r2 struct {
			Reminder struct{ Status, DueAt string } `json:"reminder"`
		}
		b.decode("/api/reminders/"+invoice, &r1)
		b.decode("/api/reminders/"+notary, &r2)
		return r1.Reminder.Status == "done" && r2.Reminder.Status == "open" && r2.Reminder.DueAt == day(1)
	})
	tb.waitFor("the snoozed reminder under tomorrow and the count at zero", fmt.Sprintf(`!!document.querySelector('[data-group=%q] %s') && !document.querySelector('[data-testid=due-count]')`,
		day(1), itemSel("reminder", notary)))

	// The agent's write shows without a reload, and counts.
	fresh := str(b.call("POST", "/api/reminders", map[string]any{"title": "Book the movers", "dueAt": day(0)}, true), "reminder", "id")
	tb.waitFor("the agent's reminder", fmt.Sprintf(`!!document.querySelector('[data-group=today] %s') && document.querySelector('[data-testid=due-count]')?.textContent === '1'`, itemSel("reminder", fresh)))

	// Approve one proposal and reject the other. The lease changed since
	// the agent proposed the move, so the page asks first, as Proposals does.
	tb.click(fmt.Sprintf(`[data-proposal=%q] [data-approve]`, move))
	tb.waitFor("the stale proposal's question", `[...document.querySelectorAll('.modal-foot button')].some((x) => x.textContent.includes('Approve anyway'))`)
	tb.clickText(".modal-foot button", "Approve anyway")
	tb.waitFor("the approved proposal to leave", fmt.Sprintf(`!document.querySelector('[data-proposal=%q]')`, move))
	b.decode("/api/cases/"+lease, &c)
	if c.Case.Status != "in_progress" {
		t.Errorf("the approved proposal left the lease in %q", c.Case.Status)
	}
	tb.click(fmt.Sprintf(`[data-proposal=%q] [data-reject]`, archive))
	tb.waitFor("the rejected proposal to leave", `document.querySelectorAll('[data-proposal]').length === 0`)
	var pend struct {
		Pending []any `json:"pending"`
	}
	b.decode("/api/pending", &pend)
	if len(pend.Pending) != 0 {
		t.Errorf("%d proposals still wait after approve and reject", len(pend.Pending))
	}
	var sc struct {
		Case struct {
			ArchivedAt string `json:"archivedAt"`
		} `json:"case"`
	}
	b.decode("/api/cases/"+seats, &sc)
	if sc.Case.ArchivedAt != "" {
		t.Error("the rejected archive was applied")
	}

	// Open the case of an event.
	tb.click(itemSel("event", walk) + ` [data-open-case]`)
	tb.waitFor("the case drawer", fmt.Sprintf(`location.pathname === '/agenda' && location.search.includes('case=%s') && !!document.querySelector('.drawer')`, lease))
	// An approval sends the version the person saw; the board moved on since
	// (the writes above), so the first try meets a 409 and is retried.
	tb.noProblems("agenda", "/approve:0")
}
