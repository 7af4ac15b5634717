package store

import (
	"slices"

	"github.com/opsboard/opsboard/shared/wire"
)

// A body that comes in by a write (new mail, an edited body) travels inline
// in the journal, so the state holds it in memory; a first ingest would
// keep every body of a mailbox there until the next start. Compaction moves
// such a body to the body file (diskForm, which notes it in moved); once
// that is durable, each such message no write changed since is replaced by
// a copy that keeps only the reference. Readers ask the store for a body
// either way (bodyread.go), so no answer changes; a state already handed to
// a reader keeps its copy until the reader drops it.

// noteMoved records that diskForm wrote m to the document with ref in place
// of its body. Only a message with a preview is let go of: a summary shows
// the start of the body where a preview is missing. Under compactMu.
func (b *bodyFile) noteMoved(m *wire.Message, ref wire.BodyRef) {
	if m.Preview == "" {
		return
	}
	if b.moved == nil {
		b.moved = map[*wire.Message]wire.BodyRef{}
	}
	b.moved[m] = ref
}

// releaseBodies lets go of the bodies the compaction that just succeeded
// moved to the body file: in the newest state, in the ring of recent writes
// and in the encoder's cache, each of which would hold them as long. Under
// compactMu; it takes writeMu, briefly.
func (s *Store) releaseBodies() {
	if s.bodies == nil {
		return
	}
	moved := s.bodies.moved
	s.bodies.moved = nil
	repl := make(map[*wire.Message]*wire.Message, len(moved))
	for m, ref := range moved {
		if s.bodies.has(ref) { // durable: a failed flush forgot it
			c := *m
			c.Body, c.BodyRef = "", &ref
			repl[m] = &c
		}
	}
	if len(repl) == 0 {
		return
	}
	s.ring.release(repl)
	s.enc.rekey(repl)
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	head := s.head
	d := *head
	list := wire.DraftOf(&d.Messages) // copies the chunks it replaces in
	replaced := false
	for m, c := range repl {
		i, ok := s.idx.messages[m.ID]
		if !ok || i >= head.Messages.Len() || head.Messages.At(i) != m {
			continue // changed or gone since
		}
		list.Set(i, c)
		replaced = true
	}
	if !replaced {
		return
	}
	// The new state has head's version and content: with nothing queued it
	// is what readers see now; else the next write builds on it.
	s.j.mu.Lock()
	if s.visible.Load() == head {
		s.visible.Store(&d)
	}
	s.j.mu.Unlock()
	s.head = &d
}

// release puts in place of each message image in repl its replacement: the
// same record, holding less in memory. An entry is copied, never changed,
// since readers may hold it.
func (r *ring) release(repl map[*wire.Message]*wire.Message) {
	swap := func(img any) (any, bool) {
		if m, ok := img.(*wire.Message); ok {
			if n, ok := repl[m]; ok {
				return n, true
			}
		}
		return img, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := 0; i < r.n; i++ {
		k := (r.start + i) % r.size
		var recs []RecordChange
		for j, rc := range r.entries[k].Records {
			before, b := swap(rc.Before)
			after, a := swap(rc.After)
			if !b && !a {
				continue
			}
			if recs == nil {
				recs = slices.Clone(r.entries[k].Records)
			}
			recs[j].Before, recs[j].After = before, after
		}
		if recs != nil {
			c := *r.entries[k]
			c.Records = recs
			r.entries[k] = &c
		}
	}
}

// rekey moves the cached bytes of each record in repl to its replacement,
// which the document holds the same way; the old record is let go of. Under
// compactMu.
func (e *docEncoder) rekey(repl map[*wire.Message]*wire.Message) {
	for old, c := range repl {
		if r, ok := e.cache[old]; ok {
			delete(e.cache, old)
			e.cache[c] = r
		}
	}
}
