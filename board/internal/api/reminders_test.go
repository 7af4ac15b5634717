package api_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// setReceivedAt writes a message's date through the store, for dates the
// routes refuse but a hand edit can leave.
func setReceivedAt(t *testing.T, b *board, id, at string) {
	t.Helper()
	_, err := b.Store.Update(context.Background(), wire.ActorHuman, nil, func(tx *store.Tx) error {
		m, _ := tx.Messages().Get(id)
		m.ReceivedAt = at
		tx.Messages().Put(m)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestReminderCreateValidation(t *testing.T) {
	b := newBoard(t)
	for _, tc := range []struct {
		name string
		body any
		msg  string
	}{
		{"title empty after trim", map[string]any{"title": " \t"}, "Field 'title' is required."},
		{"invalid status", map[string]any{"title": "x", "status": "snoozed"}, "field 'status' must be one of open, done, dismissed"},
		{"unparseable dueAt", map[string]any{"title": "x", "dueAt": "next friday"}, "field 'dueAt' must be an ISO date"},
		{"impossible dueAt", map[string]any{"title": "x", "dueAt": "2026-02-30"}, "field 'dueAt' must be an ISO date"},
		{"invalid domain", map[string]any{"title": "x", "domain": "play"}, "field 'domain' must be one of"},
		{"labels not an array", map[string]any{"title": "x", "labels": "blocked"}, "field 'labels' must be an array of strings"},
		{"unknown label", map[string]any{"title": "x", "labels": []string{"blocked", "nope", "also-nope"}}, "unknown label id(s): nope, also-nope. Valid label ids: at-risk, blocked"},
		{"tasks not objects", map[string]any{"title": "x", "tasks": []string{"a"}}, "field 'tasks' must be"},
		{"task title not a string", map[string]any{"title": "x", "tasks": []any{map[string]any{"title": 3}}}, "field 'tasks.title' must be a string"},
		{"task id on create", map[string]any{"title": "x", "tasks": []any{map[string]any{"id": "REM-1-T1", "title": "a"}}}, "leave 'id' out on create"},
		{"unknown case", map[string]any{"title": "x", "caseId": "CASE-7"}, "case CASE-7 not found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sub := *b // report on the subtest
			sub.t = t
			sub.fails(400, tc.msg, "POST", "/api/reminders", tc.body)
		})
	}
	for _, m := range []string{"GET", "PATCH", "DELETE"} {
		b.fails(404, "reminder REM-4 not found", m, "/api/reminders/REM-4", map[string]any{})
	}
	b.fails(404, "reminder REM-4 not found", "POST", "/api/reminders/REM-4/messages", map[string]any{"subject": "x"})
}

func TestReminderCreateNormalizes(t *testing.T) {
	b := newBoard(t)
	for _, due := range []string{"2026-03-01", "2026-03-01T09:30", "2026-03-01T09:30:00Z", "2026-03-01T09:30:00+02:00"} {
		b.must(201, "POST", "/api/reminders", map[string]any{"title": "due " + due, "dueAt": due})
	}
	r := b.must(201, "POST", "/api/reminders", map[string]any{
		"title": " Renew passport ", "labels": []string{" blocked", "blocked", "", "follow-up"},
		"tasks": []map[string]any{{"title": "photos"}, {"title": "  "}, {"title": "form", "done": true}},
	}, agent...).Get("reminder")
	want := map[string]string{
		"id": "REM-5", "title": "Renew passport", "status": "open", "labels": `["blocked","follow-up"]`,
		"tasks": `[{"id":"REM-5-T1","title":"photos","done":false},{"id":"REM-5-T2","title":"form","done":true}]`, "createdBy": "agent",
	}
	for path, w := range want {
		if got := r.Get(path).Raw; strings.Trim(got, `"`) != w {
			t.Errorf("%s = %s, want %s", path, got, w)
		}
	}
	for _, k := range []string{"completedAt", "caseId", "dueAt", "detail", "domain"} {
		if r.Get(k).Exists() {
			t.Errorf("%s present: %s", k, r.Raw)
		}
	}
	// Lists that end up empty collapse to absent.
	r = b.must(201, "POST", "/api/reminders", map[string]any{"title": "bare", "labels": []string{" ", ""}, "tasks": []map[string]any{{"title": ""}}}).Get("reminder")
	if r.Get("labels").Exists() || r.Get("tasks").Exists() {
		t.Errorf("empty lists not collapsed: %s", r.Raw)
	}
	// Created done: completedAt stamped.
	if r = b.must(201, "POST", "/api/reminders", map[string]any{"title": "already", "status": "done"}).Get("reminder"); r.Get("completedAt").String() == "" {
		t.Errorf("done on create without completedAt: %s", r.Raw)
	}
}

func TestReminderStatusMachine(t *testing.T) {
	b := newBoard(t)
	c := newCaseID(b, "Taxes", "initiative") // a reminder may link a node of any tier
	b.must(201, "POST", "/api/reminders", map[string]any{"title": "File", "caseId": c})
	step := func(status string) (completedAt string) {
		t.Helper()
		r := b.must(200, "PATCH", "/api/reminders/REM-1", map[string]any{"status": status}, agent...).Get("reminder")
		if r.Get("status").String() != status {
			t.Fatalf("status %s after PATCH %s", r.Get("status"), status)
		}
		return r.Get("completedAt").String()
	}
	if at := step("dismissed"); at != "" {
		t.Errorf("dismissed has completedAt %s", at)
	}
	first := step("done")
	if first == "" {
		t.Fatal("done without completedAt")
	}
	if again := step("done"); again != first {
		t.Errorf("done -> done restamped completedAt %s -> %s", first, again)
	}
	if at := step("open"); at != "" {
		t.Errorf("leaving done kept completedAt %s", at)
	}
	if step("done") == "" || step("dismissed") != "" {
		t.Error("done -> dismissed must clear completedAt")
	}
	// dismissed, done, done again (no change, no entry), open, done, dismissed.
	want := []string{"human created", "human reminder_linked", "agent reminder_updated", "agent reminder_completed", "agent reminder_updated", "agent reminder_completed", "agent reminder_updated"}
	if diff := cmp.Diff(want, caseVerbs(b, c)); diff != "" {
		t.Errorf("activity on the linked node (-want +got)\n%s", diff)
	}
	b.fails(400, "field 'status' must be one of", "PATCH", "/api/reminders/REM-1", map[string]any{"status": "later"})
	b.fails(400, "field 'status' must be one of", "PATCH", "/api/reminders/REM-1", map[string]any{"status": nil})
}

func TestReminderPatchFieldsAndLinks(t *testing.T) {
	b := newBoard(t)
	c1, c2 := newCaseID(b, "One"), newCaseID(b, "Two")
	b.must(201, "POST", "/api/reminders", map[string]any{"title": "Call", "caseId": c1, "labels": []string{"blocked"}, "detail": "d", "dueAt": "2026-01-01", "domain": "life"})
	b.must(200, "PATCH", "/api/reminders/REM-1", map[string]any{"caseId": c2})
	if diff := cmp.Diff([]string{"human created", "human reminder_linked", "human reminder_unlinked"}, caseVerbs(b, c1)); diff != "" {
		t.Errorf("old node (-want +got)\n%s", diff)
	}
	if diff := cmp.Diff([]string{"human created", "human reminder_linked"}, caseVerbs(b, c2)); diff != "" {
		t.Errorf("new node (-want +got)\n%s", diff)
	}
	r := b.must(200, "PATCH", "/api/reminders/REM-1", map[string]any{"caseId": "", "detail": nil, "dueAt": nil, "domain": "", "labels": []string{}}).Get("reminder")
	for _, k := range []string{"caseId", "detail", "dueAt", "domain", "labels"} {
		if r.Get(k).Exists() {
			t.Errorf("%s not cleared: %s", k, r.Raw)
		}
	}
	b.must(200, "PATCH", "/api/reminders/REM-1", map[string]any{"caseId": c1, "labels": []string{"follow-up", "follow-up"}})
	if got := b.must(200, "GET", "/api/reminders/REM-1", nil).Get("reminder.labels").Raw; got != `["follow-up"]` {
		t.Errorf("labels %s", got)
	}
	b.must(200, "PATCH", "/api/reminders/REM-1", map[string]any{"caseId": nil})
	if got := caseVerbs(b, c1); got[len(got)-1] != "human reminder_unlinked" {
		t.Errorf("null caseId did not unlink: %v", got)
	}
	b.fails(400, "unknown label id(s): ghost. Valid label ids:", "PATCH", "/api/reminders/REM-1", map[string]any{"labels": []string{"follow-up", "ghost"}})
	b.fails(400, "case CASE-9 not found", "PATCH", "/api/reminders/REM-1", map[string]any{"caseId": "CASE-9"})
	b.fails(400, "field 'dueAt' must be an ISO date", "PATCH", "/api/reminders/REM-1", map[string]any{"dueAt": "31/12/2026"})
	b.fails(400, "field 'domain' must be one of", "PATCH", "/api/reminders/REM-1", map[string]any{"domain": "play"})
	b.fails(400, "field 'title' cannot be empty", "PATCH", "/api/reminders/REM-1", map[string]any{"title": ""})
	v := b.Store.Version()
	b.fails(409, "version conflict", "PATCH", "/api/reminders/REM-1", map[string]any{"title": "x", "expectedVersion": v + 5})
	b.must(200, "PATCH", "/api/reminders/REM-1", map[string]any{"title": "Call back", "expectedVersion": v})
}

func TestReminderTaskIDs(t *testing.T) {
	b := newBoard(t)
	b.must(201, "POST", "/api/reminders", map[string]any{"title": "Pack", "tasks": []map[string]any{{"title": "a"}, {"title": "b"}, {"title": "c"}}})
	patch := func(tasks any) string {
		t.Helper()
		return b.must(200, "PATCH", "/api/reminders/REM-1", map[string]any{"tasks": tasks}).Get("reminder.tasks").Raw
	}
	// Kept rows keep their id (and take new titles and done); new rows
	// continue from the highest id; rows with an empty title are dropped.
	got := patch([]map[string]any{{"id": "REM-1-T3", "title": "c!", "done": true}, {"title": "d"}, {"id": "REM-1-T1", "title": "a"}, {"title": " "}})
	if want := `[{"id":"REM-1-T3","title":"c!","done":true},{"id":"REM-1-T4","title":"d","done":false},{"id":"REM-1-T1","title":"a","done":false}]`; got != want {
		t.Errorf("tasks\n got %s\nwant %s", got, want)
	}
	// A kept row with an empty title is removed.
	if got := patch([]map[string]any{{"id": "REM-1-T1", "title": ""}, {"id": "REM-1-T4", "title": "d"}}); got != `[{"id":"REM-1-T4","title":"d","done":false}]` {
		t.Errorf("tasks %s", got)
	}
	b.fails(400, "task REM-1-T9 is not on REM-1", "PATCH", "/api/reminders/REM-1", map[string]any{"tasks": []map[string]any{{"id": "REM-1-T9", "title": "x"}}})
	b.fails(400, "task REM-1-T4 is listed twice", "PATCH", "/api/reminders/REM-1", map[string]any{"tasks": []map[string]any{{"id": "REM-1-T4", "title": "x"}, {"id": "REM-1-T4", "title": "y"}}})
	b.fails(400, "field 'tasks.done' must be a boolean", "PATCH", "/api/reminders/REM-1", map[string]any{"tasks": []map[string]any{{"title": "x", "done": "yes"}}})
	// An empty list, or null, collapses to absent.
	if got := patch([]any{}); got != "" {
		t.Errorf("empty list left %s", got)
	}
	patch([]map[string]any{{"title": "again"}})
	if got := patch(nil); got != "" {
		t.Errorf("null left %s", got)
	}
}

func TestReminderListFilters(t *testing.T) {
	b := newBoard(t)
	c := newCaseID(b, "Home")
	b.must(201, "POST", "/api/reminders", map[string]any{"title": "later", "dueAt": "2026-09-01", "domain": "life"})
	b.must(201, "POST", "/api/reminders", map[string]any{"title": "undated", "caseId": c})
	b.must(201, "POST", "/api/reminders", map[string]any{"title": "sooner", "dueAt": "2026-08-01", "status": "done", "caseId": c})
	b.must(201, "POST", "/api/reminders", map[string]any{"title": "gone", "status": "dismissed", "domain": "work"})
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"", []string{"REM-3", "REM-1", "REM-2", "REM-4"}},
		{"?status=done", []string{"REM-3"}},
		{"?status=open", []string{"REM-1", "REM-2"}},
		{"?status=dismissed", []string{"REM-4"}},
		{"?status=bogus", []string{"REM-3", "REM-1", "REM-2", "REM-4"}}, // applied only when valid
		{"?caseId=" + c, []string{"REM-3", "REM-2"}},
		{"?caseId=" + c + "&status=open", []string{"REM-2"}},
		{"?domain=life", []string{"REM-1"}},
	} {
		got := strList(b.must(200, "GET", "/api/reminders"+tc.query, nil).Get("reminders.#.id"))
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("GET /api/reminders%s (-want +got)\n%s", tc.query, diff)
		}
	}
	b.fails(400, "query 'domain' must be one of", "GET", "/api/reminders?domain=play", nil)
	if got := b.must(200, "GET", "/api/cases/"+c, nil).Get("reminders.#.id").String(); got != `["REM-2","REM-3"]` {
		t.Errorf("case's derived reminders %s", got)
	}
}

