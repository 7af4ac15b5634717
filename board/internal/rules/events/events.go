// Package events holds the rules of calendar events: create (with dedupe),
// patch and delete, each logging on the linked case, and the calendar's
// read query.
package events

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/rules/activity"
	"github.com/opsboard/opsboard/board/internal/rules/cases"
	"github.com/opsboard/opsboard/board/internal/rules/field"
	"github.com/opsboard/opsboard/board/internal/rules/humanedit"
	"github.com/opsboard/opsboard/board/internal/rules/repeat"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// Create adds a calendar event. With in.Dedupe, an exact match (same
// normalized title, date and start time) is returned instead, with existing
// true and nothing written.
func Create(ctx context.Context, s *store.Store, actor wire.Actor, in wire.EventCreate) (out *wire.Event, existing bool, version int64, err error) {
	return store.CreateOrFind(ctx, s, actor, func(tx *store.Tx) (*wire.Event, bool, error) { return CreateTx(tx, in) })
}

// CreateTx is Create inside a write; found reports an exact match returned
// instead of a new event (nothing was changed then).
func CreateTx(tx *store.Tx, in wire.EventCreate) (*wire.Event, bool, error) {
	now := tx.Stamp()
	e := &wire.Event{
		Title: strings.TrimSpace(in.Title), Date: strings.TrimSpace(in.Date), AllDay: in.AllDay,
		StartTime: strings.TrimSpace(in.StartTime), EndTime: strings.TrimSpace(in.EndTime),
		Description: strings.TrimSpace(in.Description), Location: strings.TrimSpace(in.Location),
		CaseID: strings.TrimSpace(in.CaseID), Domain: wire.Domain(strings.TrimSpace(in.Domain)),
		CreatedAt: now, UpdatedAt: now, CreatedBy: tx.Actor(),
	}
	if e.Title == "" {
		return nil, false, errs.BadRequest("Field 'title' is required.")
	}
	if e.Date == "" {
		return nil, false, errs.BadRequest("Field 'date' is required.")
	}
	for _, err := range []error{
		field.CheckDay("date", e.Date), field.CheckClock("startTime", e.StartTime), field.CheckClock("endTime", e.EndTime),
		field.CheckDomain(e.Domain), cases.CheckLink(tx, e.CaseID),
	} {
		if err != nil {
			return nil, false, err
		}
	}
	rule, err := field.CheckRepeat("repeat", in.Repeat, "", "")
	if err != nil {
		return nil, false, err
	}
	e.Repeat = rule
	if in.Dedupe {
		for _, old := range tx.Doc().Events.All() {
			if field.NormTitle(old.Title) == field.NormTitle(e.Title) && old.Date == e.Date && old.StartTime == e.StartTime {
				cp := *old
				return &cp, true, nil
			}
		}
	}
	e.ID = tx.NextID("EVT")
	tx.Events().Put(e)
	activity.OnCase(tx, e.CaseID, wire.VerbEventLinked, e.ID+" "+e.Title)
	return e, false, nil
}

// Patch applies a partial update to an event. A relink logs
// event_unlinked on the old case and event_linked on the new one; other
// changes log event_updated on the linked case.
func Patch(ctx context.Context, s *store.Store, actor wire.Actor, id string, p wire.EventPatch) (*wire.Event, int64, error) {
	return store.Do(ctx, s, actor, p.ExpectedVersion, func(tx *store.Tx) (*wire.Event, error) {
		var before map[string]json.RawMessage
		if e, ok := tx.Events().Get(id); ok {
			before = humanedit.Fields(e)
		}
		e, err := PatchTx(tx, id, p)
		if err != nil {
			return nil, err
		}
		w := humanedit.For(tx, e.ID, e.HumanEdits, before, e)
		w.Override = p.Override
		over, err := w.Check()
		if err != nil {
			return nil, err
		}
		if over != nil {
			activity.Override(tx, e.CaseID, e.ID, over.Overridden())
		}
		return e, nil
	})
}

