package api_test

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/emersion/go-ical"
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

// newCaseID creates a case (or, with kind, a container) and returns its id.
func newCaseID(b *board, title string, kind ...string) string {
	b.t.Helper()
	body := map[string]any{"title": title}
	if len(kind) > 0 {
		body["kind"] = kind[0]
	}
	return b.must(201, "POST", "/api/cases", body).Get("case.id").String()
}

// caseVerbs lists a case's activity as "actor verb" lines, oldest first.
func caseVerbs(b *board, id string) []string {
	b.t.Helper()
	var out []string
	for _, a := range b.must(200, "GET", "/api/cases/"+id, nil).Get("case.activity").Array() {
		out = append(out, a.Get("actor").String()+" "+a.Get("verb").String())
	}
	return out
}

func strList(r gjson.Result) []string {
	out := []string{}
	for _, x := range r.Array() {
		out = append(out, x.String())
	}
	return out
}

func TestEventCreateValidation(t *testing.T) {
	b := newBoard(t)
	for _, tc := range []struct {
		name string
		body any
		msg  string
	}{
		{"title empty after trim", map[string]any{"title": "  ", "date": "2026-03-01"}, "Field 'title' is required."},
		{"date missing", map[string]any{"title": "x"}, "Field 'date' is required."},
		{"date not a day", map[string]any{"title": "x", "date": "March 1"}, "field 'date' must be a calendar day YYYY-MM-DD"},
		{"date not a real day", map[string]any{"title": "x", "date": "2026-02-30"}, "field 'date' must be a calendar day"},
		{"datetime is not a day", map[string]any{"title": "x", "date": "2026-03-01T10:00"}, "field 'date' must be a calendar day"},
		{"start time not 24h", map[string]any{"title": "x", "date": "2026-03-01", "startTime": "24:00"}, "field 'startTime' must be a 24-hour time HH:MM"},
		{"start time not padded", map[string]any{"title": "x", "date": "2026-03-01", "startTime": "9:30"}, "field 'startTime' must be"},
		{"end time malformed", map[string]any{"title": "x", "date": "2026-03-01", "endTime": "10:75"}, "field 'endTime' must be"},
		{"domain", map[string]any{"title": "x", "date": "2026-03-01", "domain": "play"}, "field 'domain' must be one of"},
		{"unknown case", map[string]any{"title": "x", "date": "2026-03-01", "caseId": "CASE-9"}, "case CASE-9 not found"},
		{"unknown field", map[string]any{"title": "x", "date": "2026-03-01", "colour": "red"}, "unknown field"},
		{"allDay not a boolean", map[string]any{"title": "x", "date": "2026-03-01", "allDay": "yes"}, "field 'allDay' must be a boolean"},
		{"not an object", `["x"]`, "must be a JSON object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sub := *b // report on the subtest
			sub.t = t
			sub.fails(400, tc.msg, "POST", "/api/events", tc.body)
		})
	}
	b.fails(404, "event EVT-9 not found", "GET", "/api/events/EVT-9", nil)
	b.fails(404, "event EVT-9 not found", "PATCH", "/api/events/EVT-9", map[string]any{"title": "x"})
	b.fails(404, "event EVT-9 not found", "DELETE", "/api/events/EVT-9", nil)
}

func TestEventCreateOmitsAbsentOptionals(t *testing.T) {
	b := newBoard(t)
	before := b.Store.Version()
	res := b.do("POST", "/api/events", map[string]any{"title": " Dentist ", "date": "2026-03-02"})
	if res.Code != 201 {
		t.Fatalf("create: %d %s", res.Code, res.Raw)
	}
	e := res.Body.Get("event")
	if e.Get("id").String() != "EVT-1" || e.Get("title").String() != "Dentist" || e.Get("allDay").Bool() {
		t.Errorf("event %s", e.Raw)
	}
	for _, k := range []string{"startTime", "endTime", "description", "location", "caseId", "domain"} {
		if e.Get(k).Exists() {
			t.Errorf("absent optional %q is present: %s", k, e.Raw)
		}
	}
	if v := res.Body.Get("version").Int(); v != before+1 {
		t.Errorf("version %d, want %d", v, before+1)
	}
	if got := b.must(200, "GET", "/api/events/EVT-1", nil); got.Get("event.title").String() != "Dentist" || got.Get("version").Int() != before+1 {
		t.Errorf("GET event %s", got.Raw)
	}
}

