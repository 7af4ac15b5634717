package api_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-ical"
	"github.com/google/go-cmp/cmp"
)

// Completing a repeating reminder stamps it done and creates the next
// occurrence in the same write: due at the rule's next occurrence after the
// old due date, with the same text, labels, node link and checklist
// (unticked), and the rule carried on.
func TestRepeatingReminderCompletes(t *testing.T) {
	for _, tc := range []struct {
		name, rule, due  string
		nextDue, nextRep string
	}{
		{"daily", "FREQ=DAILY", "2026-03-01", "2026-03-02", "FREQ=DAILY"},
		{"every 2 weeks on Mon, Thu", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH", "2026-03-05", "2026-03-16", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH"},
		{"monthly on a day", "FREQ=MONTHLY;BYMONTHDAY=31", "2026-01-31T09:00", "2026-03-31T09:00", "FREQ=MONTHLY;BYMONTHDAY=31"},
		{"monthly on the 2nd Tuesday", "freq=monthly;byday=2tu", "2026-03-10", "2026-04-14", "FREQ=MONTHLY;BYDAY=2TU"},
		{"yearly", "FREQ=YEARLY", "2026-11-26", "2027-11-26", "FREQ=YEARLY"},
		{"count counts down", "FREQ=DAILY;COUNT=3", "2026-03-01", "2026-03-02", "FREQ=DAILY;COUNT=2"},
		{"until keeps going before its day", "FREQ=DAILY;UNTIL=20260310", "2026-03-01", "2026-03-02", "FREQ=DAILY;UNTIL=20260310"},
		{"offset across daylight saving", "FREQ=WEEKLY", "2026-03-23T09:00:00+01:00", "2026-03-30T09:00:00+02:00", "FREQ=WEEKLY"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBoard(t)
			b.must(http.StatusOK, "PATCH", "/api/prefs", map[string]any{"timezone": "Europe/Berlin"})
			c := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Household"})
			caseID := c.Get("case.id").String()
			label := b.must(http.StatusOK, "GET", "/api/labels", nil).Get("labels.0.id").String()
			created := b.must(http.StatusCreated, "POST", "/api/reminders", map[string]any{
				"title": "Water the plants", "detail": "balcony too", "dueAt": tc.due, "repeat": tc.rule, "caseId": caseID,
				"labels": []string{label}, "domain": "life", "tasks": []map[string]any{{"title": "inside"}, {"title": "balcony", "done": true}},
			})
			id := created.Get("reminder.id").String()
			if got := created.Get("reminder.repeat").String(); got != strings.ToUpper(strings.TrimPrefix(tc.rule, "RRULE:")) && got != tc.nextRep {
				t.Fatalf("repeat stored as %q", got)
			}
			before := b.Store.Version()
			// Tick a row first: the next occurrence starts unticked anyway.
			done := b.must(http.StatusOK, "PATCH", "/api/reminders/"+id, map[string]any{"status": "done"})
			if after := b.Store.Version(); after != before+1 {
				t.Fatalf("completion took %d writes, want one", after-before)
			}
			if got := done.Get("reminder.status").String(); got != "done" {
				t.Fatalf("status %q", got)
			}
			next := done.Get("next")
			nextID := next.Get("id").String()
			if nextID == "" || nextID == id {
				t.Fatalf("no next occurrence in the reply: %s", done.Raw)
			}
			if got := done.Get("reminder.nextId").String(); got != nextID {
				t.Errorf("nextId %q, want %q", got, nextID)
			}
			if done.Get("reminder.repeat").Exists() {
				t.Errorf("the completed occurrence keeps its rule: %s", done.Get("reminder").Raw)
			}
			stored := b.must(http.StatusOK, "GET", "/api/reminders/"+nextID, nil).Get("reminder")
			want := map[string]any{
				"title": "Water the plants", "detail": "balcony too", "status": "open", "dueAt": tc.nextDue, "repeat": tc.nextRep,
				"caseId": caseID, "domain": "life", "labels": []any{label},
				"tasks": []any{map[string]any{"id": nextID + "-T1", "title": "inside", "done": false}, map[string]any{"id": nextID + "-T2", "title": "balcony", "done": false}},
			}
			got := map[string]any{}
			for k := range want {
				got[k] = stored.Get(k).Value()
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("next occurrence (-want +got)\n%s", diff)
			}
			// Reopening and completing the done one again repeats nothing twice.
			b.must(http.StatusOK, "PATCH", "/api/reminders/"+id, map[string]any{"status": "open"})
			again := b.must(http.StatusOK, "PATCH", "/api/reminders/"+id, map[string]any{"status": "done"})
			if again.Get("next").Exists() {
				t.Errorf("a second completion made another occurrence: %s", again.Raw)
			}
			if n := len(b.must(http.StatusOK, "GET", "/api/reminders", nil).Get("reminders").Array()); n != 2 {
				t.Errorf("%d reminders, want 2", n)
			}
		})
	}
}

