package cases

import (
	"context"
	"errors"
	"fmt"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/rules/activity"
	"github.com/opsboard/opsboard/board/internal/rules/field"
	"github.com/opsboard/opsboard/board/internal/rules/humanedit"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// Archive soft-deletes a case node to the Trash. Its children keep their
// parent.
func Archive(ctx context.Context, s *store.Store, actor wire.Actor, id string) (*wire.Case, int64, error) {
	return Patch(ctx, s, actor, id, wire.CasePatch{ArchivedAt: wire.Some("now")})
}

// Restore brings a case node back from the Trash.
func Restore(ctx context.Context, s *store.Store, actor wire.Actor, id string) (*wire.Case, int64, error) {
	return Patch(ctx, s, actor, id, wire.CasePatch{ArchivedAt: wire.Null[string]()})
}

// Delete removes a case node for good: children are detached (a
// workstream whose initiative is gone becomes an initiative), linked messages
// unlinked, and events and reminders lose their link.
func Delete(ctx context.Context, s *store.Store, actor wire.Actor, id string) (int64, error) {
	return s.Update(ctx, actor, nil, func(tx *store.Tx) error { return DeleteTx(tx, id) })
}

// DeleteTx is Delete inside a write.
func DeleteTx(tx *store.Tx, id string) error {
	c, ok := tx.Cases().Get(id)
	if !ok {
		return errs.NotFound("case %s not found", id)
	}
	if err := humanedit.Removal(tx, c.ID, c.HumanEdits, c); err != nil {
		return err
	}
	remove(tx, []string{id}, false)
	return nil
}

// CleanResult reports a clean.
type CleanResult struct {
	Removed         []string `json:"removed"`
	MessagesRemoved int      `json:"messagesRemoved"`
}

// Clean purges done cases with their linked emails (an email also linked
// to a reminder is kept and unlinked). Anything not done refuses the whole
// clean. A snapshot is taken first, unless the newest snapshot already holds
// every record the clean removes exactly as it removes it.
func Clean(ctx context.Context, s *store.Store, actor wire.Actor, ids []string) (CleanResult, int64, error) {
	ids = field.CleanList(ids)
	if len(ids) == 0 {
		return CleanResult{}, 0, errs.BadRequest("field 'ids' must list the done cases to clean")
	}
	snap := s.Snapshot()
	byID := make(map[string]*wire.Case, snap.Cases.Len())
	for _, c := range snap.Cases.All() {
		if _, ok := byID[c.ID]; !ok {
			byID[c.ID] = c
		}
	}
	for _, id := range ids {
		c := byID[id]
		if c == nil {
			return CleanResult{}, 0, errs.NotFound("case %s not found", id)
		}
		if c.Status != wire.LaneDone {
			return CleanResult{}, 0, errs.BadRequest("%s is not done (status %s): clean purges done cases only", id, c.Status)
		}
	}
	// Whether the snapshot covers the clean is decided inside the write, on
	// the records it removes; when it does not, the snapshot is taken
	// outside the write lock and the write tried again. Only a concurrent
	// change to those very records makes a second round necessary.
	for range cleanAttempts {
		held := s.SnapshotState()
		var res CleanResult
		v, err := s.Update(ctx, actor, nil, func(tx *store.Tx) error {
			for _, id := range ids { // re-checked inside the critical section
				c, ok := tx.Cases().Get(id)
				if !ok {
					return errs.NotFound("case %s not found", id)
				}
				if c.Status != wire.LaneDone {
					return errs.BadRequest("%s is not done (status %s): clean purges done cases only", id, c.Status)
				}
			}
			if !snapshotHolds(held, tx.Doc(), ids) {
				return errSnapshotFirst
			}
			res = CleanResult{Removed: ids, MessagesRemoved: remove(tx, ids, true)}
			return nil
		})
		if !errors.Is(err, errSnapshotFirst) {
			return res, v, err
		}
		if err := s.TakeSnapshot(); err != nil {
			return CleanResult{}, 0, fmt.Errorf("snapshot before clean: %w", err)
		}
	}
	return CleanResult{}, 0, &errs.UnavailableError{Msg: "the cases to clean kept changing while the safety snapshot was taken; try again"}
}

// cleanAttempts bounds the rounds of snapshot-then-clean.
const cleanAttempts = 3

// errSnapshotFirst stops a clean the newest snapshot does not cover.
var errSnapshotFirst = errors.New("snapshot first")

// snapshotHolds reports whether snap (the newest snapshot's state, nil when
// unknown) holds every record a clean of ids removes from cur, unchanged:
// the cases and the messages it purges with them. Committed records are
// immutable, so the same pointer means the same record.
func snapshotHolds(snap, cur *wire.Doc, ids []string) bool {
	if snap == nil {
		return false
	}
	gone := make(map[string]bool, len(ids))
	for _, id := range ids {
		gone[id] = true
	}
	held := map[any]bool{}
	for _, c := range snap.Cases.All() {
		if gone[c.ID] {
			held[c] = true
		}
	}
	for _, m := range snap.Messages.All() {
		if gone[m.CaseID] {
			held[m] = true
		}
	}
	for _, c := range cur.Cases.All() {
		if gone[c.ID] && !held[c] {
			return false
		}
	}
	for _, m := range cur.Messages.All() {
		if gone[m.CaseID] && m.ReminderID == "" && !held[m] {
			return false
		}
	}
	return true
}

// remove deletes the given nodes and repairs everything that pointed at
// them. With purgeMessages, their messages go too unless a reminder holds
// them. It returns how many messages were removed.
func remove(tx *store.Tx, ids []string, purgeMessages bool) int {
	gone := map[string]bool{}
	for _, id := range ids {
		gone[id] = true
	}
	for _, c := range tx.Doc().Cases.All() {
		if gone[c.ID] || !gone[c.ParentID] {
			continue
		}
		child, _ := tx.Cases().Get(c.ID)
		detail := "detached: parent " + c.ParentID + " was deleted"
		child.ParentID = ""
		if child.Kind == wire.KindWorkstream {
			child.Kind = wire.KindInitiative // a workstream must sit under an initiative
			activity.Log(child, tx.Actor(), wire.VerbKindChanged, "workstream → initiative: its initiative was deleted", tx.Stamp())
		}
		activity.Log(child, tx.Actor(), wire.VerbParentChanged, detail, tx.Stamp())
		child.UpdatedAt = tx.Stamp()
		tx.Cases().Put(child)
	}
	// Records are removed in one pass per collection at the end: one
	// Delete per record costs a pass each.
	var purged []string
	for _, m := range tx.Doc().Messages.All() {
		if !gone[m.CaseID] {
			continue
		}
		if purgeMessages && m.ReminderID == "" {
			purged = append(purged, m.ID)
			continue
		}
		cp := *m
		cp.CaseID = ""
		tx.Messages().Put(&cp)
	}
	for _, e := range tx.Doc().Events.All() {
		if gone[e.CaseID] {
			cp := *e
			cp.CaseID, cp.UpdatedAt = "", tx.Stamp()
			tx.Events().Put(&cp)
		}
	}
	for _, r := range tx.Doc().Reminders.All() {
		if gone[r.CaseID] {
			cp, _ := tx.Reminders().Get(r.ID)
			cp.CaseID, cp.UpdatedAt = "", tx.Stamp()
			tx.Reminders().Put(cp)
		}
	}
	tx.Messages().DeleteMany(purged)
	tx.Cases().DeleteMany(ids)
	return len(purged)
}
