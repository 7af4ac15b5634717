package api

import (
	"net/http"
	"strings"

	"github.com/opsboard/opsboard/board/internal/ical"
	"github.com/opsboard/opsboard/board/internal/rules/saved"
)

// GET /api/events.ics?from=&to=&caseId=&domain=&reminders=&tasks=: the
// events, open reminders and open case tasks with a due date as an
// iCalendar feed a calendar app can subscribe to (reminders=0 or tasks=0
// leaves those out).
func (a *API) eventsICS(w http.ResponseWriter, r *http.Request) {
	d := a.store.Snapshot()
	body, err := ical.Feed(d, feedFilter(r), boardBase(r), a.version, saved.Zone(d, a.zone))
	if err != nil {
		a.fail(w, err) // a bad from/to is a 400; a feed that cannot be encoded, a 500
		return
	}
	w.Header().Set("Content-Type", "text/calendar; charset=utf-8")
	w.Header().Set("Content-Disposition", `inline; filename="opsboard.ics"`)
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(body)
}

// feedFilter reads the feed's query: the events' filter (see eventFilter),
// which applies to the reminders and tasks too; reminders and tasks are in
// unless reminders=0 or tasks=0 (also false, no, off) leaves them out.
func feedFilter(r *http.Request) ical.Filter {
	q := r.URL.Query()
	on := func(name string) bool {
		switch strings.ToLower(q.Get(name)) {
		case "0", "false", "no", "off":
			return false
		}
		return true
	}
	return ical.Filter{Filter: eventFilter(r), Reminders: on("reminders"), Tasks: on("tasks")}
}

// boardBase is the board's address as the feed's reader reached it: the
// request's Host, which the host check has already limited to loopback
// names and the configured extra hosts, so it is the one address known to
// work for whoever subscribed.
func boardBase(r *http.Request) string {
	return "http://" + r.Host
}