// The last occurrence of a series (COUNT=1, or UNTIL passed) completes
// without a next one.
func TestRepeatingReminderSeriesEnds(t *testing.T) {
	for _, rule := range []string{"FREQ=DAILY;COUNT=1", "FREQ=WEEKLY;UNTIL=20260305"} {
		b := newBoard(t)
		id := b.must(http.StatusCreated, "POST", "/api/reminders", map[string]any{"title": "Last", "dueAt": "2026-03-01", "repeat": rule}).Get("reminder.id").String()
		done := b.must(http.StatusOK, "PATCH", "/api/reminders/"+id, map[string]any{"status": "done"})
		if done.Get("next").Exists() || done.Get("reminder.nextId").Exists() {
			t.Errorf("%s: the series went on: %s", rule, done.Raw)
		}
		if n := len(b.must(http.StatusOK, "GET", "/api/reminders", nil).Get("reminders").Array()); n != 1 {
			t.Errorf("%s: %d reminders, want 1", rule, n)
		}
	}
}

// Completing a repeating case task adds the next task to the case in one
// write, with the same title, detail and rule, due at the next occurrence.
func TestRepeatingTaskCompletes(t *testing.T) {
	for _, tc := range []struct{ name, rule, due, nextDue, nextRep string }{
		{"weekly on days", "FREQ=WEEKLY;BYDAY=MO,TH", "2026-03-02", "2026-03-05", "FREQ=WEEKLY;BYDAY=MO,TH"},
		{"monthly last Friday", "FREQ=MONTHLY;BYDAY=-1FR", "2026-01-30T17:00", "2026-02-27T17:00", "FREQ=MONTHLY;BYDAY=-1FR"},
		{"every 3 days, twice more", "FREQ=DAILY;INTERVAL=3;COUNT=3", "2026-03-01", "2026-03-04", "FREQ=DAILY;INTERVAL=3;COUNT=2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBoard(t)
			caseID := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Payroll"}).Get("case.id").String()
			task := b.must(http.StatusCreated, "POST", "/api/cases/"+caseID+"/tasks", map[string]any{"title": "Run payroll", "detail": "check hours", "dueAt": tc.due, "repeat": tc.rule}).Get("task")
			before := b.Store.Version()
			done := b.must(http.StatusOK, "PATCH", "/api/cases/"+caseID+"/tasks/"+task.Get("id").String(), map[string]any{"completed": true})
			if after := b.Store.Version(); after != before+1 {
				t.Fatalf("completion took %d writes, want one", after-before)
			}
			next := done.Get("next")
			if next.Get("id").String() != caseID+"-T2" || done.Get("task.nextId").String() != caseID+"-T2" || done.Get("task.completedAt").String() == "" {
				t.Fatalf("reply %s", done.Raw)
			}
			tasks := b.must(http.StatusOK, "GET", "/api/cases/"+caseID, nil).Get("case.tasks").Array()
			if len(tasks) != 2 {
				t.Fatalf("%d tasks, want 2", len(tasks))
			}
			n := tasks[1]
			got := []string{n.Get("title").String(), n.Get("detail").String(), n.Get("dueAt").String(), n.Get("repeat").String(), n.Get("completedAt").String()}
			if diff := cmp.Diff([]string{"Run payroll", "check hours", tc.nextDue, tc.nextRep, ""}, got); diff != "" {
				t.Errorf("next task (-want +got)\n%s", diff)
			}
			if tasks[0].Get("repeat").Exists() {
				t.Errorf("the completed task keeps its rule")
			}
		})
	}
}

