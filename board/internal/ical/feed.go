// Package ical writes the board as an iCalendar feed (RFC 5545) a calendar
// app can subscribe to: the events, the open reminders and the open case
// tasks with a due date. It is pure: a document, a filter, the board's
// address and its zone in, the feed's bytes out.
package ical

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	goical "github.com/emersion/go-ical"
	"github.com/opsboard/opsboard/board/internal/rules/agenda"
	"github.com/opsboard/opsboard/board/internal/rules/events"
	"github.com/opsboard/opsboard/board/internal/rules/repeat"
	"github.com/opsboard/opsboard/shared/wire"
)

// Feed is d's events and dues, as f keeps them, as one calendar. The board
// stores wall-clock times in its own zone loc; the feed writes them in UTC
// (Z) and names the zone in X-WR-TIMEZONE, so no VTIMEZONE block is needed
// and every app places them at the same instant. A repeating event is one
// VEVENT with its RRULE; when timed, its start and end are written in the
// board's zone (TZID) instead, defined by a VTIMEZONE, so the series keeps
// its wall-clock time across daylight saving changes. base is the board's
// address, for the links back to the page; release names the board in
// PRODID. An error from the events' filter comes back as it is.
func Feed(d *wire.Doc, f Filter, base, release string, loc *time.Location) ([]byte, error) {
	ef := f.Filter
	ef.Masters = true // a series is one VEVENT with its RRULE
	evs, err := events.List(d, ef)
	if err != nil {
		return nil, err
	}
	var body bytes.Buffer
	if err := write(&body, calendar(evs, listDues(d, f, base, loc), release, loc)); err != nil {
		// Every value is escaped or built from parsed times, so this is a
		// bug, not bad input: an error rather than half a calendar.
		return nil, fmt.Errorf("encode the events feed: %w", err)
	}
	return body.Bytes(), nil
}

// calendar builds the events as one VCALENDAR. Every TEXT value goes through
// go-ical's escaping (after clean), and every date is formatted from a
// parsed time, so no stored value can end a line or start a component.
// Timed events are wall-clock times in loc, written in UTC.
// Reminders and tasks follow as VEVENTs with an alarm (see dueEvent).
func calendar(events []*wire.Event, dues []dueEntry, release string, loc *time.Location) *goical.Calendar {
	cal := goical.NewCalendar()
	setText(cal.Props, goical.PropVersion, "2.0")
	setText(cal.Props, goical.PropProductID, "-//opsboard//board "+release+"//EN")
	setText(cal.Props, goical.PropCalendarScale, "GREGORIAN")
	setText(cal.Props, "X-WR-CALNAME", "opsboard")
	setText(cal.Props, "X-WR-TIMEZONE", loc.String())
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
		ev := goical.NewEvent()
		setText(ev.Props, goical.PropUID, e.ID+"@opsboard")
		ev.Props.SetDateTime(goical.PropDateTimeStamp, utcStamp(e.UpdatedAt))
		if allDay {
			day := time.Date(start.Year(), start.Month(), start.Day(), 0, 0, 0, 0, time.UTC)
			ev.Props.SetDate(goical.PropDateTimeStart, day)
			ev.Props.SetDate(goical.PropDateTimeEnd, day.AddDate(0, 0, 1))
		} else {
			// go-ical writes a time outside UTC with its zone as TZID.
			in := time.UTC
			if rule != nil {
				in = loc
				if y := start.Year(); loc != time.UTC && (zoneYear == 0 || y < zoneYear) {
					zoneYear = y
				}
			}
			ev.Props.SetDateTime(goical.PropDateTimeStart, start.In(in))
			if e.EndTime != "" && e.EndTime != e.StartTime {
				end := atClock(start, e.EndTime)
				if end.Before(start) {
					end = atClock(start.AddDate(0, 0, 1), e.EndTime) // ends after midnight
				}
				ev.Props.SetDateTime(goical.PropDateTimeEnd, end.In(in))
			}
		}
		details(ev.Props, rule, loc, allDay, e.Title, e.Description, e.Domain, e.CreatedAt)
		if e.Location != "" {
			setText(ev.Props, goical.PropLocation, e.Location)
		}
		ev.Props.SetDateTime(goical.PropLastModified, utcStamp(e.UpdatedAt))
		cal.Children = append(cal.Children, ev.Component)
	}
	for _, due := range dues {
		ev, y, ok := dueEvent(due, loc)
		if !ok {
			continue
		}
		if y != 0 && (zoneYear == 0 || y < zoneYear) {
			zoneYear = y
		}
		cal.Children = append(cal.Children, ev.Component)
	}
	if zoneYear != 0 {
		cal.Children = append([]*goical.Component{timezone(loc, zoneYear)}, cal.Children...) // before its users, as apps expect
	}
	return cal
}

// setText sets a TEXT property, escaped by go-goical.
func setText(props goical.Props, name, text string) {
	p := goical.NewProp(name)
	p.SetText(clean(text))
	p.Params.Del(goical.ParamValue) // TEXT is the default, X-WR-CALNAME's too
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

// utcStamp is an RFC 3339 timestamp in UTC, which go-ical writes with a Z.
func utcStamp(ts string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		t = time.Unix(0, 0)
	}
	return t.UTC()
}

// clean prepares text for go-ical's escaping, which turns a newline into
// \n but leaves other control characters as they are: any line break
// becomes one newline and the control characters TEXT may not hold
// (RFC 5545 3.3.11) are dropped.
func clean(s string) string {
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

// details sets what an event and a due carry alike: the series' rule,
// the summary, the description, the domain as a category and when the
// item was created.
func details(props goical.Props, rule *repeat.Rule, loc *time.Location, allDay bool, summary, description string, domain wire.Domain, created string) {
	if rule != nil {
		p := goical.NewProp(goical.PropRecurrenceRule)
		p.Value = repeat.ICS(*rule, loc, allDay)
		props.Set(p)
	}
	setText(props, goical.PropSummary, summary)
	if description != "" {
		setText(props, goical.PropDescription, description)
	}
	if domain != "" {
		p := goical.NewProp(goical.PropCategories)
		p.SetTextList([]string{clean(string(domain))})
		props.Set(p)
	}
	if created != "" {
		props.SetDateTime(goical.PropCreated, utcStamp(created))
	}
}
