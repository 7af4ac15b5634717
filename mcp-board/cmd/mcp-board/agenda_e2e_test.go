package main

import (
	"strings"
	"testing"
	"time"
)

// agendaFamily drives agenda and list_messages through the session: the
// board's zone set by hand, a task overdue, a reminder and an event ahead,
// and the inbox paged with the cursor the tool prints.
func agendaFamily(t *testing.T, w *world) {
	movers := w.ids["movers"]
	w.board.Human(t, "PATCH", "/api/prefs", map[string]any{"timezone": "Pacific/Auckland"}, nil)
	loc, err := time.LoadLocation("Pacific/Auckland")
	if err != nil {
		t.Fatal(err)
	}
	today := time.Now().In(loc)
	day := func(n int) string { return today.AddDate(0, 0, n).Format("2006-01-02") }
	out := w.ok(t, "add_task", map[string]any{"caseId": movers, "title": "Sign the lease", "dueAt": day(-2)}, "Added")
	task := strings.Fields(out[strings.Index(out, movers+"-T"):])[0]
	w.ok(t, "create_reminder", map[string]any{"title": "Pay the deposit", "dueAt": day(3), "caseId": movers}, "Created")
	// The calendar tools live on the other server; the event is the agent's all the same.
	w.board.Human(t, "POST", "/api/events", map[string]any{"title": "Walkthrough", "date": day(1), "startTime": "15:00", "caseId": movers, "actor": "agent"}, nil)
	w.ok(t, "add_task", map[string]any{"caseId": movers, "title": "Book the truck", "dueAt": "2030-01-20T08:00"}, "Added")

	out = w.ok(t, "agenda", nil,
		"Today is "+today.Format("Mon 2006-01-02"), "Pacific/Auckland",
		"Overdue\n- [task] "+task+" - Sign the lease - on "+movers+" - overdue 2 d",
		"(tomorrow)\n- [event] EVT-", "Walkthrough - case "+movers+" - tomorrow 15:00",
		"Pay the deposit - case "+movers+" - in 3 d")
	if strings.Contains(out, "Book the truck") {
		t.Errorf("a task due in 2030 is on the default agenda:\n%s", out)
	}
	w.ok(t, "agenda", map[string]any{"from": "2030-01-01", "to": "2030-01-31"}, "Book the truck", "1 item", "(Sun 01-20 08:00)")
	w.s.Refused(t, "agenda", map[string]any{"from": "next week"}, "'from'")
	w.s.Refused(t, "agenda", map[string]any{"from": "2030-02-01", "to": "2030-01-01"}, "'from'")

	out = w.ok(t, "list_messages", map[string]any{"limit": 1}, "1 messages, newest first", "More: call list_messages again with cursor")
	cursor := out[strings.Index(out, `cursor "`)+len(`cursor "`):]
	cursor = cursor[:strings.Index(cursor, `"`)]
	next := w.ok(t, "list_messages", map[string]any{"limit": 1, "cursor": cursor})
	if next == out {
		t.Errorf("the second page repeats the first:\n%s", out)
	}
	w.ok(t, "list_messages", map[string]any{"caseId": movers}, w.ids["message"], "End of the list.")
	w.ok(t, "list_messages", map[string]any{"caseId": "CASE-999"}, "No messages match.")
	w.s.Refused(t, "list_messages", map[string]any{"cursor": "garbage!"}, "'cursor'")

	// The search tool reads notes and email bodies.
	w.ok(t, "add_note", map[string]any{"caseId": movers, "text": "The van needs a xylophone-sized crate"}, "")
	w.ok(t, "search", map[string]any{"q": "xylophone"}, "[case] "+movers)
	w.ok(t, "search", map[string]any{"q": "900", "types": []any{"message"}}, "[message] "+w.ids["message"])

	// The person moved desks by hand today: the agent's move back is refused
	// as an answer the model acts on, and nothing changes.
	desks := w.ids["desks"]
	before := w.caseOf(t, desks).Case.Status
	w.ok(t, "update_case", map[string]any{"id": desks, "status": "todo"},
		"Not changed, the person's change stands (field status = ", ", changed by the human at", "propose")
	if after := w.caseOf(t, desks).Case.Status; after != before {
		t.Errorf("a refused update moved %s from %s to %s", desks, before, after)
	}
}