// A rule that does not parse, or one on an item without a due date, is a
// 400 naming the field, and changes nothing.
func TestRepeatRefused(t *testing.T) {
	b := newBoard(t)
	caseID := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Ops"}).Get("case.id").String()
	remID := b.must(http.StatusCreated, "POST", "/api/reminders", map[string]any{"title": "Dated", "dueAt": "2026-03-01", "repeat": "FREQ=DAILY"}).Get("reminder.id").String()
	plainID := b.must(http.StatusCreated, "POST", "/api/reminders", map[string]any{"title": "Undated"}).Get("reminder.id").String()
	taskID := b.must(http.StatusCreated, "POST", "/api/cases/"+caseID+"/tasks", map[string]any{"title": "Undated"}).Get("task.id").String()
	evID := b.must(http.StatusCreated, "POST", "/api/events", map[string]any{"title": "Standup", "date": "2026-03-02"}).Get("event.id").String()
	for _, tc := range []struct {
		method, path, msg string
		body              any
	}{
		{"POST", "/api/reminders", "repeat: FREQ=HOURLY is not supported", map[string]any{"title": "x", "dueAt": "2026-03-01", "repeat": "FREQ=HOURLY"}},
		{"POST", "/api/reminders", "repeat: BYSETPOS is not supported", map[string]any{"title": "x", "dueAt": "2026-03-01", "repeat": "FREQ=MONTHLY;BYSETPOS=-1"}},
		{"POST", "/api/reminders", "repeat: an item repeats from its due date; set 'dueAt'", map[string]any{"title": "x", "repeat": "FREQ=DAILY"}},
		{"PATCH", "/api/reminders/" + plainID, "repeat: an item repeats from its due date", map[string]any{"repeat": "FREQ=WEEKLY"}},
		{"PATCH", "/api/reminders/" + remID, "repeat: an item repeats from its due date", map[string]any{"dueAt": nil}},
		{"PATCH", "/api/reminders/" + remID, "repeat: UNTIL and COUNT cannot both be set", map[string]any{"repeat": "FREQ=DAILY;COUNT=2;UNTIL=20260401"}},
		{"POST", "/api/cases/" + caseID + "/tasks", "repeat: an item repeats from its due date", map[string]any{"title": "x", "repeat": "FREQ=DAILY"}},
		{"POST", "/api/cases/" + caseID + "/tasks", "repeat: INTERVAL must be", map[string]any{"title": "x", "dueAt": "2026-03-01", "repeat": "FREQ=DAILY;INTERVAL=0"}},
		{"PATCH", "/api/cases/" + caseID + "/tasks/" + taskID, "repeat: an item repeats from its due date", map[string]any{"repeat": "FREQ=DAILY"}},
		{"POST", "/api/cases", "tasks[0].repeat: an item repeats from its due date; set 'tasks[0].dueAt'", map[string]any{"title": "x", "tasks": []map[string]any{{"title": "t", "repeat": "FREQ=DAILY"}}}},
		{"POST", "/api/events", "repeat: BYDAY=2TU is not supported with FREQ=WEEKLY", map[string]any{"title": "x", "date": "2026-03-02", "repeat": "FREQ=WEEKLY;BYDAY=2TU"}},
		{"PATCH", "/api/events/" + evID, "repeat: \"WEEKLY\" is not NAME=VALUE", map[string]any{"repeat": "WEEKLY"}},
	} {
		b.fails(http.StatusBadRequest, tc.msg, tc.method, tc.path, tc.body)
	}
	// null clears a rule; then dueAt may go.
	r := b.must(http.StatusOK, "PATCH", "/api/reminders/"+remID, map[string]any{"repeat": nil, "dueAt": nil})
	if r.Get("reminder.repeat").Exists() || r.Get("reminder.dueAt").Exists() {
		t.Errorf("not cleared: %s", r.Raw)
	}
}

