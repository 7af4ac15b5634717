package ical

import (
	"fmt"
	"time"

	goical "github.com/emersion/go-ical"
)

// timezone is the VTIMEZONE a feed needs for each TZID it uses (RFC 5545
// 3.6.5): loc's standard and daylight offsets, each with the yearly rule of
// the change to it, read from the zone's transitions in year. A zone
// without daylight saving time has one STANDARD part.
func timezone(loc *time.Location, year int) *goical.Component {
	tz := &goical.Component{Name: goical.CompTimezone, Props: make(goical.Props)}
	setText(tz.Props, goical.PropTimezoneID, loc.String())
	t := time.Date(year, 1, 1, 0, 0, 0, 0, loc)
	for range 4 { // two changes a year; a zone that rewrote its rules may have one more
		_, end := t.ZoneBounds()
		if end.IsZero() || end.Year() > year {
			break
		}
		_, from := end.Add(-time.Second).Zone()
		name, to := end.Zone()
		kind := goical.CompTimezoneStandard
		if end.IsDST() {
			kind = goical.CompTimezoneDaylight
		}
		// DTSTART is the local time of the change on the clock before it.
		local := end.In(time.FixedZone("", from))
		part := zonePart(kind, name, from, to, local.Format("20060102T150405"))
		part.Props.Set(&goical.Prop{Name: goical.PropRecurrenceRule, Params: make(goical.Params), Value: yearlyRule(local)})
		tz.Children = append(tz.Children, part)
		t = end
	}
	if len(tz.Children) == 0 {
		name, off := t.Zone()
		tz.Children = append(tz.Children, zonePart(goical.CompTimezoneStandard, name, off, off, "19700101T000000"))
	}
	return tz
}

func zonePart(kind, name string, from, to int, start string) *goical.Component {
	part := &goical.Component{Name: kind, Props: make(goical.Props)}
	part.Props.Set(&goical.Prop{Name: goical.PropDateTimeStart, Params: make(goical.Params), Value: start})
	part.Props.Set(&goical.Prop{Name: goical.PropTimezoneOffsetFrom, Params: make(goical.Params), Value: utcOffset(from)})
	part.Props.Set(&goical.Prop{Name: goical.PropTimezoneOffsetTo, Params: make(goical.Params), Value: utcOffset(to)})
	if name != "" {
		setText(part.Props, goical.PropTimezoneName, name)
	}
	return part
}

// utcOffset is seconds east of UTC as an iCalendar UTC-OFFSET (+0100).
func utcOffset(sec int) string {
	sign := '+'
	if sec < 0 {
		sign, sec = '-', -sec
	}
	s := fmt.Sprintf("%c%02d%02d", sign, sec/3600, sec/60%60)
	if sec%60 != 0 {
		s += fmt.Sprintf("%02d", sec%60)
	}
	return s
}

// yearlyRule is the rule of a change on t's weekday of its month: the nth
// (or last, when no later such weekday fits in the month) of each year.
func yearlyRule(t time.Time) string {
	day := []string{"SU", "MO", "TU", "WE", "TH", "FR", "SA"}[t.Weekday()]
	n := (t.Day()-1)/7 + 1
	if t.AddDate(0, 0, 7).Month() != t.Month() {
		n = -1
	}
	return fmt.Sprintf("FREQ=YEARLY;BYMONTH=%d;BYDAY=%d%s", int(t.Month()), n, day)
}