func TestEventListFiltersAndOrder(t *testing.T) {
	b := newBoard(t)
	c := newCaseID(b, "Trip")
	for _, e := range []map[string]any{
		{"title": "late", "date": "2026-03-02", "startTime": "15:00"},                     // EVT-1
		{"title": "early", "date": "2026-03-02", "startTime": "08:30", "caseId": c},       // EVT-2
		{"title": "all day", "date": "2026-03-02", "allDay": true, "domain": "life"},      // EVT-3
		{"title": "before", "date": "2026-03-01", "startTime": "23:00", "domain": "work"}, // EVT-4
		{"title": "after", "date": "2026-03-05", "caseId": c},                             // EVT-5
	} {
		b.must(201, "POST", "/api/events", e)
	}
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"", []string{"EVT-4", "EVT-3", "EVT-2", "EVT-1", "EVT-5"}},
		{"?from=2026-03-02", []string{"EVT-3", "EVT-2", "EVT-1", "EVT-5"}},
		{"?to=2026-03-05", []string{"EVT-4", "EVT-3", "EVT-2", "EVT-1"}},
		{"?from=2026-03-02&to=2026-03-03", []string{"EVT-3", "EVT-2", "EVT-1"}},
		{"?caseId=" + c, []string{"EVT-2", "EVT-5"}},
		{"?caseId=", []string{"EVT-4", "EVT-3", "EVT-1"}},
		{"?domain=life", []string{"EVT-3"}},
		{"?domain=work&from=2026-03-01&to=2026-03-02", []string{"EVT-4"}},
	} {
		got := strList(b.must(200, "GET", "/api/events"+tc.query, nil).Get("events.#.id"))
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("GET /api/events%s (-want +got)\n%s", tc.query, diff)
		}
	}
	b.fails(400, "query 'from' must be a day", "GET", "/api/events?from=soon", nil)
	b.fails(400, "query 'domain' must be one of", "GET", "/api/events?domain=play", nil)
	if got := b.must(200, "GET", "/api/cases/"+c, nil).Get("events.#.id").String(); got != `["EVT-2","EVT-5"]` {
		t.Errorf("case's derived events %s", got)
	}
}

func TestEventPatchLinksAndActivity(t *testing.T) {
	b := newBoard(t)
	c1, c2 := newCaseID(b, "One"), newCaseID(b, "Two")
	b.must(201, "POST", "/api/events", map[string]any{"title": "Review", "date": "2026-04-01", "caseId": c1}, agent...)
	if got := caseVerbs(b, c1); !cmp.Equal(got, []string{"human created", "agent event_linked"}) {
		t.Errorf("create linked: %v", got)
	}
	// A plain edit logs event_updated on the linked case.
	e := b.must(200, "PATCH", "/api/events/EVT-1", map[string]any{"startTime": "10:00", "location": "Room 4"}).Get("event")
	if e.Get("startTime").String() != "10:00" || e.Get("location").String() != "Room 4" || e.Get("updatedAt").String() == e.Get("createdAt").String() {
		t.Errorf("patched %s", e.Raw)
	}
	// A relink logs on both cases.
	b.must(200, "PATCH", "/api/events/EVT-1", map[string]any{"caseId": c2})
	if got := caseVerbs(b, c1); !cmp.Equal(got, []string{"human created", "agent event_linked", "human event_updated", "human event_unlinked"}) {
		t.Errorf("old case: %v", got)
	}
	if got := caseVerbs(b, c2); !cmp.Equal(got, []string{"human created", "human event_linked"}) {
		t.Errorf("new case: %v", got)
	}
	// null and "" both unlink; clearing text fields with null.
	e = b.must(200, "PATCH", "/api/events/EVT-1", map[string]any{"caseId": nil, "location": nil}).Get("event")
	if e.Get("caseId").Exists() || e.Get("location").Exists() {
		t.Errorf("null did not clear: %s", e.Raw)
	}
	b.must(200, "PATCH", "/api/events/EVT-1", map[string]any{"caseId": c1})
	if e = b.must(200, "PATCH", "/api/events/EVT-1", map[string]any{"caseId": ""}).Get("event"); e.Get("caseId").Exists() {
		t.Errorf("empty caseId did not unlink: %s", e.Raw)
	}
	if got := caseVerbs(b, c1); got[len(got)-1] != "human event_unlinked" {
		t.Errorf("unlink not logged: %v", got)
	}
	// Validation on patch, and the version guard.
	b.fails(400, "field 'title' cannot be empty", "PATCH", "/api/events/EVT-1", map[string]any{"title": " "})
	b.fails(400, "field 'date' cannot be empty", "PATCH", "/api/events/EVT-1", map[string]any{"date": nil})
	b.fails(400, "field 'date' must be a calendar day", "PATCH", "/api/events/EVT-1", map[string]any{"date": "2026-13-01"})
	b.fails(400, "field 'endTime' must be", "PATCH", "/api/events/EVT-1", map[string]any{"endTime": "noon"})
	b.fails(400, "case CASE-9 not found", "PATCH", "/api/events/EVT-1", map[string]any{"caseId": "CASE-9"})
	v := b.Store.Version()
	b.fails(409, "version conflict", "PATCH", "/api/events/EVT-1", map[string]any{"title": "x", "expectedVersion": v - 1})
	if got := b.must(200, "PATCH", "/api/events/EVT-1", map[string]any{"title": "Final", "expectedVersion": v}).Get("version").Int(); got != v+1 {
		t.Errorf("guarded patch version %d, want %d", got, v+1)
	}
	// Delete is hard and logs event_unlinked on the linked case.
	b.must(200, "PATCH", "/api/events/EVT-1", map[string]any{"caseId": c2})
	// The person changed the event just now, which holds an agent's delete
	// back for the window; with none, only a revert is refused.
	b.must(200, "PATCH", "/api/prefs", map[string]any{"humanEditWindow": 0})
	del := b.must(200, "DELETE", "/api/events/EVT-1", nil, agent...)
	if !del.Get("ok").Bool() || del.Get("version").Int() != b.Store.Version() {
		t.Errorf("delete answer %s", del.Raw)
	}
	if got := caseVerbs(b, c2); got[len(got)-1] != "agent event_unlinked" {
		t.Errorf("delete not logged: %v", got)
	}
	b.fails(404, "event EVT-1 not found", "GET", "/api/events/EVT-1", nil)
}

