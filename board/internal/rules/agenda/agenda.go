// Package agenda answers "what is due?": the open tasks, open reminders and
// events of the board that fall in a time range, in the board's time zone,
// sorted by time. It is a pure function of the records and the clock.
package agenda

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/opsboard/opsboard/board/internal/rules/events"
	"github.com/opsboard/opsboard/shared/wire"
)

// DefaultDays is how many days after today the default range reaches: the
// default agenda is every overdue item plus today and the next DefaultDays days.
const DefaultDays = 7

// Range is the window an agenda covers. A zero From means "from the
// beginning", which brings in every overdue task and reminder.
type Range struct {
	From time.Time // inclusive; zero: unbounded
	To   time.Time // exclusive
}

// Default is the range used when the caller names none: everything overdue,
// then today and the next DefaultDays days, in loc.
func Default(now time.Time, loc *time.Location) Range {
	return Range{To: StartOfDay(now, loc).AddDate(0, 0, DefaultDays+1)}
}

// StartOfDay is midnight of t's day in loc.
func StartOfDay(t time.Time, loc *time.Location) time.Time {
	t = t.In(loc)
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, loc)
}

// ParseBound reads a range bound: a day (YYYY-MM-DD) or a datetime with or
// without an offset; without one it is a time in loc. endOfDay makes a bare
// day mean the end of that day (for an inclusive "to").
func ParseBound(s string, loc *time.Location, endOfDay bool) (time.Time, bool) {
	t, day, ok := When(s, loc)
	if ok && day && endOfDay {
		t = t.AddDate(0, 0, 1)
	}
	return t, ok
}

// When reads a due date as the board stores it: a day (YYYY-MM-DD, all day,
// midnight in loc) or a datetime; a datetime without an offset is a wall
// clock time in loc.
func When(s string, loc *time.Location) (t time.Time, allDay, ok bool) {
	s = strings.TrimSpace(s)
	if t, err := time.ParseInLocation("2006-01-02", s, loc); err == nil {
		return t, true, true
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04Z07:00"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, false, true
		}
	}
	for _, layout := range []string{"2006-01-02T15:04:05.999999999", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02 15:04"} {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return t, false, true
		}
	}
	return time.Time{}, false, false
}

// Query is what an agenda is built from.
type Query struct {
	Now    time.Time
	Loc    *time.Location
	Range  Range
	Domain wire.Domain // "" keeps every domain
}

// Build lists the items of q's range from the board's records: open tasks of
// live cases, open reminders, and events. A range without a start begins
// today and is led by every overdue task and reminder (due before now); a
// range with one leaves out what came before it. An event is never overdue,
// it is past. Items whose date does not parse are left out.
func Build(d *wire.Doc, q Query) []wire.AgendaItem {
	if q.Loc == nil {
		q.Loc = time.UTC
	}
	b := &builder{q: q, today: StartOfDay(q.Now, q.Loc)}
	b.tasks(d.Cases.Slice())
	b.reminders(d.Reminders.Slice())
	b.events(d.Events.Slice())
	slices.SortStableFunc(b.all, func(x, y placed) int {
		if c := x.at.Compare(y.at); c != 0 {
			return c
		}
		if x.item.AllDay != y.item.AllDay { // a day's all-day items lead it
			if x.item.AllDay {
				return -1
			}
			return 1
		}
		return cmp.Or(cmp.Compare(kindOrder(x.item.Kind), kindOrder(y.item.Kind)), strings.Compare(x.item.ID, y.item.ID))
	})
	out := []wire.AgendaItem{}
	for _, p := range b.all {
		out = append(out, p.item)
	}
	return out
}

// placed is an agenda item and the instant it sorts by.
type placed struct {
	at   time.Time
	item wire.AgendaItem
}

// builder gathers the items of one agenda.
type builder struct {
	q     Query // its Loc is set
	today time.Time
	all   []placed
}

// start is where the range begins: with no start, today, and the overdue
// items lead it.
func (b *builder) start() time.Time {
	if b.q.Range.From.IsZero() {
		return b.today
	}
	return b.q.Range.From
}