// A ranged read lists a repeating event once per occurrence in the range,
// each a copy of the master with its day and occurrenceOf; an edit of the
// master moves the whole series.
func TestRepeatingEventExpands(t *testing.T) {
	b := newBoard(t)
	b.must(http.StatusOK, "PATCH", "/api/prefs", map[string]any{"timezone": "Europe/Berlin"})
	id := b.must(http.StatusCreated, "POST", "/api/events", map[string]any{"title": "Standup", "date": "2026-03-02", "startTime": "09:00", "endTime": "09:15", "repeat": "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH"}).Get("event.id").String()
	b.must(http.StatusCreated, "POST", "/api/events", map[string]any{"title": "Review", "date": "2026-03-10", "allDay": true, "repeat": "FREQ=MONTHLY;BYDAY=2TU;COUNT=2"})
	b.must(http.StatusCreated, "POST", "/api/events", map[string]any{"title": "One-off", "date": "2026-03-18"})
	list := func(q string) []string {
		var out []string
		for _, e := range b.must(http.StatusOK, "GET", "/api/events"+q, nil).Get("events").Array() {
			s := e.Get("date").String() + " " + e.Get("title").String()
			if of := e.Get("occurrenceOf").String(); of != "" {
				s += " of " + of
				if e.Get("id").String() != of || e.Get("startTime").String() != "09:00" && e.Get("title").String() == "Standup" {
					t.Errorf("occurrence %s", e.Raw)
				}
			}
			out = append(out, s)
		}
		return out
	}
	got := list("?from=2026-03-01&to=2026-05-01")
	// Chronological order, all-day first on a day.
	want := []string{
		"2026-03-02 Standup of " + id, "2026-03-05 Standup of " + id, "2026-03-10 Review of EVT-2",
		"2026-03-16 Standup of " + id, "2026-03-18 One-off", "2026-03-19 Standup of " + id,
		"2026-03-30 Standup of " + id, "2026-04-02 Standup of " + id, "2026-04-13 Standup of " + id,
		"2026-04-14 Review of EVT-2", "2026-04-16 Standup of " + id, "2026-04-27 Standup of " + id, "2026-04-30 Standup of " + id,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("March and April (-want +got)\n%s", diff)
	}
	// The agenda has the series on each day it occurs.
	var agenda []string
	for _, it := range b.must(http.StatusOK, "GET", "/api/agenda?from=2026-03-01&to=2026-03-10", nil).Get("items").Array() {
		agenda = append(agenda, it.Get("dueAt").String()+" "+it.Get("title").String())
	}
	if diff := cmp.Diff([]string{"2026-03-02T09:00:00+01:00 Standup", "2026-03-05T09:00:00+01:00 Standup", "2026-03-10 Review"}, agenda); diff != "" {
		t.Errorf("agenda (-want +got)\n%s", diff)
	}
	// Without both bounds a series is listed once, as its master.
	if diff := cmp.Diff([]string{"2026-03-02 Standup", "2026-03-10 Review", "2026-03-18 One-off"}, list("?from=2026-03-17")); diff != "" {
		t.Errorf("from only (-want +got)\n%s", diff)
	}
	// An edit of the master applies to the series.
	b.must(http.StatusOK, "PATCH", "/api/events/"+id, map[string]any{"repeat": "FREQ=WEEKLY;BYDAY=FR", "date": "2026-03-06"})
	if diff := cmp.Diff([]string{"2026-03-06 Standup of " + id, "2026-03-10 Review of EVT-2", "2026-03-13 Standup of " + id}, list("?from=2026-03-01&to=2026-03-14")); diff != "" {
		t.Errorf("after the edit (-want +got)\n%s", diff)
	}
	if ev := b.must(http.StatusOK, "GET", "/api/events/"+id, nil).Get("event"); ev.Get("repeat").String() != "FREQ=WEEKLY;BYDAY=FR" || ev.Get("occurrenceOf").Exists() {
		t.Errorf("master %s", ev.Raw)
	}
}

