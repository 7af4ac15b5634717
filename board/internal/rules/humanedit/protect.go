// Package humanedit keeps the person's changes authoritative: each record
// remembers, per field, when the person last changed it and the value that
// change replaced. An agent write that would set a field back to that value
// (at any age), or change it again within the protection window, is
// refused unless it says override. The rules here are pure functions of
// record values and times; For reads the write's context from a store.Tx.
package humanedit

import (
	"bytes"
	"encoding/json"
	"slices"
	"time"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
	"github.com/tidwall/gjson"
)

// Window is how long a person's change to a field holds against the agent
// when the humanEditWindow preference is not set.
const Window = wire.HumanEditWindow

// Untracked are the fields no one sets directly: stamps, logs and the
// edits map itself. A change to them is never protected.
var Untracked = []string{"updatedAt", "createdAt", "activity", "humanEdits", "completedAt", "completedBy", "createdBy", "nextId"}

// UntrackedTask is Untracked for a case's task, whose completion (its
// completedAt) is the person's gesture to protect.
var UntrackedTask = []string{"createdAt", "humanEdits", "nextId"}

// null is the JSON of a field a record leaves out (omitempty): empty.
var null = json.RawMessage("null")

// Fields is a record's JSON fields, for comparing two versions of it. A
// case's activity is left out: it is never compared (Untracked), and it
// grows by a row with every write, so encoding it made each write to a case
// cost more than the one before.
func Fields(record any) map[string]json.RawMessage {
	if c, ok := record.(*wire.Case); ok && c != nil {
		cp := *c
		cp.Activity = nil
		record = &cp
	}
	data, err := json.Marshal(record)
	if err != nil {
		return nil
	}
	// Split the object at its top level without decoding the values: each
	// field's JSON is a slice of data. json.Unmarshal into a map checked and
	// copied every value again, most of this function's time.
	out := make(map[string]json.RawMessage, 32)
	gjson.ParseBytes(data).ForEach(func(k, v gjson.Result) bool {
		out[k.Str] = json.RawMessage(data[v.Index : v.Index+len(v.Raw)])
		return true
	})
	return out
}

// value is a field's JSON in fields, null when the record leaves it out.
func value(fields map[string]json.RawMessage, name string) json.RawMessage {
	if v, ok := fields[name]; ok {
		return v
	}
	return null
}

