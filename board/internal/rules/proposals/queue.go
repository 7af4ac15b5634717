package proposals

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"

	"github.com/opsboard/opsboard/board/internal/rules/events"
	"github.com/opsboard/opsboard/board/internal/rules/reminders"
	"github.com/opsboard/opsboard/shared/wire"
)

// records finds a document's records by id. The cases are indexed on first
// use, so a proposal naming many cases costs one pass over the board, not
// one per target.
type records struct {
	d     *wire.Doc
	cases map[string]*wire.Case
}

func (r *records) findCase(id string) *wire.Case {
	if r.cases == nil {
		r.cases = make(map[string]*wire.Case, r.d.Cases.Len())
		for _, c := range r.d.Cases.All() {
			if _, ok := r.cases[c.ID]; !ok {
				r.cases[c.ID] = c
			}
		}
	}
	return r.cases[id]
}

// fields is a record's JSON fields, for before and current values.
func (r *records) fields(id string) (map[string]json.RawMessage, string, bool) {
	d := r.d
	var rec any
	var updated string
	switch {
	case strings.HasPrefix(id, "CASE-"):
		if c := r.findCase(id); c != nil {
			rec, updated = c, c.UpdatedAt
		}
	case strings.HasPrefix(id, "REM-"):
		if r, err := reminders.Find(d, id); err == nil {
			rec, updated = r, r.UpdatedAt
		}
	case strings.HasPrefix(id, "EVT-"):
		if e, err := events.Find(d, id); err == nil {
			rec, updated = e, e.UpdatedAt
		}
	}
	if rec == nil {
		return nil, "", false
	}
	data, err := json.Marshal(rec)
	if err != nil {
		return nil, "", false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(data, &m) != nil {
		return nil, "", false
	}
	return m, updated, true
}

// pick returns the values of fields in rec, null for an absent one.
func pick(rec map[string]json.RawMessage, fields []string) map[string]json.RawMessage {
	if len(fields) == 0 {
		return nil
	}
	out := make(map[string]json.RawMessage, len(fields))
	for _, f := range fields {
		if v, ok := rec[f]; ok {
			out[f] = v
		} else {
			out[f] = json.RawMessage("null")
		}
	}
	return out
}

func kindOf(id string) string {
	switch {
	case strings.HasPrefix(id, "REM-"):
		return "reminder"
	case strings.HasPrefix(id, "EVT-"):
		return "event"
	}
	return "case"
}

// List lists the proposals, oldest first, each with what changed on its
// targets since it was filed.
func List(d *wire.Doc) []wire.ProposalItem {
	out := []wire.ProposalItem{}
	recs := &records{d: d}
	for _, p := range d.Proposals.All() {
		item := wire.ProposalItem{Proposal: *p, Targets: []wire.TargetNow{}}
		targets := []wire.ProposalTarget{}
		if p.Target != "" {
			targets = append(targets, wire.ProposalTarget{ID: p.Target, UpdatedAt: p.TargetUpdatedAt, Before: p.Before})
		}
		targets = append(targets, p.Others...)
		for _, t := range targets {
			now := wire.TargetNow{ID: t.ID}
			rec, updated, ok := recs.fields(t.ID)
			if !ok {
				now.Gone, now.ChangedSince = true, true
			} else {
				now.UpdatedAt = updated
				now.ChangedSince = updated != t.UpdatedAt
				fields := make([]string, 0, len(t.Before))
				for f := range t.Before {
					fields = append(fields, f)
				}
				sort.Strings(fields)
				now.Current = pick(rec, fields)
				for _, f := range fields {
					if !jsonEqual(t.Before[f], now.Current[f]) {
						now.ChangedFields = append(now.ChangedFields, f)
					}
				}
			}
			item.ChangedSince = item.ChangedSince || now.ChangedSince
			item.TargetGone = item.TargetGone || now.Gone
			item.Targets = append(item.Targets, now)
		}
		out = append(out, item)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].CreatedAt < out[j].CreatedAt })
	return out
}

// jsonEqual compares two JSON values by meaning, not by spelling.
func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return bytes.Equal(a, b)
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}