// PatchTx is Patch inside a write.
func PatchTx(tx *store.Tx, id string, p wire.EventPatch) (*wire.Event, error) {
	e, ok := tx.Events().Get(id)
	if !ok {
		return nil, errs.NotFound("event %s not found", id)
	}
	old := *e
	if p.Title.Set {
		if e.Title = field.OptText(p.Title, ""); e.Title == "" {
			return nil, errs.BadRequest("field 'title' cannot be empty")
		}
	}
	if p.Date.Set {
		if e.Date = field.OptText(p.Date, ""); e.Date == "" {
			return nil, errs.BadRequest("field 'date' cannot be empty")
		}
	}
	if p.AllDay.Set {
		e.AllDay = p.AllDay.V && !p.AllDay.Null
	}
	e.StartTime = field.OptText(p.StartTime, e.StartTime)
	e.EndTime = field.OptText(p.EndTime, e.EndTime)
	e.Description = field.OptText(p.Description, e.Description)
	e.Location = field.OptText(p.Location, e.Location)
	e.Domain = wire.Domain(field.OptText(p.Domain, string(e.Domain)))
	e.CaseID = field.OptText(p.CaseID, e.CaseID)
	if p.Repeat.Set {
		rule, err := field.CheckRepeat("repeat", field.OptText(p.Repeat, ""), "", "")
		if err != nil {
			return nil, err
		}
		e.Repeat = rule
	}
	// Only what this patch sets is checked, so a record with an odd value
	// from a hand edit stays editable.
	for _, c := range []struct {
		set bool
		err error
	}{
		{p.Date.Set, field.CheckDay("date", e.Date)}, {p.StartTime.Set, field.CheckClock("startTime", e.StartTime)},
		{p.EndTime.Set, field.CheckClock("endTime", e.EndTime)}, {p.Domain.Set, field.CheckDomain(e.Domain)},
	} {
		if c.set && c.err != nil {
			return nil, c.err
		}
	}
	if e.CaseID != old.CaseID {
		if err := cases.CheckLink(tx, e.CaseID); err != nil {
			return nil, err
		}
	}
	if reflect.DeepEqual(*e, old) {
		return e, nil // nothing changed: no activity, updatedAt kept
	}
	e.UpdatedAt = tx.Stamp()
	e.HumanEdits = humanedit.For(tx, e.ID, e.HumanEdits, humanedit.Fields(&old), e).Track()
	tx.Events().Put(e)
	if e.CaseID != old.CaseID {
		activity.OnCase(tx, old.CaseID, wire.VerbEventUnlinked, e.ID+" "+e.Title)
		activity.OnCase(tx, e.CaseID, wire.VerbEventLinked, e.ID+" "+e.Title)
	} else {
		activity.OnCase(tx, e.CaseID, wire.VerbEventUpdated, e.ID+" "+e.Title+": "+strings.Join(eventChanges(old, *e), ", "))
	}
	return e, nil
}

// eventChanges names the fields that differ between two versions of an event.
func eventChanges(a, b wire.Event) []string {
	var out []string
	for _, f := range []struct {
		name string
		x, y string
	}{
		{"title", a.Title, b.Title}, {"date", a.Date, b.Date}, {"startTime", a.StartTime, b.StartTime},
		{"endTime", a.EndTime, b.EndTime}, {"description", a.Description, b.Description},
		{"location", a.Location, b.Location}, {"domain", string(a.Domain), string(b.Domain)}, {"repeat", a.Repeat, b.Repeat},
	} {
		if f.x != f.y {
			out = append(out, f.name)
		}
	}
	if a.AllDay != b.AllDay {
		out = append(out, "allDay")
	}
	return out
}

// Delete removes an event for good; a linked case logs event_unlinked.
func Delete(ctx context.Context, s *store.Store, actor wire.Actor, id string) (int64, error) {
	return s.Update(ctx, actor, nil, func(tx *store.Tx) error { return deleteTx(tx, id) })
}

func deleteTx(tx *store.Tx, id string) error {
	e, ok := tx.Events().Get(id)
	if !ok {
		return errs.NotFound("event %s not found", id)
	}
	if err := humanedit.Removal(tx, e.ID, e.HumanEdits, e); err != nil {
		return err
	}
	tx.Events().Delete(id)
	activity.OnCase(tx, e.CaseID, wire.VerbEventUnlinked, e.ID+" "+e.Title)
	return nil
}

// Filter is the query of GET /api/events. From is inclusive and To
// exclusive, both days compared as strings; CaseGiven filters on CaseID even
// when it is empty (standalone events).
type Filter struct {
	From, To  string
	CaseID    string
	CaseGiven bool
	Domain    string
	// Masters lists a repeating event once, as its master, even with both
	// bounds (the iCalendar feed writes the rule, not its occurrences).
	Masters bool
}

// MaxOccurrences is how many occurrences of one series a read lists.
const MaxOccurrences = wire.MaxOccurrences