// Changed lists, sorted, the fields whose value differs between two
// versions of a record, leaving out ignore.
func Changed(before, after map[string]json.RawMessage, ignore []string) []string {
	var out []string
	for k, v := range after {
		if !slices.Contains(ignore, k) && !bytes.Equal(v, before[k]) {
			out = append(out, k)
		}
	}
	for k := range before {
		if _, ok := after[k]; !ok && !slices.Contains(ignore, k) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// Stamp records that the person changed fields at now, each replacing its
// value in before. It returns the edits map to keep (nil stays nil when
// nothing changed).
func Stamp(edits wire.HumanEdits, before map[string]json.RawMessage, fields []string, now time.Time) wire.HumanEdits {
	if len(fields) == 0 {
		return edits
	}
	out := make(wire.HumanEdits, len(edits)+len(fields))
	for k, v := range edits {
		out[k] = v
	}
	at := now.UTC().Format(time.RFC3339Nano)
	for _, f := range fields {
		out[f] = wire.HumanEdit{At: at, Was: value(before, f)}
	}
	return out
}

// Conflict is the person's change an agent write would undo.
type Conflict struct {
	Field  string
	TS     string          // when the person changed it
	Value  json.RawMessage // the person's value, which stands
	Revert bool            // the write sets the value the person replaced
}

// Find is the first of fields (in order) where after undoes the person's
// change: it sets back the value their change replaced, at any age, or
// changes a field they changed within window before now. before holds the
// person's values.
func Find(edits wire.HumanEdits, before, after map[string]json.RawMessage, fields []string, window time.Duration, now time.Time) (Conflict, bool) {
	for _, f := range fields {
		e, ok := edits[f]
		if !ok {
			continue
		}
		c := Conflict{Field: f, TS: e.At, Value: value(before, f)}
		if e.Was != nil && bytes.Equal(compact(e.Was), value(after, f)) {
			c.Revert = true
			return c, true
		}
		at, err := time.Parse(time.RFC3339Nano, e.At)
		if err != nil {
			continue // a hand-edited stamp that does not parse protects no new value
		}
		if now.Sub(at) < window {
			return c, true
		}
	}
	return Conflict{}, false
}

// compact is JSON without insignificant space, as Fields encodes it (a
// hand-edited document may space its stored values).
func compact(v json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return v
	}
	return b.Bytes()
}

// Write is one write to a record as the protection sees it: who writes,
// the record before and after, and when the person last changed each field.
type Write struct {
	Actor    wire.Actor
	Override bool // the write says override
	// Decided marks a proposal the person approved: never refused, and
	// what it changes counts as the person's.
	Decided bool
	Record  string                     // the record's id, named in a refusal
	Edits   wire.HumanEdits            // the record's edits map (humanEdits)
	Before  map[string]json.RawMessage // the record's Fields from before the write
	After   any                        // the record as the write leaves it
	Ignore  []string                   // fields never protected: Untracked or UntrackedTask
	Window  time.Duration              // how long a change holds (WindowOf)
	Now     time.Time
}

// For is a write to one record inside tx: its actor, approval, window and
// time come from the write; Ignore is Untracked.
func For(tx *store.Tx, record string, edits wire.HumanEdits, before map[string]json.RawMessage, after any) Write {
	return Write{
		Actor: tx.Actor(), Decided: tx.Decided(), Record: record, Edits: edits, Before: before, After: after,
		Ignore: Untracked, Window: WindowOf(tx.Doc().Prefs), Now: tx.Now(),
	}
}

// Track is the person's side of the rule: a write by a human, or an
// approved proposal, stamps the fields that differ between before and
// after into the edits map. It returns the edits map to keep.
func (w Write) Track() wire.HumanEdits {
	if w.Actor != wire.ActorHuman && !w.Decided {
		return w.Edits
	}
	return Stamp(w.Edits, w.Before, Changed(w.Before, Fields(w.After), w.Ignore), w.Now)
}

// Check is the agent's side: an agent write that undoes a person's change
// (Find) is refused with an errs.HumanChangeError naming the record,
// unless it says override, in which case the conflict it overrode is
// returned so the caller can log it.
func (w Write) Check() (*Conflict, error) {
	if w.Actor != wire.ActorAgent || w.Decided || len(w.Edits) == 0 {
		return nil, nil
	}
	after := Fields(w.After)
	c, ok := Find(w.Edits, w.Before, after, Changed(w.Before, after, w.Ignore), w.Window, w.Now)
	switch {
	case !ok:
		return nil, nil
	case w.Override:
		return &c, nil
	}
	return nil, &errs.HumanChangeError{Record: w.Record, Field: c.Field, Actor: wire.ActorHuman, TS: c.TS, Value: c.Value, Revert: c.Revert, Window: w.Window}
}

// Apply is the whole rule over one write: the agent's side first (a
// refusal changes nothing), then the person's. It returns the edits map to
// keep and the conflict an override went through (nil when none).
func (w Write) Apply() (wire.HumanEdits, *Conflict, error) {
	over, err := w.Check()
	if err != nil {
		return w.Edits, nil, err
	}
	return w.Track(), over, nil
}

// Overridden is the activity detail of an override.
func (c Conflict) Overridden() string {
	return "override of the person's change to " + c.Field + " at " + c.TS
}

// Removal refuses an agent's delete of a record the person changed within
// the window (a delete undoes every change at once); an approved proposal
// goes through. record is the record as it stands.
func Removal(tx *store.Tx, id string, edits wire.HumanEdits, record any) error {
	if tx.Actor() != wire.ActorAgent || tx.Decided() || len(edits) == 0 {
		return nil
	}
	window, now := WindowOf(tx.Doc().Prefs), tx.Now()
	fields := make([]string, 0, len(edits))
	for f := range edits {
		fields = append(fields, f)
	}
	slices.Sort(fields)
	for _, f := range fields {
		at, err := time.Parse(time.RFC3339Nano, edits[f].At)
		if err == nil && now.Sub(at) < window {
			return &errs.HumanChangeError{Record: id, Field: f, Actor: wire.ActorHuman, TS: edits[f].At, Value: value(Fields(record), f), Window: window}
		}
	}
	return nil
}
