package store

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/shared/wire"
)

// clock is a 24-hour HH:MM time of day.
var clock = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]$`)

// checkDay accepts a real calendar day written YYYY-MM-DD.
func checkDay(field, s string) error {
	if len(s) == 10 {
		if _, err := time.Parse("2006-01-02", s); err == nil {
			return nil
		}
	}
	return errs.BadRequest("field '%s' must be a calendar day YYYY-MM-DD, not %q", field, s)
}

func checkClock(field, s string) error {
	if s == "" || clock.MatchString(s) {
		return nil
	}
	return errs.BadRequest("field '%s' must be a 24-hour time HH:MM, not %q", field, s)
}

func checkDomain(s string) error {
	if s == "" {
		return nil
	}
	return oneOf("domain", s, wire.Domains)
}

// checkLink refuses a caseId that names no case node (a 400: the body is
// wrong, not the route).
func checkLink(tx *Tx, caseID string) error {
	if caseID == "" {
		return nil
	}
	if _, ok := tx.Case(caseID); !ok {
		return errs.BadRequest("field 'caseId': case %s not found", caseID)
	}
	return nil
}

// logOnCase appends an activity entry to a linked case and touches it. A
// case that is gone is skipped: its links are being repaired elsewhere.
func logOnCase(tx *Tx, caseID, verb, detail string) {
	if caseID == "" {
		return
	}
	c, ok := tx.Case(caseID)
	if !ok {
		return
	}
	logActivity(c, tx.actor, verb, detail, tx.Now())
	c.UpdatedAt = tx.Now()
	tx.PutCase(c)
}

// optText resolves a PATCH text field: absent keeps cur, null clears.
func optText(o wire.Opt[string], cur string) string {
	switch {
	case !o.Set:
		return cur
	case o.Null:
		return ""
	}
	return strings.TrimSpace(o.V)
}

// CreateEvent adds a calendar event. With in.Dedupe, an exact match (same
// normalized title, date and start time) is returned instead, with existing
// true and nothing written.
func (s *Store) CreateEvent(ctx context.Context, actor string, in wire.EventCreate) (out *wire.Event, existing bool, version int64, err error) {
	v, err := s.Update(ctx, actor, nil, func(tx *Tx) error {
		e, found, err := createEventTx(tx, in)
		out = e
		if found {
			version = tx.d.Version
			return errExisting
		}
		return err
	})
	if errors.Is(err, errExisting) {
		return out, true, version, nil
	}
	return out, false, v, err
}

func createEventTx(tx *Tx, in wire.EventCreate) (*wire.Event, bool, error) {
	now := tx.Now()
	e := &wire.Event{
		Title: strings.TrimSpace(in.Title), Date: strings.TrimSpace(in.Date), AllDay: in.AllDay,
		StartTime: strings.TrimSpace(in.StartTime), EndTime: strings.TrimSpace(in.EndTime),
		Description: strings.TrimSpace(in.Description), Location: strings.TrimSpace(in.Location),
		CaseID: strings.TrimSpace(in.CaseID), Domain: strings.TrimSpace(in.Domain),
		CreatedAt: now, UpdatedAt: now, CreatedBy: tx.actor,
	}
	if e.Title == "" {
		return nil, false, errs.BadRequest("Field 'title' is required.")
	}
	if e.Date == "" {
		return nil, false, errs.BadRequest("Field 'date' is required.")
	}
	for _, err := range []error{
		checkDay("date", e.Date), checkClock("startTime", e.StartTime), checkClock("endTime", e.EndTime),
		checkDomain(e.Domain), checkLink(tx, e.CaseID),
	} {
		if err != nil {
			return nil, false, err
		}
	}
	if in.Dedupe {
		for _, old := range tx.d.Events {
			if normTitle(old.Title) == normTitle(e.Title) && old.Date == e.Date && old.StartTime == e.StartTime {
				cp := *old
				return &cp, true, nil
			}
		}
	}
	e.ID = tx.NextID("EVT")
	tx.PutEvent(e)
	logOnCase(tx, e.CaseID, "event_linked", e.ID+" "+e.Title)
	return e, false, nil
}

// PatchEvent applies a partial update to an event. A relink logs
// event_unlinked on the old case and event_linked on the new one; other
// changes log event_updated on the linked case.
func (s *Store) PatchEvent(ctx context.Context, actor, id string, p wire.EventPatch) (*wire.Event, int64, error) {
	var out *wire.Event
	v, err := s.Update(ctx, actor, p.ExpectedVersion, func(tx *Tx) error {
		e, err := patchEventTx(tx, id, p)
		out = e
		return err
	})
	return out, v, err
}

func patchEventTx(tx *Tx, id string, p wire.EventPatch) (*wire.Event, error) {
	e, ok := tx.Event(id)
	if !ok {
		return nil, errs.NotFound("event %s not found", id)
	}
	old := *e
	if p.Title.Set {
		if e.Title = optText(p.Title, ""); e.Title == "" {
			return nil, errs.BadRequest("field 'title' cannot be empty")
		}
	}
	if p.Date.Set {
		if e.Date = optText(p.Date, ""); e.Date == "" {
			return nil, errs.BadRequest("field 'date' cannot be empty")
		}
	}
	if p.AllDay.Set {
		e.AllDay = p.AllDay.V && !p.AllDay.Null
	}
	e.StartTime = optText(p.StartTime, e.StartTime)
	e.EndTime = optText(p.EndTime, e.EndTime)
	e.Description = optText(p.Description, e.Description)
	e.Location = optText(p.Location, e.Location)
	e.Domain = optText(p.Domain, e.Domain)
	e.CaseID = optText(p.CaseID, e.CaseID)
	// Only what this patch sets is checked, so a record with an odd value
	// from a hand edit stays editable.
	for _, c := range []struct {
		set bool
		err error
	}{
		{p.Date.Set, checkDay("date", e.Date)}, {p.StartTime.Set, checkClock("startTime", e.StartTime)},
		{p.EndTime.Set, checkClock("endTime", e.EndTime)}, {p.Domain.Set, checkDomain(e.Domain)},
	} {
		if c.set && c.err != nil {
			return nil, c.err
		}
	}
	if e.CaseID != old.CaseID {
		if err := checkLink(tx, e.CaseID); err != nil {
			return nil, err
		}
	}
	if *e == old {
		return e, nil // nothing changed: no activity, updatedAt kept
	}
	e.UpdatedAt = tx.Now()
	tx.PutEvent(e)
	if e.CaseID != old.CaseID {
		logOnCase(tx, old.CaseID, "event_unlinked", e.ID+" "+e.Title)
		logOnCase(tx, e.CaseID, "event_linked", e.ID+" "+e.Title)
	} else {
		logOnCase(tx, e.CaseID, "event_updated", e.ID+" "+e.Title+": "+strings.Join(eventChanges(old, *e), ", "))
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
		{"location", a.Location, b.Location}, {"domain", a.Domain, b.Domain},
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

// DeleteEvent removes an event for good; a linked case logs event_unlinked.
func (s *Store) DeleteEvent(ctx context.Context, actor, id string) (int64, error) {
	return s.Update(ctx, actor, nil, func(tx *Tx) error { return deleteEventTx(tx, id) })
}

func deleteEventTx(tx *Tx, id string) error {
	e, ok := tx.Event(id)
	if !ok {
		return errs.NotFound("event %s not found", id)
	}
	tx.DeleteEvent(id)
	logOnCase(tx, e.CaseID, "event_unlinked", e.ID+" "+e.Title)
	return nil
}

// EventFilter is the query of GET /api/events. From is inclusive and To
// exclusive, both days compared as strings; CaseGiven filters on CaseID even
// when it is empty (standalone events).
type EventFilter struct {
	From, To  string
	CaseID    string
	CaseGiven bool
	Domain    string
}

// Events lists the events matching f in chronological order: by day, all-day
// events first, then by start time.
func Events(d *wire.Doc, f EventFilter) ([]*wire.Event, error) {
	for _, q := range []struct{ name, v string }{{"from", f.From}, {"to", f.To}} {
		if q.v != "" {
			if err := checkDay(q.name, q.v); err != nil {
				return nil, errs.BadRequest("query '%s' must be a day YYYY-MM-DD, not %q", q.name, q.v)
			}
		}
	}
	if f.Domain != "" && !slices.Contains(wire.Domains, f.Domain) {
		return nil, errs.BadRequest("query 'domain' must be one of %s", strings.Join(wire.Domains, ", "))
	}
	out := []*wire.Event{}
	for _, e := range d.Events {
		switch {
		case f.From != "" && e.Date < f.From,
			f.To != "" && e.Date >= f.To,
			f.CaseGiven && e.CaseID != f.CaseID,
			f.Domain != "" && e.Domain != f.Domain:
			continue
		}
		out = append(out, e)
	}
	sort.SliceStable(out, func(i, j int) bool { return eventBefore(out[i], out[j]) })
	return out, nil
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

// FindEvent returns an event of d by id.
func FindEvent(d *wire.Doc, id string) (*wire.Event, error) {
	for _, e := range d.Events {
		if e.ID == id {
			return e, nil
		}
	}
	return nil, errs.NotFound("event %s not found", id)
}