func TestEventDedupe(t *testing.T) {
	b := newBoard(t)
	first := b.must(201, "POST", "/api/events", map[string]any{"title": "Board  Meeting", "date": "2026-05-01", "startTime": "09:00"})
	v := b.Store.Version()
	again := b.must(200, "POST", "/api/events", map[string]any{"title": "board meeting ", "date": "2026-05-01", "startTime": "09:00", "dedupe": true}, agent...)
	if !again.Get("existing").Bool() || again.Get("event.id").String() != first.Get("event.id").String() || again.Get("version").Int() != v {
		t.Errorf("dedupe answer %s", again.Raw)
	}
	if b.Store.Version() != v {
		t.Errorf("a deduplicated create wrote: version %d -> %d", v, b.Store.Version())
	}
	// Another start time, another day or no dedupe flag: a new event.
	b.must(201, "POST", "/api/events", map[string]any{"title": "Board meeting", "date": "2026-05-01", "startTime": "10:00", "dedupe": true})
	b.must(201, "POST", "/api/events", map[string]any{"title": "Board meeting", "date": "2026-05-02", "startTime": "09:00", "dedupe": true})
	b.must(201, "POST", "/api/events", map[string]any{"title": "Board meeting", "date": "2026-05-01", "startTime": "09:00"})
	if n := len(b.must(200, "GET", "/api/events", nil).Get("events").Array()); n != 4 {
		t.Errorf("%d events, want 4", n)
	}
}

