package store

//go:generate go run github.com/opsboard/opsboard/shared/storefile/kindgen -pkg store -out kinds_gen.go

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

// Tx is one write in progress: a draft of the document that only becomes
// visible when the write commits and is durable. Records returned by the
// getters are private copies; put them back to change them.
type Tx struct {
	d     *wire.Doc
	base  *wire.Doc // the committed state the draft started from
	now   time.Time
	actor wire.Actor
	zone  *time.Location // the machine's zone; nil for UTC
	// messageKey names a message for dedupe (Config.MessageKey); nil in a
	// scratch write, which then finds no message by key.
	messageKey func(*wire.Message) string
	// bodies reads a body a message names (bodyread.go); nil in a scratch
	// write, whose messages hold their bodies.
	bodies *bodyFile

	tables // one per record kind (kinds_gen.go)

	ix   *indexes // the head's indexes; nil for a scratch write
	ring *ring    // the recent writes, for an undo; nil for a scratch write

	countersDirty, sourcesDirty, prefsDirty bool

	undid []int64 // the writes this one undoes (NoteUndone)

	decided bool // the write carries out a proposal the person approved (MarkDecided)
}

func newTx(head *wire.Doc, now time.Time, actor wire.Actor) *Tx {
	d := *head // shallow: collections are copied on first change
	tx := &Tx{d: &d, base: head, now: now, actor: actor}
	tx.start(tx.d)
	return tx
}

// index maps a record id to its position in its collection.
type index map[string]int

func buildIndexes(d *wire.Doc, key func(*wire.Message) string) *indexes {
	ix := &indexes{messageKeys: messageKeysOf(d.Messages, key)}
	ix.build(d)
	return ix
}

func messageKeysOf(list wire.List[*wire.Message], key func(*wire.Message) string) map[string]string {
	out := make(map[string]string, list.Len())
	if key == nil {
		return out
	}
	for i, k := range keysOf(list, key) {
		out[k] = list.At(i).ID
	}
	return out
}

func indexOf[T storefile.Keyed](list wire.List[T]) index {
	ix := make(index, list.Len())
	for i, r := range list.All() {
		ix[r.Key()] = i
	}
	return ix
}

// collection is what the engine does with each table of a draft, whatever
// its record type.
type collection interface {
	commit()
	changedInPlace() []any
}

// useIndexes lets the tables find records of the head through ix.
func (tx *Tx) useIndexes(ix *indexes) {
	tx.ix = ix
	tx.indexWith(ix)
}

// changedInPlace lists the records this write put back unchanged as
// pointers, for the compaction encoder to forget.
func (tx *Tx) changedInPlace() []any {
	var out []any
	for _, c := range tx.all() {
		out = append(out, c.changedInPlace()...)
	}
	return out
}

// commitIndexes brings the head's indexes up to this draft, which has just
// become the head.
func (tx *Tx) commitIndexes() {
	for _, c := range tx.all() {
		c.commit()
	}
	if tx.ix != nil && tx.messageKey != nil {
		for _, m := range tx.messages.dirty {
			tx.ix.messageKeys[tx.messageKey(m)] = m.ID
		}
	}
}

// MessageByKey finds the message whose dedupe key (Config.MessageKey) is
// key, through an index rather than a scan of every message.
func (tx *Tx) MessageByKey(key string) (*wire.Message, bool) {
	keyOf := tx.messageKey
	if keyOf == nil {
		return nil, false
	}
	for _, m := range tx.messages.dirty {
		if keyOf(m) == key {
			return shallow(m), true
		}
	}
	if tx.ix == nil { // a scratch write: no index to use
		for _, m := range tx.d.Messages.All() {
			if keyOf(m) == key {
				return shallow(m), true
			}
		}
		return nil, false
	}
	id, ok := tx.ix.messageKeys[key]
	if !ok {
		return nil, false
	}
	m, ok := tx.messages.get(id)
	if !ok || keyOf(m) != key {
		return nil, false
	}
	return shallow(m), true
}

// Now is the write's time, one value for the whole write.
func (tx *Tx) Now() time.Time { return tx.now }

// Stamp is Now as the records store it: RFC 3339 in UTC with nanoseconds.
func (tx *Tx) Stamp() string { return tx.now.UTC().Format(time.RFC3339Nano) }

