// Package repeat expands the board's recurrence rules (shared/recur) with
// rrule-go: the occurrences of a series in a range, the next one after an
// instant, and the next due date of a repeating item, in the board's zone.
// It knows nothing of records or HTTP.
package repeat

import (
	"time"

	"github.com/opsboard/opsboard/shared/recur"
	"github.com/opsboard/opsboard/shared/wire"
	"github.com/teambition/rrule-go"
)

// The rule and its parts, as written (see recur).
type (
	Rule = recur.Rule
	Day  = recur.Day
	Freq = recur.Freq
)

// The frequencies of the subset.
const (
	Daily   = recur.Daily
	Weekly  = recur.Weekly
	Monthly = recur.Monthly
	Yearly  = recur.Yearly
)

// Parse reads a rule; see recur.Parse.
func Parse(s string) (Rule, error) { return recur.Parse(s) }

// Describe says a rule in plain words; see recur.Describe.
func Describe(r Rule) string { return recur.Describe(r) }

// MaxSteps bounds how many occurrences one expansion walks from a series'
// start: a daily series 130 years long.
const MaxSteps = wire.MaxRepeatSteps

// series walks the occurrences of r from start, which is always the first
// (RFC 5545: DTSTART counts as the first occurrence even when the rule
// would not produce it). Expansion runs in start's location, so a wall-clock
// time stays put across a change of daylight saving time. It stops after
// COUNT occurrences, past UNTIL, or after MaxSteps.
//
// near is where the caller's interest begins (zero: at the start). A series
// without COUNT that starts long before it is walked from a later anchor
// instead, a whole number of intervals on, with the parts the rule took
// from its start written out: the same occurrences from there, without
// walking a decade of them for a calendar's month.
func series(r Rule, start, near time.Time) func() (time.Time, bool) {
	if r.Freq == "" {
		return func() (time.Time, bool) { return time.Time{}, false }
	}
	start = start.Truncate(time.Second)
	opt := rrule.ROption{Dtstart: start, Interval: max(r.Interval, 1), Bymonthday: r.ByMonthDay}
	opt.Freq = map[Freq]rrule.Frequency{Daily: rrule.DAILY, Weekly: rrule.WEEKLY, Monthly: rrule.MONTHLY, Yearly: rrule.YEARLY}[r.Freq]
	for _, d := range r.ByDay {
		wd := []rrule.Weekday{rrule.MO, rrule.TU, rrule.WE, rrule.TH, rrule.FR, rrule.SA, rrule.SU}[recur.MondayFirst(d.Weekday)]
		opt.Byweekday = append(opt.Byweekday, wd.Nth(d.N))
	}
	until, hasUntil := recur.UntilTime(r.Until, start.Location())
	if hasUntil {
		opt.Until = until
	}
	first := true // the start is the first occurrence
	if r.Count == 0 && !near.IsZero() {
		if anchor, ok := skipAhead(&opt, start, near.In(start.Location())); ok {
			opt.Dtstart, first = anchor, false
		}
	}
	rule, err := rrule.NewRRule(opt)
	if err != nil { // Parse keeps every value in bounds; a hand-built rule may not
		return func() (time.Time, bool) { return time.Time{}, false }
	}
	next := rule.Iterator()
	steps := 0
	return func() (time.Time, bool) {
		if r.Count > 0 && steps >= r.Count || steps >= MaxSteps {
			return time.Time{}, false
		}
		if first {
			first = false
			steps++
			return start, true
		}
		for {
			t, ok := next()
			if !ok {
				return time.Time{}, false
			}
			if !t.After(start) {
				continue // the start, or a day of its week or month before it
			}
			steps++
			return t, true
		}
	}
}

// skipAhead moves opt's start on by whole intervals to the last period
// boundary well before near, writing out the days the rule took from its
// start (weekday, day of the month, month). ok is false when near is too
// close to the start for it to matter.
func skipAhead(opt *rrule.ROption, start, near time.Time) (time.Time, bool) {
	saved := *opt
	anchor, ok := anchorFor(opt, start, near)
	if ok {
		if h, m, s := anchor.Clock(); h*3600+m*60+s != start.Hour()*3600+start.Minute()*60+start.Second() {
			// The anchor's day skips the start's time (a daylight saving
			// gap): walking from it would move every later occurrence.
			*opt, ok = saved, false
		}
	}
	return anchor, ok
}

func anchorFor(opt *rrule.ROption, start, near time.Time) (time.Time, bool) {
	n := opt.Interval
	y, m, d := start.Date()
	hh, mm, ss := start.Clock()
	loc := start.Location()
	switch opt.Freq {
	case rrule.DAILY:
		if k := (int(near.Sub(start).Hours()/24) - 2) / n; k > 0 {
			return start.AddDate(0, 0, k*n), true
		}
	case rrule.WEEKLY:
		if k := (int(near.Sub(start).Hours()/24)/7 - 2) / n; k > 0 {
			return start.AddDate(0, 0, 7*k*n), true // same weekday, same week alignment
		}
	case rrule.MONTHLY:
		if k := ((near.Year()-y)*12 + int(near.Month()-m) - 2) / n; k > 0 {
			if len(opt.Bymonthday) == 0 && len(opt.Byweekday) == 0 {
				opt.Bymonthday = []int{d}
			}
			return time.Date(y, m+time.Month(k*n), 1, hh, mm, ss, 0, loc), true
		}
	case rrule.YEARLY:
		if k := (near.Year() - y - 2) / n; k > 0 {
			opt.Bymonth, opt.Bymonthday = []int{int(m)}, []int{d}
			return time.Date(y+k*n, time.January, 1, hh, mm, ss, 0, loc), true
		}
	}
	return time.Time{}, false
}

// Next is the first occurrence after the instant after of the series r
// starting at start; ok is false when the series has none.
func Next(r Rule, start, after time.Time) (time.Time, bool) {
	next := series(r, start, after)
	for {
		t, ok := next()
		if !ok || t.After(after) {
			return t, ok
		}
	}
}

// Between lists the occurrences of the series r starting at start that
// fall in [from, to), at most limit of them (0: no limit but MaxSteps).
func Between(r Rule, start, from, to time.Time, limit int) []time.Time {
	var out []time.Time
	next := series(r, start, from)
	for {
		t, ok := next()
		if !ok || !t.Before(to) || (limit > 0 && len(out) >= limit) {
			return out
		}
		if !t.Before(from) {
			out = append(out, t)
		}
	}
}

// Following is what completing the occurrence due at due leaves: the rule
// of the next occurrence and when it is due. COUNT counts the occurrences
// left, this one included, so the next one's rule has one fewer; ok is false
// when COUNT or UNTIL ends the series here.
func Following(r Rule, due time.Time) (Rule, time.Time, bool) {
	if r.Freq == "" || r.Count == 1 {
		return Rule{}, time.Time{}, false
	}
	open := r
	open.Count = 0
	at, ok := Next(open, due, due)
	if !ok {
		return Rule{}, time.Time{}, false
	}
	if r.Count > 0 {
		open.Count = r.Count - 1
	}
	return open, at, true
}

// ICS is r as an iCalendar RRULE value for a series whose start is
// written in loc. RFC 5545 wants UNTIL in the start's value type: a day for
// an all-day series, a UTC time for a timed one (the end of an UNTIL day in
// loc).
func ICS(r Rule, loc *time.Location, allDay bool) string {
	if t, ok := recur.UntilTime(r.Until, loc); ok {
		if allDay {
			r.Until = t.In(loc).Format("20060102")
		} else {
			r.Until = t.UTC().Format("20060102T150405Z")
		}
	}
	return r.String()
}
