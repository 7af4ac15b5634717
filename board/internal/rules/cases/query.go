package cases

import (
	"slices"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/shared/wire"
)

// Filter is the query of the case list. Empty fields match anything;
// ParentGiven filters on ParentID even when it is empty (top-level nodes),
// and Starred applies only when StarredGiven.
type Filter struct {
	Status                wire.Lane
	Domain                wire.Domain
	Kind                  wire.Kind
	Label                 string
	ParentID              string
	ParentGiven           bool
	Starred, StarredGiven bool
	IncludeArchived       bool
}

// List returns the case nodes of d that match f, in stored order. A status,
// domain or kind outside its set is a bad request.
func List(d *wire.Doc, f Filter) ([]*wire.Case, error) {
	for _, q := range []struct {
		name, v string
		allowed []string
	}{{"status", string(f.Status), wire.Lanes()}, {"domain", string(f.Domain), wire.Domains()}, {"kind", string(f.Kind), wire.Kinds()}} {
		if q.v != "" && !slices.Contains(q.allowed, q.v) {
			return nil, errs.BadRequest("query '%s' must be one of %v", q.name, q.allowed)
		}
	}
	out := []*wire.Case{}
	for _, c := range d.Cases.All() {
		switch {
		case c.ArchivedAt != "" && !f.IncludeArchived,
			f.Status != "" && c.Status != f.Status,
			f.Domain != "" && c.Domain != f.Domain,
			f.Kind != "" && c.Kind != f.Kind,
			f.ParentGiven && c.ParentID != f.ParentID,
			f.Label != "" && !slices.Contains(c.Labels, f.Label),
			f.StarredGiven && c.Starred != f.Starred:
			continue
		}
		out = append(out, c)
	}
	return out, nil
}

// Detail is one case node with everything linked to it.
type Detail struct {
	Case      *wire.Case
	Messages  []*wire.Message
	Events    []*wire.Event
	Reminders []*wire.Reminder
	// ManualActions are the entries of the case's log a person made.
	ManualActions []wire.Activity
}

// Get returns the case node id of d with its linked messages, events and
// reminders, or a NotFoundError.
func Get(d *wire.Doc, id string) (Detail, error) {
	c := findCase(d.Cases.Slice(), id)
	if c == nil {
		return Detail{}, errs.NotFound("case %s not found", id)
	}
	out := Detail{Case: c, Messages: []*wire.Message{}, Events: []*wire.Event{}, Reminders: []*wire.Reminder{}, ManualActions: []wire.Activity{}}
	for _, m := range d.Messages.All() {
		if m.CaseID == id {
			out.Messages = append(out.Messages, m)
		}
	}
	for _, e := range d.Events.All() {
		if e.CaseID == id {
			out.Events = append(out.Events, e)
		}
	}
	for _, r := range d.Reminders.All() {
		if r.CaseID == id {
			out.Reminders = append(out.Reminders, r)
		}
	}
	for _, a := range c.Activity {
		if a.Actor == wire.ActorHuman {
			out.ManualActions = append(out.ManualActions, a)
		}
	}
	return out, nil
}