func TestHardDeleteCleanAndMergeRepairEventAndReminderLinks(t *testing.T) {
	b := newBoard(t)
	gone, done, src, dst := newCaseID(b, "Gone"), newCaseID(b, "Done"), newCaseID(b, "Source"), newCaseID(b, "Target")
	for _, c := range []string{gone, done, src} {
		b.must(201, "POST", "/api/events", map[string]any{"title": "ev " + c, "date": "2026-06-01", "caseId": c})
		b.must(201, "POST", "/api/reminders", map[string]any{"title": "rem " + c, "caseId": c})
	}
	b.must(200, "DELETE", "/api/cases/"+gone+"?hard=1", nil)
	b.must(200, "PATCH", "/api/cases/"+done, map[string]any{"status": "done"})
	b.must(200, "POST", "/api/cases/clean", map[string]any{"ids": []string{done}})
	b.must(200, "POST", "/api/cases/"+src+"/merge", map[string]any{"targetId": dst})
	events := b.must(200, "GET", "/api/events", nil).Get("events")
	reminders := b.must(200, "GET", "/api/reminders", nil).Get("reminders")
	want := map[string]string{"ev " + gone: "", "ev " + done: "", "ev " + src: dst, "rem " + gone: "", "rem " + done: "", "rem " + src: dst}
	got := map[string]string{}
	for _, list := range []gjson.Result{events, reminders} {
		for _, r := range list.Array() {
			got[r.Get("title").String()] = r.Get("caseId").String()
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("links after delete, clean and merge (-want +got)\n%s", diff)
	}
}

func TestEventsICSFeedParses(t *testing.T) {
	b := newBoard(t)
	long := strings.Repeat("Agenda: budget, hiring; roadmap — naïve café ", 6)
	b.must(201, "POST", "/api/events", map[string]any{"title": "Offsite, day 1; prep", "date": "2026-07-10", "allDay": true, "description": long + "\nline two", "location": `Room "A"\, floor 2`})
	b.must(201, "POST", "/api/events", map[string]any{"title": "Late call", "date": "2026-07-11", "startTime": "23:30", "endTime": "00:30"})
	b.must(201, "POST", "/api/events", map[string]any{"title": "Standup", "date": "2026-07-12", "startTime": "09:15"})
	resp, err := http.Get(b.URL + "/api/events.ics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/calendar") {
		t.Errorf("content type %q", ct)
	}
	for i, line := range bytes.Split(bytes.TrimSuffix(raw, []byte("\r\n")), []byte("\r\n")) {
		if len(line) > 75 {
			t.Errorf("line %d is %d octets, longer than 75: %q", i, len(line), line)
		}
		if bytes.ContainsAny(line, "\n\r") {
			t.Errorf("line %d has a bare line break", i)
		}
	}
	cal, err := ical.NewDecoder(bytes.NewReader(raw)).Decode()
	if err != nil {
		t.Fatalf("parse feed: %v\n%s", err, raw)
	}
	if v := cal.Props.Get(ical.PropVersion); v == nil || v.Value != "2.0" {
		t.Errorf("VERSION %v", v)
	}
	if cal.Props.Get(ical.PropProductID) == nil {
		t.Error("no PRODID")
	}
	events := cal.Events()
	if len(events) != 3 {
		t.Fatalf("%d VEVENTs, want 3", len(events))
	}
	text := func(i int, name string) string {
		p := events[i].Props.Get(name)
		if p == nil {
			return ""
		}
		s, err := p.Text()
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		return s
	}
	if got := text(0, ical.PropSummary); got != "Offsite, day 1; prep" {
		t.Errorf("SUMMARY %q", got)
	}
	if got := text(0, ical.PropDescription); got != long+"\nline two" {
		t.Errorf("DESCRIPTION round trip:\n got %q\nwant %q", got, long+"\nline two")
	}
	if got := text(0, ical.PropLocation); got != `Room "A"\, floor 2` {
		t.Errorf("LOCATION %q", got)
	}
	if got := text(0, ical.PropUID); got != "EVT-1@opsboard" {
		t.Errorf("UID %q", got)
	}
	if events[0].Props.Get(ical.PropDateTimeStamp) == nil {
		t.Error("no DTSTAMP")
	}
	start := events[0].Props.Get(ical.PropDateTimeStart)
	if start.ValueType() != ical.ValueDate || start.Value != "20260710" {
		t.Errorf("all-day DTSTART %s %q", start.ValueType(), start.Value)
	}
	if end := events[0].Props.Get(ical.PropDateTimeEnd); end == nil || end.Value != "20260711" {
		t.Errorf("all-day DTEND %v", end)
	}
	s, err := events[1].DateTimeStart(nil)
	if err != nil {
		t.Fatal(err)
	}
	e, err := events[1].DateTimeEnd(nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Format("2006-01-02 15:04") + " → " + e.Format("2006-01-02 15:04"); got != "2026-07-11 23:30 → 2026-07-12 00:30" {
		t.Errorf("overnight event %s", got)
	}
	if events[2].Props.Get(ical.PropDateTimeEnd) != nil {
		t.Error("an event without an end time must leave DTEND out (it ends when it starts)")
	}
	// The feed takes the list's filters.
	resp2, err := http.Get(b.URL + "/api/events.ics?from=2026-07-12")
	if err != nil {
		t.Fatal(err)
	}
	defer resp2.Body.Close()
	cal2, err := ical.NewDecoder(resp2.Body).Decode()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(cal2.Events()); n != 1 {
		t.Errorf("filtered feed has %d events, want 1", n)
	}
}
