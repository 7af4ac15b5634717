package api_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-ical"
	"github.com/opsboard/opsboard/board/internal/api"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// getFeed fetches the feed at path (with its query) and parses it with
// go-ical.
func getFeed(t *testing.T, b *board, path string) (*ical.Calendar, string) {
	t.Helper()
	resp, err := http.Get(b.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, resp.StatusCode, raw)
	}
	cal, err := ical.NewDecoder(bytes.NewReader(raw)).Decode()
	if err != nil {
		t.Fatalf("parse feed: %v\n%s", err, raw)
	}
	return cal, string(raw)
}

// eventsByUID indexes a feed's VEVENTs by UID.
func eventsByUID(t *testing.T, cal *ical.Calendar) map[string]ical.Event {
	t.Helper()
	out := map[string]ical.Event{}
	for _, e := range cal.Events() {
		uid, err := e.Props.Text(ical.PropUID)
		if err != nil {
			t.Fatal(err)
		}
		out[uid] = e
	}
	return out
}

func propValue(e ical.Event, name string) string {
	if p := e.Props.Get(name); p != nil {
		return p.Value
	}
	return ""
}

// The feed carries open reminders and open case tasks with a due date as
// VEVENTs, each with a DISPLAY alarm, a URL back to the page and its RRULE
// when it repeats: a timed due rings at its time, a date-only one is an
// all-day event ringing at 09:00. Completed and undated items stay out.
func TestEventsICSCarriesRemindersAndTasks(t *testing.T) {
	b := newBoard(t)
	b.must(http.StatusOK, "PATCH", "/api/prefs", map[string]any{"timezone": "Europe/Berlin"})
	c := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Renew lease", "domain": "life"})
	caseID := c.Get("case.id").String()
	rem := b.must(http.StatusCreated, "POST", "/api/reminders", map[string]any{
		"title": "Water the plants", "detail": "balcony too", "dueAt": "2026-12-03T18:30", "repeat": "FREQ=WEEKLY;BYDAY=TH", "caseId": caseID,
	}).Get("reminder.id").String()
	dayRem := b.must(http.StatusCreated, "POST", "/api/reminders", map[string]any{"title": "Pay rent", "dueAt": "2026-12-01"}).Get("reminder.id").String()
	doneRem := b.must(http.StatusCreated, "POST", "/api/reminders", map[string]any{"title": "Old", "dueAt": "2026-11-01"}).Get("reminder.id").String()
	b.must(http.StatusOK, "PATCH", "/api/reminders/"+doneRem, map[string]any{"status": "done"})
	b.must(http.StatusCreated, "POST", "/api/reminders", map[string]any{"title": "Someday"})
	task := b.must(http.StatusCreated, "POST", "/api/cases/"+caseID+"/tasks", map[string]any{"title": "Sign the lease", "dueAt": "2026-12-02", "repeat": "FREQ=MONTHLY;UNTIL=20270601"}).Get("task.id").String()
	timedTask := b.must(http.StatusCreated, "POST", "/api/cases/"+caseID+"/tasks", map[string]any{"title": "Call landlord", "dueAt": "2026-12-02T10:00:00Z"}).Get("task.id").String()
	doneTask := b.must(http.StatusCreated, "POST", "/api/cases/"+caseID+"/tasks", map[string]any{"title": "Done already", "dueAt": "2026-11-02"}).Get("task.id").String()
	b.must(http.StatusOK, "PATCH", "/api/cases/"+caseID+"/tasks/"+doneTask, map[string]any{"completed": true})
	b.must(http.StatusCreated, "POST", "/api/events", map[string]any{"title": "Dentist", "date": "2026-12-04", "startTime": "09:00", "endTime": "10:00"})

	cal, raw := getFeed(t, b, "/api/events.ics")
	got := eventsByUID(t, cal)
	base := b.URL
	if len(got) != 5 {
		t.Fatalf("%d VEVENTs, want the event, two reminders and two tasks:\n%s", len(got), raw)
	}
	for _, gone := range []string{doneRem + "@opsboard", doneTask + "@opsboard"} {
		if _, ok := got[gone]; ok {
			t.Errorf("completed %s is in the feed", gone)
		}
	}
	berlin, _ := time.LoadLocation("Europe/Berlin")
	for _, tc := range []struct {
		uid, summary, url, rrule, trigger string
		allDay                            bool
		start                             time.Time
	}{
		{rem + "@opsboard", "Water the plants", base + "/reminders?id=" + rem, "FREQ=WEEKLY;BYDAY=TH", "PT0S", false, time.Date(2026, 12, 3, 18, 30, 0, 0, berlin)},
		{dayRem + "@opsboard", "Pay rent", base + "/reminders?id=" + dayRem, "", "PT9H", true, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)},
		{task + "@opsboard", "Sign the lease", base + "/board?case=" + caseID, "FREQ=MONTHLY;UNTIL=20270601", "PT9H", true, time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)},
		{timedTask + "@opsboard", "Call landlord", base + "/board?case=" + caseID, "", "PT0S", false, time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)},
	} {
		t.Run(tc.summary, func(t *testing.T) {
			e, ok := got[tc.uid]
			if !ok {
				t.Fatalf("no VEVENT with UID %s in\n%s", tc.uid, raw)
			}
			if s, _ := e.Props.Text(ical.PropSummary); s != tc.summary {
				t.Errorf("SUMMARY %q", s)
			}
			if u := propValue(e, ical.PropURL); u != tc.url {
				t.Errorf("URL %q, want %q", u, tc.url)
			}
			if r := propValue(e, ical.PropRecurrenceRule); r != tc.rrule {
				t.Errorf("RRULE %q, want %q", r, tc.rrule)
			}
			if tc.rrule != "" {
				if _, err := e.RecurrenceSet(nil); err != nil {
					t.Errorf("RRULE does not expand: %v", err)
				}
			}
			start := e.Props.Get(ical.PropDateTimeStart)
			if isDay := start.ValueType() == ical.ValueDate; isDay != tc.allDay {
				t.Errorf("DTSTART %s: all-day %v, want %v", start.Value, isDay, tc.allDay)
			}
			at, err := e.DateTimeStart(time.UTC)
			if err != nil || !at.Equal(tc.start) {
				t.Errorf("DTSTART %v (%v), want %v", at, err, tc.start)
			}
			var alarms []*ical.Component
			for _, ch := range e.Children {
				if ch.Name == ical.CompAlarm {
					alarms = append(alarms, ch)
				}
			}
			if len(alarms) != 1 {
				t.Fatalf("%d VALARMs, want 1", len(alarms))
			}
			a := alarms[0]
			if v := a.Props.Get(ical.PropAction); v == nil || v.Value != "DISPLAY" {
				t.Errorf("ACTION %v", v)
			}
			if v := a.Props.Get(ical.PropTrigger); v == nil || v.Value != tc.trigger {
				t.Errorf("TRIGGER %v, want %s", v, tc.trigger)
			}
			if d, _ := a.Props.Text(ical.PropDescription); d != tc.summary {
				t.Errorf("alarm DESCRIPTION %q", d)
			}
		})
	}
	// A repeating timed reminder is written on the board's wall clock,
	// which the feed defines.
	if !strings.Contains(raw, "DTSTART;TZID=Europe/Berlin:20261203T183000\r\n") || !strings.Contains(raw, "BEGIN:VTIMEZONE\r\n") {
		t.Errorf("the repeating reminder is not on the board's clock:\n%s", raw)
	}

	// The query leaves reminders or tasks out, and the case filter keeps
	// what belongs to the case.
	for _, q := range []struct {
		query string
		want  []string
	}{
		{"?reminders=0", []string{task, timedTask}},
		{"?tasks=0", []string{rem, dayRem}},
		{"?reminders=0&tasks=false", nil},
		{"?caseId=" + caseID, []string{rem, task, timedTask}},
		{"?from=2026-12-02&to=2026-12-03", []string{task, timedTask}},
		{"?from=2026-12-02&to=2026-12-04", []string{rem, task, timedTask}},
	} {
		cal, raw := getFeed(t, b, "/api/events.ics"+q.query)
		got := eventsByUID(t, cal)
		var dues []string
		for uid := range got {
			if !strings.HasPrefix(uid, "EVT") {
				dues = append(dues, strings.TrimSuffix(uid, "@opsboard"))
			}
		}
		if len(dues) != len(q.want) {
			t.Errorf("%s: %v, want %v\n%s", q.query, dues, q.want, raw)
			continue
		}
		for _, id := range q.want {
			if _, ok := got[id+"@opsboard"]; !ok {
				t.Errorf("%s: no %s in %v", q.query, id, dues)
			}
		}
	}
}

