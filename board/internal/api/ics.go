package api

import (
	"bytes"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/opsboard/opsboard/board/internal/events"
	"github.com/opsboard/opsboard/shared/wire"
)

// GET /api/events.ics?from=&to=&caseId=&domain=: the events as an
// iCalendar feed (RFC 5545) a calendar app can subscribe to. Times carry no
// zone (floating), because the board stores wall-clock times.
func (a *API) eventsICS(w http.ResponseWriter, r *http.Request) {
	d := a.store.Snapshot()
	events, err := events.List(d, eventFilter(r))
	if err != nil {
		a.fail(w, err)
		return
	}
	body := icsFeed(events, a.version)
	w.Header().Set("Content-Type", "text/calendar; charset=utf-8")
	w.Header().Set("Content-Disposition", `inline; filename="opsboard.ics"`)
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(body)
}

// icsFeed renders events as one VCALENDAR.
func icsFeed(events []*wire.Event, release string) []byte {
	var b bytes.Buffer
	line := func(name, value string) { icsLine(&b, name+":"+value) }
	line("BEGIN", "VCALENDAR")
	line("VERSION", "2.0")
	line("PRODID", "-//opsboard//board "+icsText(release)+"//EN")
	line("CALSCALE", "GREGORIAN")
	line("X-WR-CALNAME", "opsboard")
	for _, e := range events {
		day, err := time.Parse("2006-01-02", e.Date)
		if err != nil {
			continue // a hand-edited date that does not parse cannot be placed
		}
		line("BEGIN", "VEVENT")
		line("UID", e.ID+"@opsboard")
		line("DTSTAMP", icsStamp(e.UpdatedAt))
		if e.AllDay || e.StartTime == "" {
			icsLine(&b, "DTSTART;VALUE=DATE:"+day.Format("20060102"))
			icsLine(&b, "DTEND;VALUE=DATE:"+day.AddDate(0, 0, 1).Format("20060102"))
		} else {
			start := atClock(day, e.StartTime)
			line("DTSTART", start.Format("20060102T150405"))
			if e.EndTime != "" && e.EndTime != e.StartTime {
				end := atClock(day, e.EndTime)
				if end.Before(start) {
					end = end.AddDate(0, 0, 1) // ends after midnight
				}
				line("DTEND", end.Format("20060102T150405"))
			}
		}
		line("SUMMARY", icsText(e.Title))
		if e.Description != "" {
			line("DESCRIPTION", icsText(e.Description))
		}
		if e.Location != "" {
			line("LOCATION", icsText(e.Location))
		}
		if e.Domain != "" {
			line("CATEGORIES", icsText(string(e.Domain)))
		}
		if e.CreatedAt != "" {
			line("CREATED", icsStamp(e.CreatedAt))
		}
		line("LAST-MODIFIED", icsStamp(e.UpdatedAt))
		line("END", "VEVENT")
	}
	line("END", "VCALENDAR")
	return b.Bytes()
}

func atClock(day time.Time, hhmm string) time.Time {
	t, err := time.Parse("15:04", hhmm)
	if err != nil {
		return day
	}
	return day.Add(time.Duration(t.Hour())*time.Hour + time.Duration(t.Minute())*time.Minute)
}

// icsStamp is an RFC 3339 timestamp as an iCalendar UTC date-time.
func icsStamp(ts string) string {
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		t = time.Unix(0, 0)
	}
	return t.UTC().Format("20060102T150405Z")
}

// icsText escapes a TEXT value (RFC 5545 3.3.11) and drops the control
// characters TEXT may not hold.
func icsText(s string) string {
	s = strings.NewReplacer(`\`, `\\`, ";", `\;`, ",", `\,`, "\r\n", `\n`, "\n", `\n`, "\r", `\n`).Replace(s)
	return strings.Map(func(r rune) rune {
		if (r < 0x20 && r != '\t') || r == 0x7f {
			return -1
		}
		return r
	}, s)
}

// icsLine writes one content line, folded so no line exceeds 75 octets
// (RFC 5545 3.1) without splitting a UTF-8 sequence, and ended with CRLF.
func icsLine(b *bytes.Buffer, s string) {
	limit := 75
	for len(s) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		b.WriteString(s[:cut])
		b.WriteString("\r\n ")
		s = s[cut:]
		limit = 74 // a continuation line starts with the folding space
	}
	b.WriteString(s)
	b.WriteString("\r\n")
}