// List lists the events matching f in chronological order: by day, all-day
// events first, then by start time. With both From and To, a repeating
// event is listed once per occurrence in the range (see Occurrences);
// otherwise it is listed once, as its master, when its series reaches into
// the bounds given.
func List(d *wire.Doc, f Filter) ([]*wire.Event, error) {
	for _, q := range []struct{ name, v string }{{"from", f.From}, {"to", f.To}} {
		if q.v != "" {
			if err := field.CheckDay(q.name, q.v); err != nil {
				return nil, errs.BadRequest("query '%s' must be a day YYYY-MM-DD, not %q", q.name, q.v)
			}
		}
	}
	if f.Domain != "" && !slices.Contains(wire.Domains(), f.Domain) {
		return nil, errs.BadRequest("query 'domain' must be one of %s", strings.Join(wire.Domains(), ", "))
	}
	out := []*wire.Event{}
	for _, e := range d.Events.All() {
		switch {
		case f.CaseGiven && e.CaseID != f.CaseID,
			f.Domain != "" && string(e.Domain) != f.Domain:
			continue
		}
		if rule, start, ok := series(e); ok {
			if f.From != "" && f.To != "" && !f.Masters {
				out = append(out, Occurrences(e, f.From, f.To, MaxOccurrences)...)
			} else if reaches(rule, start, f.From, f.To) {
				out = append(out, e)
			}
			continue
		}
		if f.From != "" && e.Date < f.From || f.To != "" && e.Date >= f.To {
			continue
		}
		out = append(out, e)
	}
	sort.SliceStable(out, func(i, j int) bool { return eventBefore(out[i], out[j]) })
	return out, nil
}

// series reads a repeating event's rule and first start, as a floating
// time (the date and start time as written, in UTC): an event's times are
// wall-clock times, and the series keeps them. ok is false for an event
// that does not repeat or whose rule or date does not read.
func series(e *wire.Event) (repeat.Rule, time.Time, bool) {
	if e.Repeat == "" {
		return repeat.Rule{}, time.Time{}, false
	}
	rule, err := repeat.Parse(e.Repeat)
	if err != nil {
		return repeat.Rule{}, time.Time{}, false
	}
	start, err := time.Parse("2006-01-02", e.Date)
	if err != nil {
		return repeat.Rule{}, time.Time{}, false
	}
	if t, err := time.Parse("15:04", e.StartTime); err == nil && !e.AllDay {
		start = start.Add(time.Duration(t.Hour())*time.Hour + time.Duration(t.Minute())*time.Minute)
	}
	return rule, start, true
}

// reaches reports whether a series has an occurrence on or after the day
// from and before the day to; an empty bound is open.
func reaches(rule repeat.Rule, start time.Time, from, to string) bool {
	after := start.Add(-time.Second)
	if from != "" {
		after = day(from).Add(-time.Second)
	}
	t, ok := repeat.Next(rule, start, after)
	return ok && (to == "" || t.Before(day(to)))
}

func day(s string) time.Time {
	t, _ := time.Parse("2006-01-02", s)
	return t
}

// Occurrences expands a repeating event into the occurrences whose day
// falls in [from, to) (days YYYY-MM-DD), at most limit: each a copy of the
// master with date set to its day and occurrenceOf the master's id. An
// event that does not repeat is itself when its date is in range.
func Occurrences(e *wire.Event, from, to string, limit int) []*wire.Event {
	rule, start, ok := series(e)
	if !ok {
		if e.Date >= from && e.Date < to {
			return []*wire.Event{e}
		}
		return nil
	}
	var out []*wire.Event
	for _, at := range repeat.Between(rule, start, day(from), day(to), limit) {
		cp := *e
		cp.Date, cp.OccurrenceOf = at.Format("2006-01-02"), e.ID
		out = append(out, &cp)
	}
	return out
}

func eventBefore(a, b *wire.Event) bool {
	if a.Date != b.Date {
		return a.Date < b.Date
	}
	at, bt := timedAt(a), timedAt(b)
	if at != bt {
		return at < bt // "" (all day) sorts first
	}
	return a.CreatedAt < b.CreatedAt
}

// timedAt is the start time of a timed event, "" for an all-day one.
func timedAt(e *wire.Event) string {
	if e.AllDay {
		return ""
	}
	return e.StartTime
}

// Find returns an event of d by id.
func Find(d *wire.Doc, id string) (*wire.Event, error) {
	for _, e := range d.Events.All() {
		if e.ID == id {
			return e, nil
		}
	}
	return nil, errs.NotFound("event %s not found", id)
}
