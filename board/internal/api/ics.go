package api

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/emersion/go-ical"
	"github.com/opsboard/opsboard/board/internal/rules/agenda"
	"github.com/opsboard/opsboard/board/internal/rules/events"
	"github.com/opsboard/opsboard/board/internal/rules/repeat"
	"github.com/opsboard/opsboard/board/internal/rules/saved"
	"github.com/opsboard/opsboard/shared/wire"
)

// GET /api/events.ics?from=&to=&caseId=&domain=&reminders=&tasks=: the
// events, open reminders and open case tasks with a due date as an
// iCalendar feed (RFC 5545) a calendar app can subscribe to (reminders=0 or
// tasks=0 leaves those out). The board
// stores wall-clock times in its own zone; the feed writes them in UTC (Z)
// and names the zone in X-WR-TIMEZONE, so no VTIMEZONE block is needed and
// every app places them at the same instant. A repeating event is one
// VEVENT with its RRULE; when timed, its start and end are written in the
// board's zone (TZID) instead, defined by a VTIMEZONE, so the series keeps
// its wall-clock time across daylight saving changes.
func (a *API) eventsICS(w http.ResponseWriter, r *http.Request) {
	d := a.store.Snapshot()
	f := eventFilter(r)
	f.Masters = true
	events, err := events.List(d, f)
	if err != nil {
		a.fail(w, err)
		return
	}
	loc := saved.Zone(d, a.zone)
	dues := icsDues(d, dueFilter(r), boardBase(r), loc)
	var body bytes.Buffer
	if err := writeICS(&body, icsFeed(events, dues, a.version, loc)); err != nil {
		// Every value is escaped or built from parsed times, so this is a
		// bug, not bad input: a 500 rather than half a calendar.
		a.fail(w, fmt.Errorf("encode the events feed: %w", err))
		return
	}
	w.Header().Set("Content-Type", "text/calendar; charset=utf-8")
	w.Header().Set("Content-Disposition", `inline; filename="opsboard.ics"`)
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(body.Bytes())
}

// icsFeed builds the events as one VCALENDAR. Every TEXT value goes through
// go-ical's escaping (after icsClean), and every date is formatted from a
// parsed time, so no stored value can end a line or start a component.
// Timed events are wall-clock times in loc, written in UTC.
// Reminders and tasks follow as VEVENTs with an alarm (see icsDueEvent).
func icsFeed(events []*wire.Event, dues []icsDue, release string, loc *time.Location) *ical.Calendar {
	cal := ical.NewCalendar()
	icsSetText(cal.Props, ical.PropVersion, "2.0")
	icsSetText(cal.Props, ical.PropProductID, "-//opsboard//board "+release+"//EN")
	icsSetText(cal.Props, ical.PropCalendarScale, "GREGORIAN")
	icsSetText(cal.Props, "X-WR-CALNAME", "opsboard")
	icsSetText(cal.Props, "X-WR-TIMEZONE", loc.String())
	zoneYear := 0 // the first year a TZID is used in, 0 while none is
	for _, e := range events {
		start, allDay, ok := agenda.EventStart(e, loc)
		if !ok {
			continue // a hand-edited date that does not parse cannot be placed
		}
		var rule *repeat.Rule
		if e.Repeat != "" {
			if r, err := repeat.Parse(e.Repeat); err == nil {
				rule = &r
			}
		}
		ev := ical.NewEvent()
		icsSetText(ev.Props, ical.PropUID, e.ID+"@opsboard")
		ev.Props.SetDateTime(ical.PropDateTimeStamp, icsStamp(e.UpdatedAt))
		if allDay {
			day := time.Date(start.Year(), start.Month(), start.Day(), 0, 0, 0, 0, time.UTC)
			ev.Props.SetDate(ical.PropDateTimeStart, day)
			ev.Props.SetDate(ical.PropDateTimeEnd, day.AddDate(0, 0, 1))
		} else {
			// go-ical writes a time outside UTC with its zone as TZID.
			in := time.UTC
			if rule != nil {
				in = loc
				if y := start.Year(); loc != time.UTC && (zoneYear == 0 || y < zoneYear) {
					zoneYear = y
				}
			}
			ev.Props.SetDateTime(ical.PropDateTimeStart, start.In(in))
			if e.EndTime != "" && e.EndTime != e.StartTime {
				end := atClock(start, e.EndTime)
				if end.Before(start) {
					end = atClock(start.AddDate(0, 0, 1), e.EndTime) // ends after midnight
				}
				ev.Props.SetDateTime(ical.PropDateTimeEnd, end.In(in))
			}
		}
		icsDetails(ev.Props, rule, loc, allDay, e.Title, e.Description, e.Domain, e.CreatedAt)
		if e.Location != "" {
			icsSetText(ev.Props, ical.PropLocation, e.Location)
		}
		ev.Props.SetDateTime(ical.PropLastModified, icsStamp(e.UpdatedAt))
		cal.Children = append(cal.Children, ev.Component)
	}
	for _, due := range dues {
		ev, y, ok := icsDueEvent(due, loc)
		if !ok {
			continue
		}
		if y != 0 && (zoneYear == 0 || y < zoneYear) {
			zoneYear = y
		}
		cal.Children = append(cal.Children, ev.Component)
	}
	if zoneYear != 0 {
		cal.Children = append([]*ical.Component{icsTimezone(loc, zoneYear)}, cal.Children...) // before its users, as apps expect
	}
	return cal
}

