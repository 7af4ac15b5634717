package main

import (
	"strings"
	"testing"

	"github.com/opsboard/opsboard/shared/client"
	"github.com/opsboard/opsboard/shared/client/clienttest"
)

// The event tools take a repeat rule and say it in words; a ranged list has
// a line per occurrence; an edit of the series moves every occurrence; a
// rule outside the subset comes back in the board's words.
func TestRepeatingEventsThroughTools(t *testing.T) {
	board := clienttest.StartBoard(t)
	bin := clienttest.Build(t, ".", ".")
	s := clienttest.StartSession(t, bin, board.URL, server)

	out := s.OK(t, "create_event", map[string]any{"title": "Standup", "date": "2026-03-02", "startTime": "09:00", "endTime": "09:15", "repeat": "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH"},
		"repeats every 2 weeks on Mon, Thu")
	id := strings.Fields(strings.TrimPrefix(out, "Created "))[0]
	list := s.OK(t, "list_events", map[string]any{"from": "2026-03-01", "to": "2026-03-21"})
	want := []string{
		id + " - 2026-03-02 09:00-09:15 - Standup - repeats every 2 weeks on Mon, Thu",
		id + " - 2026-03-05 09:00-09:15 - Standup - repeats every 2 weeks on Mon, Thu",
		id + " - 2026-03-16 09:00-09:15 - Standup - repeats every 2 weeks on Mon, Thu",
		id + " - 2026-03-19 09:00-09:15 - Standup - repeats every 2 weeks on Mon, Thu",
	}
	if list != strings.Join(want, "\n") {
		t.Errorf("list_events:\n%s\nwant\n%s", list, strings.Join(want, "\n"))
	}
	s.OK(t, "update_event", map[string]any{"id": id, "repeat": "FREQ=MONTHLY;BYDAY=-1FR;COUNT=3", "date": "2026-03-27"}, "repeats monthly on the last Friday, 3 times")
	list = s.OK(t, "list_events", map[string]any{"from": "2026-03-01", "to": "2026-08-01"})
	if n := strings.Count(list, "\n") + 1; n != 3 || !strings.Contains(list, "2026-05-29") {
		t.Errorf("after the edit, %d lines:\n%s", n, list)
	}
	s.Refused(t, "create_event", map[string]any{"title": "Bad", "date": "2026-03-02", "repeat": "FREQ=MINUTELY"}, "repeat: FREQ=MINUTELY is not supported")
	s.OK(t, "update_event", map[string]any{"id": id, "repeat": ""})
	var ans client.EventAnswer
	board.Get(t, "/api/events/"+id, &ans)
	if ans.Event.Repeat != "" {
		t.Errorf("\"\" did not stop the series: %+v", ans.Event)
	}
}