func TestReminderMessages(t *testing.T) {
	b := newBoard(t)
	c := newCaseID(b, "Visa")
	b.must(201, "POST", "/api/reminders", map[string]any{"title": "Visa docs", "caseId": c})
	before := caseVerbs(b, c)
	for _, m := range []map[string]any{
		{"subject": "old", "receivedAt": "2026-01-01T08:00:00Z"},
		{"subject": "newest", "receivedAt": "2026-03-01"},
		{"subject": "middle", "receivedAt": "2026-02-01T10:00:00+01:00", "to": "a@x.org, b@x.org", "outbound": true},
	} {
		res := b.must(201, "POST", "/api/reminders/REM-1/messages", m, agent...)
		if res.Get("reminder.id").String() != "REM-1" || res.Get("message.reminderId").String() != "REM-1" || res.Get("version").Int() != b.Store.Version() {
			t.Errorf("link answer %s", res.Raw)
		}
	}
	// An unparseable date, as a hand edit or an old mail tool leaves it,
	// sorts last. The route refuses one, so write it through the store.
	b.must(201, "POST", "/api/cases/"+c+"/messages", map[string]any{"subject": "odd"})
	m := b.must(200, "GET", "/api/messages?caseId="+c, nil).Get("messages.0.id").String()
	b.must(200, "PATCH", "/api/messages/"+m, map[string]any{"reminderId": "REM-1"})
	setReceivedAt(t, b, m, "sometime in spring")
	got := strList(b.must(200, "GET", "/api/reminders/REM-1", nil).Get("messages.#.subject"))
	if diff := cmp.Diff([]string{"newest", "middle", "old", "odd"}, got); diff != "" {
		t.Errorf("messages newest first (-want +got)\n%s", diff)
	}
	// Linking emails to the reminder logged nothing on its case: the one new
	// entry is the case-message route's own.
	if diff := cmp.Diff(append(before, "human message_linked"), caseVerbs(b, c)); diff != "" {
		t.Errorf("reminder messages logged activity (-want +got)\n%s", diff)
	}
	// A message relinked to a missing reminder is a 404 naming the reminder.
	b.fails(404, "Reminder REM-9 not found", "PATCH", "/api/messages/"+m, map[string]any{"reminderId": "REM-9"})
	// Delete keeps the messages, unlinked.
	b.must(200, "DELETE", "/api/reminders/REM-1", nil)
	if got := caseVerbs(b, c); got[len(got)-1] != "human reminder_unlinked" {
		t.Errorf("delete not logged on the node: %v", got)
	}
	msgs := b.must(200, "GET", "/api/messages", nil).Get("messages")
	if n := len(msgs.Array()); n != 4 {
		t.Errorf("%d messages after delete, want all 4", n)
	}
	for _, x := range msgs.Array() {
		if x.Get("reminderId").Exists() {
			t.Errorf("message kept its reminderId: %s", x.Raw)
		}
	}
}