// The feed writes a repeating event once, with its RRULE, and a real
// iCalendar parser expands it to the same days the board does, at the same
// wall-clock time across the change to summer time.
func TestRepeatingEventICS(t *testing.T) {
	b := newBoard(t)
	b.must(http.StatusOK, "PATCH", "/api/prefs", map[string]any{"timezone": "Europe/Berlin"})
	b.must(http.StatusCreated, "POST", "/api/events", map[string]any{"title": "Standup", "date": "2026-03-23", "startTime": "09:00", "endTime": "09:15", "repeat": "FREQ=WEEKLY;BYDAY=MO,TH;UNTIL=20260402"})
	b.must(http.StatusCreated, "POST", "/api/events", map[string]any{"title": "Review", "date": "2026-03-10", "allDay": true, "repeat": "FREQ=MONTHLY;BYDAY=2TU;COUNT=3"})
	cal, raw := getICS(t, b)
	events := cal.Events()
	if len(events) != 2 {
		t.Fatalf("%d VEVENTs, want one per series:\n%s", len(events), raw)
	}
	berlin, _ := time.LoadLocation("Europe/Berlin")
	want := map[string][]string{
		"Standup": {"2026-03-23 09:00 +0100", "2026-03-26 09:00 +0100", "2026-03-30 09:00 +0200", "2026-04-02 09:00 +0200"},
		"Review":  {"2026-03-10 00:00 +0100", "2026-04-14 00:00 +0200", "2026-05-12 00:00 +0200"},
	}
	rules := map[string]string{"Standup": "FREQ=WEEKLY;UNTIL=20260402T215959Z;BYDAY=MO,TH", "Review": "FREQ=MONTHLY;COUNT=3;BYDAY=+2TU"}
	for _, ev := range events {
		title, _ := ev.Props.Text(ical.PropSummary)
		ro, err := ev.Props.RecurrenceRule()
		if err != nil || ro == nil {
			t.Fatalf("%s: RRULE %v %v", title, ro, err)
		}
		if got := ro.RRuleString(); got != rules[title] {
			t.Errorf("%s: RRULE %q, want %q", title, got, rules[title])
		}
		set, err := ev.RecurrenceSet(berlin)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, at := range set.All() {
			got = append(got, at.Format("2006-01-02 15:04 -0700"))
		}
		if diff := cmp.Diff(want[title], got); diff != "" {
			t.Errorf("%s as a calendar app expands it (-want +got)\n%s", title, diff)
		}
	}
	// The zone the starts name is defined in the feed (RFC 5545 3.6.5).
	var zones []string
	for _, c := range cal.Children {
		if c.Name != ical.CompTimezone {
			continue
		}
		id, _ := c.Props.Text(ical.PropTimezoneID)
		zones = append(zones, "TZID "+id)
		for _, part := range c.Children {
			from, to, rule := part.Props.Get(ical.PropTimezoneOffsetFrom), part.Props.Get(ical.PropTimezoneOffsetTo), part.Props.Get(ical.PropRecurrenceRule)
			if from == nil || to == nil || rule == nil {
				t.Fatalf("%s lacks offsets or its rule", part.Name)
			}
			zones = append(zones, part.Name+" "+from.Value+" "+to.Value+" "+rule.Value)
		}
	}
	if diff := cmp.Diff([]string{
		"TZID Europe/Berlin",
		"DAYLIGHT +0100 +0200 FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
		"STANDARD +0200 +0100 FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU",
	}, zones); diff != "" {
		t.Errorf("VTIMEZONE (-want +got)\n%s", diff)
	}
	// The board's own expansion agrees on the days.
	var days []string
	for _, e := range b.must(http.StatusOK, "GET", "/api/events?from=2026-03-01&to=2026-06-01", nil).Get("events").Array() {
		days = append(days, e.Get("date").String()+" "+e.Get("title").String())
	}
	if diff := cmp.Diff([]string{"2026-03-10 Review", "2026-03-23 Standup", "2026-03-26 Standup", "2026-03-30 Standup", "2026-04-02 Standup", "2026-04-14 Review", "2026-05-12 Review"}, days); diff != "" {
		t.Errorf("board expansion (-want +got)\n%s", diff)
	}
}

// A merge renumbers the source's tasks under the target; a completed
// repeating task's nextId follows its next task there.
func TestRepeatingTaskMerged(t *testing.T) {
	b := newBoard(t)
	src := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Payroll", "tasks": []map[string]any{{"title": "Run payroll", "dueAt": "2026-03-02", "repeat": "FREQ=WEEKLY"}}}).Get("case.id").String()
	dst := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Finance", "tasks": []map[string]any{{"title": "Close books"}}}).Get("case.id").String()
	b.must(http.StatusOK, "PATCH", "/api/cases/"+src+"/tasks/"+src+"-T1", map[string]any{"completed": true})
	b.must(http.StatusOK, "POST", "/api/cases/"+src+"/merge", map[string]any{"targetId": dst})
	var got []string
	for _, tk := range b.must(http.StatusOK, "GET", "/api/cases/"+dst, nil).Get("case.tasks").Array() {
		got = append(got, tk.Get("id").String()+" "+tk.Get("dueAt").String()+" next="+tk.Get("nextId").String()+" "+tk.Get("repeat").String())
	}
	want := []string{dst + "-T1  next= ", dst + "-T2 2026-03-02 next=" + dst + "-T3 ", dst + "-T3 2026-03-09 next= FREQ=WEEKLY"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}
