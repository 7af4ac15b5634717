package store

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

// bodyHeaderMax bounds a record's header and newlines, for estimates.
const bodyHeaderMax = 100

// collectBodies rewrites the body file without its dead records (bodies of
// deleted messages, bodies edited since) once they are more than half of
// it. It runs after a compaction, under compactMu; writers never touch the
// body file, so they do not wait for it. A body stays live while the
// document, the previous document or any snapshot names it.
//
// A cheap estimate from d comes first; the exact measure (hashing every
// body, reading every snapshot's references) runs only when the estimate
// says there may be garbage, and not again until the file passes twice what
// was live then, so snapshots that keep old bodies alive do not make every
// compaction measure. The previous document is replaced by the next
// compaction: when it alone keeps the garbage, that one measures again.
func (s *Store) collectBodies(d *wire.Doc) {
	b := s.bodies
	if b == nil || b.size <= b.checkAt {
		return
	}
	var est int64
	for _, m := range d.Messages.All() {
		est += int64(len(m.Body)) + bodyHeaderMax
		if m.Body == "" && m.BodyRef != nil {
			est += m.BodyRef.Bytes
		}
	}
	for _, ref := range b.lost {
		est += ref.Bytes + bodyHeaderMax
	}
	if b.size <= 2*est {
		b.checkAt = b.size
		return
	}
	live, prev := s.liveBodies(d)
	liveBytes := b.bytesOf(live)
	for sha := range prev {
		if !live[sha] {
			live[sha] = true
		}
	}
	if all := b.bytesOf(live); b.size-all <= b.size/2 {
		b.checkAt = max(b.size, 2*liveBytes)
		if b.size-liveBytes > b.size/2 {
			b.checkAt = 0
		}
		return
	}
	before := b.size
	if err := b.rewrite(live); err != nil {
		s.log.Error("store.bodies_collect", "err", err)
		b.checkAt = b.size // try again once more arrives
		return
	}
	b.checkAt = b.size
	s.log.Info("store.bodies_collected", "path", b.path, "before", before, "after", b.size)
}

// liveBody marks the body m holds or names as live.
func liveBody(live map[string]bool, m *wire.Message) {
	switch {
	case m.Body != "":
		live[storefile.BodyRefOf(m.Body).SHA256] = true
	case m.BodyRef != nil:
		live[m.BodyRef.SHA256] = true
	}
}

func (b *bodyFile) bytesOf(shas map[string]bool) int64 {
	var n int64
	for sha := range shas {
		if sp, ok := b.spans[sha]; ok {
			n += sp.End - sp.Start
		}
	}
	return n
}

// liveBodies lists the hashes of every body something on disk may need:
// the state, a lost body's reference, the body a recent write's image
// names without holding it (an undo puts the image back) and the
// snapshots in live, the previous document in prev.
func (s *Store) liveBodies(d *wire.Doc) (live, prev map[string]bool) {
	live, prev = map[string]bool{}, map[string]bool{}
	for _, m := range d.Messages.All() {
		liveBody(live, m)
	}
	if s.ring != nil {
		for _, c := range s.RecentChanges() {
			for _, r := range c.Records {
				for _, img := range []any{r.Before, r.After} {
					if m, ok := img.(*wire.Message); ok && m.Body == "" {
						liveBody(live, m) // one holding its body would write it again
					}
				}
			}
		}
	}
	for _, ref := range s.bodies.lost {
		live[ref.SHA256] = true
	}
	refsIn := func(r io.Reader, live map[string]bool) {
		var doc struct {
			Messages []struct {
				BodyRef *wire.BodyRef `json:"bodyRef"`
			} `json:"messages"`
		}
		if json.NewDecoder(r).Decode(&doc) != nil {
			return
		}
		for _, m := range doc.Messages {
			if m.BodyRef != nil {
				live[m.BodyRef.SHA256] = true
			}
		}
	}
	if f, err := os.Open(s.prevPath()); err == nil {
		refsIn(f, prev)
		f.Close()
	}
	for _, sn := range s.listSnapshots() {
		f, err := os.Open(sn.path)
		if err != nil {
			continue
		}
		if zr, err := gzip.NewReader(f); err == nil {
			refsIn(zr, live)
		}
		f.Close()
	}
	return live, prev
}

// rewrite copies the live records to a new file, syncs it and renames it
// into place. A crash leaves the old file or the new one, and either holds
// every body a document names, since references name content, not places.
func (b *bodyFile) rewrite(live map[string]bool) error {
	type rec struct {
		sha string
		sp  storefile.BodySpan
	}
	var keep []rec
	for sha := range live {
		if sp, ok := b.spans[sha]; ok {
			keep = append(keep, rec{sha, sp})
		}
	}
	sort.Slice(keep, func(i, j int) bool { return keep[i].sp.Start < keep[j].sp.Start })
	tmp := b.path + ".tmp"
	spans := make(map[string]storefile.BodySpan, len(keep))
	var off int64
	err := writeFileWith(tmp, func(w io.Writer) error {
		for _, r := range keep {
			buf := make([]byte, r.sp.End-r.sp.Start)
			if _, err := b.f.ReadAt(buf, r.sp.Start); err != nil {
				return fmt.Errorf("read body %s: %w", r.sha, err)
			}
			if _, err := w.Write(buf); err != nil {
				return err
			}
			shift := off - r.sp.Start
			spans[r.sha] = storefile.BodySpan{Start: off, Off: r.sp.Off + shift, Len: r.sp.Len, End: r.sp.End + shift}
			off += int64(len(buf))
		}
		return nil
	})
	if err != nil {
		os.Remove(tmp)
		return err
	}
	f, err := os.OpenFile(tmp, os.O_RDWR, 0o600)
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("open new bodies: %w", err)
	}
	if err := os.Rename(tmp, b.path); err != nil {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("replace bodies: %w", err)
	}
	b.mu.Lock() // readers hold it while they read the old file
	b.f.Close()
	b.f, b.spans, b.size = f, spans, off
	b.mu.Unlock()
	return syncDir(filepath.Dir(b.path))
}
