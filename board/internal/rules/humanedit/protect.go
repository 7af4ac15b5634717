// Package humanedit keeps the person's changes authoritative: each record
// remembers when the person last changed each of its fields, and an agent
// write that would change one of those fields again within Window is
// refused unless it says override. The rules here are pure functions of
// record values and times.
package humanedit

import (
	"bytes"
	"encoding/json"
	"slices"
	"time"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/shared/wire"
)

// Window is how long a person's change to a field holds against the agent.
const Window = wire.HumanEditWindow

// Untracked are the fields no one sets directly: stamps, logs and the
// edits map itself. A change to them is never protected.
var Untracked = []string{"updatedAt", "createdAt", "activity", "humanEdits", "completedAt", "completedBy", "createdBy", "nextId"}

// UntrackedTask is Untracked for a case's task, whose completion (its
// completedAt) is the person's gesture to protect.
var UntrackedTask = []string{"createdAt", "humanEdits", "nextId"}

// Fields is a record's JSON fields, for comparing two versions of it.
func Fields(record any) map[string]json.RawMessage {
	data, err := json.Marshal(record)
	if err != nil {
		return nil
	}
	out := map[string]json.RawMessage{}
	if json.Unmarshal(data, &out) != nil {
		return nil
	}
	return out
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

// Stamp records that the person changed fields at now. It returns the
// edits map to keep (nil stays nil when nothing changed).
func Stamp(edits map[string]string, fields []string, now time.Time) map[string]string {
	if len(fields) == 0 {
		return edits
	}
	out := make(map[string]string, len(edits)+len(fields))
	for k, v := range edits {
		out[k] = v
	}
	for _, f := range fields {
		out[f] = now.UTC().Format(time.RFC3339Nano)
	}
	return out
}

// Conflict is the person's change an agent write would revert.
type Conflict struct {
	Field string
	TS    string // when the person changed it
}

// Recent is the first of fields (in order) the person changed within
// Window before now.
func Recent(edits map[string]string, fields []string, now time.Time) (Conflict, bool) {
	for _, f := range fields {
		ts, ok := edits[f]
		if !ok {
			continue
		}
		at, err := time.Parse(time.RFC3339Nano, ts)
		if err != nil {
			continue // a hand-edited stamp that does not parse protects nothing
		}
		if now.Sub(at) < Window {
			return Conflict{Field: f, TS: ts}, true
		}
	}
	return Conflict{}, false
}

// Write is one write to a record as the protection sees it: who writes,
// the record before and after, and when the person last changed each field.
type Write struct {
	Actor    wire.Actor
	Override bool                       // the write says override
	Record   string                     // the record's id, named in a refusal
	Edits    map[string]string          // the record's edits map (humanEdits)
	Before   map[string]json.RawMessage // the record's Fields from before the write
	After    any                        // the record as the write leaves it
	Ignore   []string                   // fields never protected: Untracked or UntrackedTask
	Now      time.Time
}

// Track is the person's side of the rule: a write by a human stamps the
// fields that differ between before and after into the edits map. It
// returns the edits map to keep.
func (w Write) Track() map[string]string {
	if w.Actor != wire.ActorHuman {
		return w.Edits
	}
	return Stamp(w.Edits, Changed(w.Before, Fields(w.After), w.Ignore), w.Now)
}

// Check is the agent's side: an agent write whose result differs from
// before in a field the person changed within Window is refused with an
// errs.HumanChangeError naming the record, unless it says override, in
// which case the conflict it overrode is returned so the caller can log it.
func (w Write) Check() (*Conflict, error) {
	if w.Actor != wire.ActorAgent {
		return nil, nil
	}
	c, ok := Recent(w.Edits, Changed(w.Before, Fields(w.After), w.Ignore), w.Now)
	switch {
	case !ok:
		return nil, nil
	case w.Override:
		return &c, nil
	}
	return nil, &errs.HumanChangeError{Record: w.Record, Field: c.Field, Actor: wire.ActorHuman, TS: c.TS}
}

// Overridden is the activity detail of an override.
func (c Conflict) Overridden() string {
	return "override of the person's change to " + c.Field + " at " + c.TS
}
