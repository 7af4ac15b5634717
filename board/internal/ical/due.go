package ical

import (
	"net/url"
	"strings"
	"time"

	goical "github.com/emersion/go-ical"
	"github.com/opsboard/opsboard/board/internal/rules/agenda"
	"github.com/opsboard/opsboard/board/internal/rules/events"
	"github.com/opsboard/opsboard/board/internal/rules/repeat"
	"github.com/opsboard/opsboard/shared/wire"
)

// dueEntry is an open reminder or case task with a due date, as the feed
// writes it: a VEVENT at the due time (or on the due day) with an alarm.
type dueEntry struct {
	uid, summary, description, url string
	dueAt, repeat                  string
	stamp, created                 string // RFC 3339
	domain                         wire.Domain
}

// dayAlarm is when a date-only due rings: 09:00 on the day, written as
// an offset from the day's start (which an all-day event's alarm counts
// from), so every app rings at nine on the wall clock it shows the day in.
const dayAlarm = "PT9H"

// dueLength is how long a timed due is drawn: a point in time shows as
// a sliver in most apps, a quarter hour as a readable block. The event is
// transparent, so it never marks the time busy.
const dueLength = 15 * time.Minute

// Filter is what the feed keeps: the events' filter, which applies to the
// reminders and tasks too, and whether reminders and tasks are in at all.
type Filter struct {
	events.Filter
	Reminders, Tasks bool
}

// listDues lists the open reminders and the open tasks of live cases that
// have a due date, filtered as the events are: by case link, by domain, and
// by the from/to days (a repeating item is kept while its series can reach
// the range, that is when it starts before to).
func listDues(d *wire.Doc, f Filter, base string, loc *time.Location) []dueEntry {
	inRange := func(due, rule string) bool {
		at, _, ok := agenda.When(due, loc)
		if !ok {
			return false
		}
		day := at.In(loc).Format("2006-01-02")
		if f.To != "" && day >= f.To {
			return false
		}
		return rule != "" || f.From == "" || day >= f.From
	}
	domain := func(own wire.Domain) bool { return f.Domain == "" || string(own) == f.Domain }
	var out []dueEntry
	if f.Reminders {
		for _, r := range d.Reminders.All() {
			if r.Status != wire.ReminderOpen || r.DueAt == "" || (f.CaseGiven && r.CaseID != f.CaseID) || !domain(r.Domain) || !inRange(r.DueAt, r.Repeat) {
				continue
			}
			desc := r.Detail
			if r.CaseID != "" {
				desc = strings.TrimSpace(desc + "\n\nCase " + r.CaseID)
			}
			out = append(out, dueEntry{
				uid: r.ID + "@opsboard", summary: r.Title, description: desc,
				url:   base + "/reminders?id=" + url.QueryEscape(r.ID),
				dueAt: r.DueAt, repeat: r.Repeat, stamp: r.UpdatedAt, created: r.CreatedAt, domain: r.Domain,
			})
		}
	}
	if f.Tasks {
		for _, c := range d.Cases.All() {
			if c.ArchivedAt != "" || c.MergedInto != "" || (f.CaseGiven && c.ID != f.CaseID) || !domain(c.Domain) {
				continue
			}
			for _, t := range c.Tasks {
				if t.CompletedAt != "" || t.DueAt == "" || !inRange(t.DueAt, t.Repeat) {
					continue
				}
				uid := t.ID
				if !strings.HasPrefix(uid, c.ID+"-") {
					uid = c.ID + "-" + uid // task ids may be the case's own numbering
				}
				desc := strings.TrimSpace(t.Detail + "\n\n" + c.ID + ": " + c.Title)
				out = append(out, dueEntry{
					uid: uid + "@opsboard", summary: t.Title, description: desc,
					url:   base + "/board?case=" + url.QueryEscape(c.ID),
					dueAt: t.DueAt, repeat: t.Repeat, stamp: c.UpdatedAt, created: t.CreatedAt, domain: c.Domain,
				})
			}
		}
	}
	return out
}

// alarm is a DISPLAY alarm at trigger (a duration from the start).
func alarm(summary, trigger string) *goical.Component {
	a := goical.NewComponent(goical.CompAlarm)
	setText(a.Props, goical.PropAction, "DISPLAY")
	setText(a.Props, goical.PropDescription, summary)
	p := goical.NewProp(goical.PropTrigger)
	p.Value = trigger
	a.Props.Set(p)
	return a
}

// dueEvent is one due as a VEVENT. Calendar apps show subscribed
// VEVENTs everywhere and mostly ignore VTODOs in a feed, so a due is an
// event: on its day when date-only, else a short block at its time, both
// transparent (they mark no time busy), with a DISPLAY alarm at the due
// time or at 09:00 on the day. A repeating due carries its RRULE; when
// timed its start is written in loc (TZID), and zoneYear is that start's
// year, for the VTIMEZONE, or 0. ok is false for a due that does not parse.
func dueEvent(due dueEntry, loc *time.Location) (ev *goical.Event, zoneYear int, ok bool) {
	at, allDay, ok := agenda.When(due.dueAt, loc)
	if !ok {
		return nil, 0, false
	}
	var rule *repeat.Rule
	if due.repeat != "" {
		if r, err := repeat.Parse(due.repeat); err == nil {
			rule = &r
		}
	}
	ev = goical.NewEvent()
	setText(ev.Props, goical.PropUID, due.uid)
	ev.Props.SetDateTime(goical.PropDateTimeStamp, utcStamp(due.stamp))
	trigger := "PT0S"
	if allDay {
		day := time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, time.UTC)
		ev.Props.SetDate(goical.PropDateTimeStart, day)
		ev.Props.SetDate(goical.PropDateTimeEnd, day.AddDate(0, 0, 1))
		trigger = dayAlarm
	} else {
		in := time.UTC
		if rule != nil && loc != time.UTC {
			in = loc
			zoneYear = at.In(loc).Year()
		}
		ev.Props.SetDateTime(goical.PropDateTimeStart, at.In(in))
		ev.Props.SetDateTime(goical.PropDateTimeEnd, at.Add(dueLength).In(in))
	}
	details(ev.Props, rule, loc, allDay, due.summary, due.description, due.domain, due.created)
	u := goical.NewProp(goical.PropURL) // a URI, the value type URL has by default
	u.Value = due.url
	ev.Props.Set(u)
	setText(ev.Props, goical.PropTransparency, "TRANSPARENT")
	ev.Props.SetDateTime(goical.PropLastModified, utcStamp(due.stamp))
	ev.Children = append(ev.Children, alarm(due.summary, trigger))
	return ev, zoneYear, true
}