// DefaultZone is the machine's time zone, the board's zone unless the
// timezone preference names another (saved.Zone resolves the two).
func (tx *Tx) DefaultZone() *time.Location {
	if tx.zone == nil {
		return time.UTC
	}
	return tx.zone
}

// Actor is who the write is attributed to.
func (tx *Tx) Actor() wire.Actor { return tx.actor }

// Doc is the draft, for read-only scans. Do not mutate what it holds.
func (tx *Tx) Doc() *wire.Doc { return tx.d }

// NextID mints the next id for prefix (CASE, M, EVT, ...). Ids are never reused.
func (tx *Tx) NextID(prefix string) string {
	if !tx.countersDirty {
		c := make(map[string]int64, len(tx.d.Counters)+1)
		for k, v := range tx.d.Counters {
			c[k] = v
		}
		tx.d.Counters = c
		tx.countersDirty = true
	}
	tx.d.Counters[prefix]++
	return fmt.Sprintf("%s-%d", prefix, tx.d.Counters[prefix])
}

// DryRun runs fn on a scratch draft that starts from this one and is thrown
// away, whatever fn changes; it answers whether fn would succeed now.
func (tx *Tx) DryRun(fn func(tx *Tx) error) error {
	dry := newTx(tx.d, tx.now, tx.actor)
	dry.zone, dry.ring, dry.messageKey, dry.bodies = tx.zone, tx.ring, tx.messageKey, tx.bodies
	return fn(dry)
}

// SetLabelSources replaces the label provenance record.
func (tx *Tx) SetLabelSources(s *wire.LabelSources) { tx.d.LabelSources = s; tx.sourcesDirty = true }

// MarkDecided says the write carries out a proposal the person approved:
// it stays the proposer's, but what it changes is the person's decision.
func (tx *Tx) MarkDecided() { tx.decided = true }

// Decided reports whether MarkDecided was called.
func (tx *Tx) Decided() bool { return tx.decided }

// SetPrefs replaces the board preferences object.
func (tx *Tx) SetPrefs(p json.RawMessage) { tx.d.Prefs = p; tx.prefsDirty = true }

// entry is the journal record of everything this write changed.
func (tx *Tx) entry(version int64) *storefile.Entry {
	e := &storefile.Entry{Version: version, Actor: tx.actor, At: tx.Stamp()}
	tx.noteChanged(e)
	if tx.countersDirty {
		e.Counters = tx.d.Counters
	}
	if tx.sourcesDirty {
		e.LabelSources = tx.d.LabelSources
		if e.LabelSources == nil {
			e.LabelSources = &wire.LabelSources{}
		}
	}
	if tx.prefsDirty {
		e.Prefs = tx.d.Prefs
		if e.Prefs == nil {
			e.Prefs = json.RawMessage(`{}`)
		}
	}
	return e
}

// shallow copies a record whose fields are all values.
func shallow[R any](r *R) *R {
	cp := *r
	return &cp
}

// cloneCase deep-copies a case node so a write can change it freely.
func cloneCase(c *wire.Case) *wire.Case {
	cp := *c
	cp.Tags = append([]string(nil), c.Tags...)
	cp.Labels = append([]string(nil), c.Labels...)
	cp.VaultLinks = append([]string(nil), c.VaultLinks...)
	cp.Tasks = append([]wire.Task(nil), c.Tasks...)
	cp.Notes = append([]wire.Note(nil), c.Notes...)
	cp.Activity = append([]wire.Activity(nil), c.Activity...)
	return &cp
}

// cloneReminder copies a reminder with its label and checklist lists.
func cloneReminder(r *wire.Reminder) *wire.Reminder {
	cp := *r
	cp.Labels = append([]string(nil), r.Labels...)
	cp.Tasks = append([]wire.ReminderTask(nil), r.Tasks...)
	return &cp
}

// Scratch is a write over d that can never commit: rules run on it as on any
// write and Doc shows the result, while d itself is left as it was. It lets a
// caller try rules on a value, without a store on disk.
func Scratch(d *wire.Doc, now time.Time, actor wire.Actor) *Tx {
	return newTx(d, now, actor)
}