// A hand-edited reminder or task may hold anything in its id, title or
// detail: line breaks come back as text, the URL stays one escaped line,
// and no second VEVENT or alarm appears.
func TestEventsICSHandEditedDuesCannotInjectLines(t *testing.T) {
	const evil = "\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nX-INJECTED:1\n\x00\x1b"
	handEdited := func(s *store.Config, _ *api.Config) {
		doc := map[string]any{
			"schemaVersion": wire.SchemaVersion,
			"version":       3,
			"reminders": []map[string]any{{
				"id": "REM-9" + evil, "title": "Pay" + evil, "detail": "d" + evil, "status": "open", "dueAt": "2026-07-10T09:00:00Z",
				"createdAt": "2026-07-01T08:00:00Z", "updatedAt": "2026-07-02T08:00:00Z",
			}},
			"cases": []map[string]any{{
				"id": "CASE-1", "title": "Lease" + evil, "status": "todo", "domain": "work", "kind": "case",
				"createdAt": "2026-07-01T08:00:00Z", "updatedAt": "2026-07-02T08:00:00Z",
				"tasks": []map[string]any{{"id": "CASE-1-T1" + evil, "title": "Sign" + evil, "dueAt": "2026-07-11"}},
			}},
		}
		raw, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(s.Path, raw, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	b := newBoard(t, handEdited)
	cal, raw := getICS(t, b)
	if n := len(cal.Events()); n != 2 {
		t.Fatalf("%d VEVENTs, want the reminder and the task:\n%s", n, raw)
	}
	if n := bytes.Count(raw, []byte("\r\nBEGIN:VALARM\r\n")); n != 2 {
		t.Errorf("%d alarms, want 2:\n%s", n, raw)
	}
	if bytes.Contains(raw, []byte("\r\nX-INJECTED")) {
		t.Errorf("an injected line:\n%s", raw)
	}
	for _, e := range cal.Events() {
		u := e.Props.Get(ical.PropURL)
		if u == nil || !strings.HasPrefix(u.Value, b.URL+"/") || strings.ContainsAny(u.Value, " \r\n") {
			t.Errorf("URL %v", u)
		}
		if s, _ := e.Props.Text(ical.PropSummary); !strings.Contains(s, "\nEND:VEVENT\n") {
			t.Errorf("SUMMARY %q lost its text", s)
		}
	}
}