// icsSetText sets a TEXT property, escaped by go-ical.
func icsSetText(props ical.Props, name, text string) {
	p := ical.NewProp(name)
	p.SetText(icsClean(text))
	p.Params.Del(ical.ParamValue) // TEXT is the default, X-WR-CALNAME's too
	props.Set(p)
}

// atClock is hh:mm on day's date, on the wall clock of day's zone (so a
// day with a DST change still lands on the written time).
func atClock(day time.Time, hhmm string) time.Time {
	t, err := time.Parse("15:04", hhmm)
	if err != nil {
		return day
	}
	return time.Date(day.Year(), day.Month(), day.Day(), t.Hour(), t.Minute(), 0, 0, day.Location())
}

// icsStamp is an RFC 3339 timestamp in UTC, which go-ical writes with a Z.
func icsStamp(ts string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		t = time.Unix(0, 0)
	}
	return t.UTC()
}

// icsClean prepares text for go-ical's escaping, which turns a newline into
// \n but leaves other control characters as they are: any line break
// becomes one newline and the control characters TEXT may not hold
// (RFC 5545 3.3.11) are dropped.
func icsClean(s string) string {
	if strings.ContainsRune(s, '\r') { // a Replacer built per call cost a sixth of a big feed
		s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	}
	return strings.Map(func(r rune) rune {
		if (r < 0x20 && r != '\t' && r != '\n') || r == 0x7f {
			return -1
		}
		return r
	}, s)
}

// icsDetails sets what an event and a due carry alike: the series' rule,
// the summary, the description, the domain as a category and when the
// item was created.
func icsDetails(props ical.Props, rule *repeat.Rule, loc *time.Location, allDay bool, summary, description string, domain wire.Domain, created string) {
	if rule != nil {
		p := ical.NewProp(ical.PropRecurrenceRule)
		p.Value = repeat.ICS(*rule, loc, allDay)
		props.Set(p)
	}
	icsSetText(props, ical.PropSummary, summary)
	if description != "" {
		icsSetText(props, ical.PropDescription, description)
	}
	if domain != "" {
		p := ical.NewProp(ical.PropCategories)
		p.SetTextList([]string{icsClean(string(domain))})
		props.Set(p)
	}
	if created != "" {
		props.SetDateTime(ical.PropCreated, icsStamp(created))
	}
}
