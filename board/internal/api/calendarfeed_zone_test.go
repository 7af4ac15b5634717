package api_test

import (
	"net/http"
	"strings"
	"testing"
)

// The feed writes timed events in UTC and names the board's zone, so a
// calendar app places them at the instant the person meant.
func TestEventsICSWritesUTCAndNamesTheZone(t *testing.T) {
	b := newBoard(t)
	b.must(http.StatusOK, "PATCH", "/api/prefs", map[string]any{"timezone": "Europe/Berlin"})
	b.must(http.StatusCreated, "POST", "/api/events", map[string]any{"title": "Summer", "date": "2026-07-10", "startTime": "09:00", "endTime": "10:30"})
	b.must(http.StatusCreated, "POST", "/api/events", map[string]any{"title": "Winter late", "date": "2026-12-31", "startTime": "23:30", "endTime": "00:30"})
	b.must(http.StatusCreated, "POST", "/api/events", map[string]any{"title": "Holiday", "date": "2026-07-11", "allDay": true})
	_, raw := getICS(t, b)
	feed := string(raw)
	for _, want := range []string{
		"X-WR-TIMEZONE:Europe/Berlin\r\n",
		"DTSTART:20260710T070000Z\r\n", "DTEND:20260710T083000Z\r\n",
		"DTSTART:20261231T223000Z\r\n", "DTEND:20261231T233000Z\r\n",
		"DTSTART;VALUE=DATE:20260711\r\n", "DTEND;VALUE=DATE:20260712\r\n",
	} {
		if !strings.Contains(feed, want) {
			t.Errorf("the feed lacks %q:\n%s", want, feed)
		}
	}
	if strings.Contains(feed, "TZID") || strings.Contains(feed, "VTIMEZONE") {
		t.Errorf("the feed carries zone definitions it does not need:\n%s", feed)
	}
}