func TestReminderDedupe(t *testing.T) {
	b := newBoard(t)
	first := b.must(201, "POST", "/api/reminders", map[string]any{"title": "Pay  rent", "dueAt": "2026-04-01"})
	v := b.Store.Version()
	again := b.must(200, "POST", "/api/reminders", map[string]any{"title": "pay rent", "dueAt": "2026-04-01", "dedupe": true}, agent...)
	if !again.Get("existing").Bool() || again.Get("reminder.id").String() != first.Get("reminder.id").String() || b.Store.Version() != v {
		t.Errorf("dedupe answer %s (version %d -> %d)", again.Raw, v, b.Store.Version())
	}
	b.must(201, "POST", "/api/reminders", map[string]any{"title": "pay rent", "dueAt": "2026-05-01", "dedupe": true})
	b.must(201, "POST", "/api/reminders", map[string]any{"title": "pay rent", "dedupe": true})
	b.must(201, "POST", "/api/reminders", map[string]any{"title": "pay rent", "dueAt": "2026-04-01"})
}

func TestActivityFeedSynthesizesLifecycleRows(t *testing.T) {
	b := newBoard(t)
	c := newCaseID(b, "Linked")
	b.must(201, "POST", "/api/reminders", map[string]any{"title": "Standalone"}, agent...)
	b.must(201, "POST", "/api/reminders", map[string]any{"title": "On case", "caseId": c})
	b.must(200, "PATCH", "/api/reminders/REM-1", map[string]any{"status": "done"})
	b.must(200, "PATCH", "/api/reminders/REM-2", map[string]any{"status": "done"}, agent...)
	b.must(201, "POST", "/api/events", map[string]any{"title": "Call", "date": "2026-01-02"}, agent...)
	rows := b.must(200, "GET", "/api/activity?limit=100", nil).Get("activity").Array()
	var got []string
	for _, r := range rows {
		if id := r.Get("reminderId").String() + r.Get("eventId").String(); id != "" {
			got = append(got, r.Get("actor").String()+" "+r.Get("verb").String()+" "+id+" "+r.Get("category").String()+" "+r.Get("caseId").String())
		}
	}
	want := []string{
		"agent event_created EVT-1 events ",
		"human reminder_completed REM-1 reminders ",
		// REM-2's completion is already on its case's log: not repeated.
		"human reminder_created REM-2 reminders " + c,
		"agent reminder_created REM-1 reminders ",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("lifecycle rows, newest first (-want +got)\n%s", diff)
	}
	if n := len(b.must(200, "GET", "/api/activity?actor=agent&category=reminders", nil).Get("activity").Array()); n != 2 {
		t.Errorf("agent reminder rows %d, want 2 (REM-1 created, REM-2 completed on the case)", n)
	}
}
