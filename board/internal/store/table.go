package store

import (
	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

// Table is one collection of a write's draft. Get hands out a private copy
// (made by the collection's clone function); Put and Delete change the draft.
//
// The committed list it starts from is shared with readers, so the draft
// copies what it changes: replacing a record copies that record's chunk of
// the list (and the list's small index of chunks) the first time the draft
// touches it, removing one rebuilds the list from its chunk on. A new record
// is appended in place: it lands past the committed list's length, where no
// reader of that list looks, so a create copies nothing.
type Table[T storefile.Keyed] struct {
	name    storefile.Collection
	clone   func(T) T // a private copy a write may change freely
	list    *wire.List[T]
	draft   wire.ListDraft[T] // changes *list, copying each shared chunk once
	base    wire.List[T]      // the committed list the draft started from
	ix      *index            // positions in the head list; nil scans instead
	shifted bool              // a removal moved positions, so ix no longer applies
	added   map[string]int    // positions of records this draft appended
	dirty   map[string]T      // records this draft put, by id
	order   []string          // dirty ids, first put first: new records replay in this order
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
		if i, ok := (*t.ix)[id]; ok && i < list.Len() && list.At(i).Key() == id {
			return i
		}
		return -1
	}
	for i, r := range list.All() {
		if r.Key() == id {
			return i
		}
	}
	return -1
}

func (t *Table[T]) get(id string) (T, bool) {
	if i := t.find(id); i >= 0 {
		return t.list.At(i), true
	}
	var zero T
	return zero, false
}

func (t *Table[T]) put(rec T) {
	id := rec.Key()
	switch i := t.find(id); {
	case i >= 0:
		if i < t.base.Len() && any(t.base.At(i)) == any(rec) {
			t.reput = append(t.reput, rec)
		}
		t.draft.Set(i, rec)
	case indexOfString(t.deleted, id) >= 0:
		t.putBack(id, rec)
	default:
		t.draft.Append(rec)
		if t.added == nil {
			t.added = map[string]int{}
		}
		t.added[id] = t.list.Len() - 1
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
		t.draft.Append(rec)
		if k := indexOfString(t.order, id); k >= 0 {
			t.order = append(t.order[:k], t.order[k+1:]...)
		}
		return
	}
	j := t.list.Len()
	for i, r := range t.list.All() {
		if p, ok := at[r.Key()]; !ok || p > pos {
			j = i
			break
		}
	}
	t.draft.Insert(j, rec)
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
	t.draft.Delete(i)
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
func newTable[T storefile.Keyed](name storefile.Collection, list *wire.List[T], clone func(T) T) Table[T] {
	return Table[T]{name: name, list: list, draft: wire.DraftOf(list), base: *list, clone: clone}
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

// DeleteMany removes the records with ids in one pass over the collection;
// unknown ids are no change. Removing many records one Delete at a time
// costs a pass over the collection each, which made a large clean
// quadratic.
func (t *Table[T]) DeleteMany(ids []string) {
	gone := make(map[string]bool, len(ids))
	for _, id := range ids {
		gone[id] = true
	}
	t.draft.Filter(func(r T) bool {
		id := r.Key()
		if !gone[id] {
			return true
		}
		delete(gone, id) // only the first record of an id, as Delete does
		delete(t.dirty, id)
		t.deleted = append(t.deleted, id)
		t.shifted = true
		return false
	})
}
