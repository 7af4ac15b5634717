package store

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

// RecentChanges returns every write the ring still holds, oldest first.
func (s *Store) RecentChanges() []*Change {
	changes, _ := s.ring.all()
	return changes
}

// errRingBehind means the ring had not yet learnt of a write the draft
// builds on (the journal adds writes to it once they are durable); Update
// then runs the write again.
var errRingBehind = errors.New("the ring of recent writes is behind the head")

// Recent returns every write the ring of recent writes holds, oldest
// first, up to the state this draft starts from, for a write computed from
// them (an undo).
func (tx *Tx) Recent() ([]*Change, error) {
	if tx.ring == nil {
		return nil, errs.BadRequest("this write has no record of recent writes")
	}
	changes, v := tx.ring.all()
	if v != tx.base.Version {
		return nil, errRingBehind
	}
	return changes, nil
}

// NoteUndone records, for the ring, that this write undoes versions.
func (tx *Tx) NoteUndone(versions []int64) { tx.undid = append(tx.undid, versions...) }

// PutImage puts back a record as the ring kept it (a before-image), or
// removes the record when image is nil. The image is copied first: the
// ring's images are committed values shared with readers.
func (tx *Tx) PutImage(kind, id string, image any) error {
	if ok, err := tx.putImage(kind, id, image); ok {
		return err
	}
	switch kind {
	case wire.KindPrefsRecord:
		raw, _ := image.(json.RawMessage)
		tx.SetPrefs(append(json.RawMessage(nil), raw...))
		return nil
	case wire.KindLabelSources:
		ls, _ := image.(*wire.LabelSources)
		if ls != nil {
			cp := *ls
			ls = &cp
		}
		tx.SetLabelSources(ls)
		return nil
	}
	return fmt.Errorf("put back %s %s: unknown record kind", kind, id)
}

func putImage[T storefile.Keyed](t *Table[T], id string, image any) error {
	if image == nil {
		t.del(id)
		return nil
	}
	rec, ok := image.(T)
	if !ok {
		return fmt.Errorf("put back %s %s: the image is a %T", t.name, id, image)
	}
	t.put(t.clone(rec))
	return nil
}
