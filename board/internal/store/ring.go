package store

import (
	"encoding/json"
	"sync"
	"time"

	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

// DefaultRingSize is how many committed writes the ring keeps when the
// configuration does not say.
const DefaultRingSize = 1024

// Change is one committed write as the ring of recent writes keeps it: who
// made it, when, and every record it touched with its image before and
// after the write. The images are the committed records themselves, shared
// with readers: never change them.
type Change struct {
	Version int64
	Actor   wire.Actor
	At      time.Time
	// Records are the records the write created, changed or removed, in the
	// order the write touched them (the document's collection order).
	Records []RecordChange
	// Undid lists the writes this one undid, when it was an undo.
	Undid []int64
}

// RecordChange is one record a write touched. Before is nil for a record
// the write created, After nil for one it removed; otherwise both are set.
// Kind is one of wire's record kinds (wire.KindCaseRecord, ...). For the
// board's single objects (prefs, label sources) the images are the values
// themselves: json.RawMessage and *wire.LabelSources.
type RecordChange struct {
	Kind   string
	ID     string
	Before any
	After  any
}

// Removed reports whether the write removed the record.
func (r RecordChange) Removed() bool { return r.After == nil }

// ring keeps the last writes, oldest first, with no gap in their versions.
// floor is the version the oldest kept write was made on: a caller at any
// version from floor to the newest can be told what changed since.
type ring struct {
	mu      sync.Mutex
	size    int
	entries []*Change // a circular buffer of size slots
	start   int       // index of the oldest entry
	n       int
	floor   int64
	version int64 // newest version the ring knows of
}

func newRing(size int, version int64) *ring {
	if size <= 0 {
		size = DefaultRingSize
	}
	return &ring{size: size, entries: make([]*Change, size), floor: version, version: version}
}

// add appends a committed write. A write that does not follow the newest
// one (which the engine never produces) starts the ring over, so it never
// answers across a gap.
func (r *ring) add(c *Change) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if c.Version != r.version+1 {
		r.resetLocked(c.Version)
		return
	}
	if r.n == r.size {
		r.floor = r.entries[r.start].Version
		r.entries[r.start] = nil
		r.start = (r.start + 1) % r.size
		r.n--
	}
	r.entries[(r.start+r.n)%r.size] = c
	r.n++
	r.version = c.Version
}

// reset forgets every write: the state at version came from somewhere
// other than the writes the ring saw (a hand edit of the document).
func (r *ring) reset(version int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.resetLocked(version)
}

func (r *ring) resetLocked(version int64) {
	clear(r.entries)
	r.start, r.n = 0, 0
	r.floor, r.version = version, version
}

func (r *ring) since(v int64) (out []*Change, version int64, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if v < r.floor || v > r.version {
		return nil, r.version, false
	}
	skip := int(v - r.floor) // entries are consecutive from floor+1
	for i := skip; i < r.n; i++ {
		out = append(out, r.entries[(r.start+i)%r.size])
	}
	return out, r.version, true
}

// all returns every kept write, oldest first, and the newest version.
func (r *ring) all() ([]*Change, int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]*Change, 0, r.n)
	for i := 0; i < r.n; i++ {
		out = append(out, r.entries[(r.start+i)%r.size])
	}
	return out, r.version
}

// ChangesSince returns, oldest first, every write committed after version
// since, and the newest version they reach. ok is false when the ring
// cannot answer for since: it is older than the oldest write the ring
// still holds, or newer than the board (a client that saw a board since
// restarted: the ring starts empty at open), or the state was replaced by a
// hand edit after since. Then the caller must reload whole.
//
// The ring is also where an undo finds what a write replaced: each change
// carries the before-image of every record it touched.
func (s *Store) ChangesSince(since int64) (changes []*Change, version int64, ok bool) {
	return s.ring.since(since)
}

// change builds the ring's record of the write tx is about to commit as
// version. It runs before the draft becomes the head: the tables still
// find each record's committed (before) image.
func (tx *Tx) change(version int64) *Change {
	c := &Change{Version: version, Actor: tx.actor, At: tx.now, Undid: tx.undid}
	c.Records = tx.changes(c.Records)
	if tx.sourcesDirty {
		rc := RecordChange{Kind: wire.KindLabelSources, ID: wire.KindLabelSources, After: tx.d.LabelSources}
		if tx.base.LabelSources != nil {
			rc.Before = tx.base.LabelSources
		}
		if tx.d.LabelSources == nil {
			rc.After = &wire.LabelSources{}
		}
		c.Records = append(c.Records, rc)
	}
	if tx.prefsDirty {
		rc := RecordChange{Kind: wire.KindPrefsRecord, ID: wire.KindPrefsRecord, After: tx.d.Prefs}
		if tx.base.Prefs != nil {
			rc.Before = tx.base.Prefs
		}
		if tx.d.Prefs == nil {
			rc.After = json.RawMessage(`{}`)
		}
		c.Records = append(c.Records, rc)
	}
	return c
}

// appendChanges adds what the write did to one table: each record it put
// (with its committed image, if any) and each committed record it removed.
func appendChanges[T storefile.Keyed](out []RecordChange, kind string, t *Table[T]) []RecordChange {
	if len(t.dirty) == 0 && len(t.deleted) == 0 {
		return out
	}
	var at index
	if t.ix == nil {
		at = indexOf(t.base)
	}
	before := func(id string) (T, bool) {
		var zero T
		pos, ok := at[id]
		if t.ix != nil {
			pos, ok = (*t.ix)[id]
		}
		if !ok || pos >= t.base.Len() || t.base.At(pos).Key() != id {
			return zero, false
		}
		return t.base.At(pos), true
	}
	for _, id := range t.order {
		r, ok := t.dirty[id]
		if !ok {
			continue
		}
		rc := RecordChange{Kind: kind, ID: id, After: r}
		if b, ok := before(id); ok {
			rc.Before = b
		}
		out = append(out, rc)
	}
	for _, id := range t.deleted {
		b, ok := before(id)
		if !ok {
			continue // created and removed within the write: nobody saw it
		}
		out = append(out, RecordChange{Kind: kind, ID: id, Before: b})
	}
	return out
}
