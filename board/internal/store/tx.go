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

func messageKeysOf(list []*wire.Message, key func(*wire.Message) string) map[string]string {
	out := make(map[string]string, len(list))
	if key == nil {
		return out
	}
	for i, k := range keysOf(list, key) {
		out[k] = list[i].ID
	}
	return out
}

func indexOf[T storefile.Keyed](list []T) index {
	ix := make(index, len(list))
	for i, r := range list {
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
		for _, m := range tx.d.Messages {
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

// Table is one collection of a write's draft. Get hands out a private copy
// (made by the collection's clone function); Put and Delete change the draft.
//
// The committed list it starts from is
// shared with readers, so the draft copies it before replacing or removing a
// record (a patch costs one pointer copy per record of the collection). A new
// record is appended in place: it lands past the committed list's length,
// where no reader of that list looks, so a create copies nothing.
type Table[T storefile.Keyed] struct {
	name    storefile.Collection
	clone   func(T) T // a private copy a write may change freely
	list    *[]T
	base    []T            // the committed list the draft started from
	ix      *index         // positions in the head list; nil scans instead
	copied  bool           // *list is this draft's own copy
	shifted bool           // a removal moved positions, so ix no longer applies
	added   map[string]int // positions of records this draft appended
	dirty   map[string]T   // records this draft put, by id
	order   []string       // dirty ids, first put first: new records replay in this order
	deleted []string
	// reput holds records put back as the very pointer the committed state
	// holds, i.e. changed in place. That is a bug in the caller (readers may
	// see it half-changed), but the compaction encoder must not trust its
	// cached bytes for them either.
	reput []any
}

// find returns the position of id in the draft's list, or -1.
func (t *Table[T]) find(id string) int {
	list := *t.list
	if t.ix != nil && !t.shifted {
		if i, ok := t.added[id]; ok {
			return i
		}
		if i, ok := (*t.ix)[id]; ok && i < len(list) && list[i].Key() == id {
			return i
		}
		return -1
	}
	for i, r := range list {
		if r.Key() == id {
			return i
		}
	}
	return -1
}

func (t *Table[T]) get(id string) (T, bool) {
	if i := t.find(id); i >= 0 {
		return (*t.list)[i], true
	}
	var zero T
	return zero, false
}

// own copies the committed list before the draft changes a record in it,
// with room to append without another copy.
func (t *Table[T]) own() {
	if t.copied {
		return
	}
	list := *t.list
	*t.list = append(make([]T, 0, len(list)+len(list)/8+8), list...)
	t.copied = true
}

func (t *Table[T]) put(rec T) {
	id := rec.Key()
	switch i := t.find(id); {
	case i >= 0:
		if i < len(t.base) && any(t.base[i]) == any(rec) {
			t.reput = append(t.reput, rec)
		}
		t.own()
		(*t.list)[i] = rec
	case indexOfString(t.deleted, id) >= 0:
		t.putBack(id, rec)
	default:
		*t.list = append(*t.list, rec)
		if t.added == nil {
			t.added = map[string]int{}
		}
		t.added[id] = len(*t.list) - 1
	}
	if t.dirty == nil {
		t.dirty = map[string]T{}
	}
	if _, ok := t.dirty[id]; !ok {
		t.order = append(t.order, id)
	}
	t.dirty[id] = rec
}

// putBack puts a record removed earlier in this write where replaying the
// write's journal entry will put it: a committed record at its committed
// place (the entry upserts it in place and no longer deletes it), a record
// new in this write at the end, after every other new one.
func (t *Table[T]) putBack(id string, rec T) {
	k := indexOfString(t.deleted, id)
	t.deleted = append(t.deleted[:k], t.deleted[k+1:]...)
	at := t.basePositions()
	pos, committed := at[id]
	if !committed {
		*t.list = append(*t.list, rec)
		if k := indexOfString(t.order, id); k >= 0 {
			t.order = append(t.order[:k], t.order[k+1:]...)
		}
		return
	}
	list := *t.list // owned: the removal copied it
	j := len(list)
	for i, r := range list {
		if p, ok := at[r.Key()]; !ok || p > pos {
			j = i
			break
		}
	}
	*t.list = append(list[:j], append([]T{rec}, list[j:]...)...)
}

// basePositions maps each id of the committed list to its position.
func (t *Table[T]) basePositions() index {
	if t.ix != nil {
		return *t.ix
	}
	return indexOf(t.base)
}

func (t *Table[T]) del(id string) {
	i := t.find(id)
	if i < 0 {
		return
	}
	t.own()
	list := *t.list
	*t.list = append(list[:i], list[i+1:]...) // the slice is this draft's own copy
	clear(list[len(list)-1:])
	t.shifted = true
	delete(t.dirty, id)
	t.deleted = append(t.deleted, id)
}

func indexOfString(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

// changed lists the records this write upserted and notes its deletions in e.
func (t *Table[T]) changed(e *storefile.Entry) []T {
	if len(t.deleted) > 0 {
		if e.Deleted == nil {
			e.Deleted = map[storefile.Collection][]string{}
		}
		e.Deleted[t.name] = t.deleted
	}
	if len(t.dirty) == 0 {
		return nil
	}
	out := make([]T, 0, len(t.dirty))
	for _, id := range t.order {
		if r, ok := t.dirty[id]; ok {
			out = append(out, r)
		}
	}
	return out
}

func (t *Table[T]) changedInPlace() []any { return t.reput }

// commit updates the head's index once this draft is the head.
func (t *Table[T]) commit() {
	switch {
	case t.ix == nil:
	case t.shifted:
		*t.ix = indexOf(*t.list)
	default:
		for id, i := range t.added {
			(*t.ix)[id] = i
		}
	}
}

// newTable starts a collection of a draft from the committed list at *list.
func newTable[T storefile.Keyed](name storefile.Collection, list *[]T, clone func(T) T) Table[T] {
	return Table[T]{name: name, list: list, base: *list, clone: clone}
}

// Get returns a private copy of the record with id.
func (t *Table[T]) Get(id string) (T, bool) {
	r, ok := t.get(id)
	if !ok {
		return r, false
	}
	return t.clone(r), true
}

// Has reports whether a record with id exists, without copying it.
func (t *Table[T]) Has(id string) bool { return t.find(id) >= 0 }

// Put inserts or replaces a record.
func (t *Table[T]) Put(rec T) { t.put(rec) }

// Delete removes the record with id; an unknown id is no change.
func (t *Table[T]) Delete(id string) { t.del(id) }

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

// DeleteMany removes the records with ids in one pass over the collection;
// unknown ids are no change. Removing many records one Delete at a time
// costs a pass over the collection each, which made a large clean
// quadratic.
func (t *Table[T]) DeleteMany(ids []string) {
	gone := make(map[string]bool, len(ids))
	for _, id := range ids {
		gone[id] = true
	}
	t.own()
	list := *t.list
	kept := list[:0]
	for _, r := range list {
		if id := r.Key(); gone[id] {
			delete(gone, id) // only the first record of an id, as Delete does
			delete(t.dirty, id)
			t.deleted = append(t.deleted, id)
			t.shifted = true
			continue
		}
		kept = append(kept, r)
	}
	clear(list[len(kept):])
	*t.list = kept
}