// add places an item due at at, when it falls in the range or is overdue
// in a range without a start.
func (b *builder) add(at time.Time, allDay bool, it wire.AgendaItem, canBeOverdue bool) {
	if canBeOverdue {
		if allDay {
			it.Overdue = at.Before(b.today)
		} else {
			it.Overdue = at.Before(b.q.Now)
		}
	}
	from := b.start()
	starts := !at.Before(from)
	if allDay {
		starts = at.AddDate(0, 0, 1).After(from) // a day counts while any of it is in range
	}
	if !at.Before(b.q.Range.To) || !(starts || b.q.Range.From.IsZero() && it.Overdue) {
		return
	}
	it.AllDay = allDay
	if allDay {
		it.DueAt = at.Format("2006-01-02")
	} else {
		it.DueAt = at.In(b.q.Loc).Format(time.RFC3339)
	}
	b.all = append(b.all, placed{at, it})
}

// tasks adds the open tasks with a due date of live cases.
func (b *builder) tasks(cases []*wire.Case) {
	for _, c := range cases {
		if c.ArchivedAt != "" || c.MergedInto != "" || !keep(b.q.Domain, domainOf(c.Domain)) {
			continue
		}
		for _, t := range c.Tasks {
			if t.CompletedAt != "" || t.DueAt == "" {
				continue
			}
			if at, day, ok := When(t.DueAt, b.q.Loc); ok {
				b.add(at, day, wire.AgendaItem{Kind: wire.AgendaTask, ID: t.ID, CaseID: c.ID, Title: t.Title}, true)
			}
		}
	}
}

// reminders adds the open reminders with a due date.
func (b *builder) reminders(rs []*wire.Reminder) {
	for _, r := range rs {
		if r.Status != wire.ReminderOpen || r.DueAt == "" || !keep(b.q.Domain, r.Domain) {
			continue
		}
		if at, day, ok := When(r.DueAt, b.q.Loc); ok {
			b.add(at, day, wire.AgendaItem{Kind: wire.AgendaReminder, ID: r.ID, CaseID: r.CaseID, Title: r.Title}, true)
		}
	}
}

// events adds the events; a repeating event is on the agenda on each day
// it occurs in range.
func (b *builder) events(es []*wire.Event) {
	loc := b.q.Loc
	fromDay, toDay := b.start().In(loc).Format("2006-01-02"), b.q.Range.To.In(loc).AddDate(0, 0, 1).Format("2006-01-02")
	for _, e := range es {
		if !keep(b.q.Domain, e.Domain) {
			continue
		}
		list := []*wire.Event{e}
		if e.Repeat != "" {
			list = events.Occurrences(e, fromDay, toDay, events.MaxOccurrences)
		}
		for _, o := range list {
			if at, day, ok := EventStart(o, loc); ok {
				b.add(at, day, wire.AgendaItem{Kind: wire.AgendaEvent, ID: o.ID, CaseID: o.CaseID, Title: o.Title}, false)
			}
		}
	}
}

// EventStart is when an event begins: its date at startTime in loc, or the
// whole day when it is all-day or has no start time.
func EventStart(e *wire.Event, loc *time.Location) (at time.Time, allDay, ok bool) {
	day, err := time.ParseInLocation("2006-01-02", e.Date, loc)
	if err != nil {
		return time.Time{}, false, false
	}
	if e.AllDay || e.StartTime == "" {
		return day, true, true
	}
	at, err = time.ParseInLocation("2006-01-02 15:04", e.Date+" "+e.StartTime, loc)
	if err != nil {
		return day, true, true
	}
	return at, false, true
}

func kindOrder(k string) int {
	return map[string]int{wire.AgendaEvent: 0, wire.AgendaTask: 1, wire.AgendaReminder: 2}[k]
}

// domainOf reads a case's domain: a missing value reads as work.
func domainOf(d wire.Domain) wire.Domain {
	if d == "" {
		return wire.DomainWork
	}
	return d
}

// keep drops a record only when both the filter and its own domain are set
// and differ, as search does.
func keep(filter, own wire.Domain) bool {
	return filter == "" || own == "" || filter == own
}
