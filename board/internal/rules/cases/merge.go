package cases

import (
	"context"
	"fmt"
	"strings"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/rules/activity"
	"github.com/opsboard/opsboard/board/internal/rules/field"
	"github.com/opsboard/opsboard/board/internal/rules/hierarchy"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// Merge merges source into target: tasks (with fresh ids), notes,
// messages, tags, labels, events and reminders move to the target; children
// are re-parented to it, or detached and noted when it cannot hold them; the
// source is archived with mergedInto and a note pointing to the target.
func Merge(ctx context.Context, s *store.Store, actor wire.Actor, sourceID, targetID string) (*wire.Case, int64, error) {
	return store.Do(ctx, s, actor, nil, func(tx *store.Tx) (*wire.Case, error) { return MergeTx(tx, sourceID, targetID) })
}

// MergeTx is Merge inside a write; it returns the target as merged.
func MergeTx(tx *store.Tx, sourceID, targetID string) (*wire.Case, error) {
	src, dst, err := mergePair(tx, sourceID, strings.TrimSpace(targetID))
	if err != nil {
		return nil, err
	}
	now := tx.Stamp()
	noteMint := moveContent(src, dst)
	relink(tx, src.ID, dst.ID, now)
	src.Tasks, src.Notes = nil, nil
	src.ArchivedAt, src.MergedInto, src.UpdatedAt = now, dst.ID, now
	src.Notes = append(src.Notes, wire.Note{ID: field.NextChildID(src.ID, "N", nil), Text: fmt.Sprintf("Merged into %s: use %s.", dst.ID, dst.ID), Actor: tx.Actor(), CreatedAt: now})
	activity.Log(src, tx.Actor(), wire.VerbMergedInto, dst.ID, now)
	activity.Log(dst, tx.Actor(), wire.VerbMergedFrom, src.ID, now)
	dst.UpdatedAt = now
	tx.Cases().Put(dst)
	tx.Cases().Put(src)
	moveChildren(tx, src, dst.ID, noteMint)
	out, _ := tx.Cases().Get(dst.ID)
	return out, nil
}

// mergePair finds the source and the target of a merge, refusing a merge
// into itself, a missing case and an archived target.
func mergePair(tx *store.Tx, sourceID, targetID string) (src, dst *wire.Case, err error) {
	if targetID == "" {
		return nil, nil, errs.BadRequest("field 'targetId' is required")
	}
	if targetID == sourceID {
		return nil, nil, errs.BadRequest("cannot merge %s into itself", sourceID)
	}
	src, ok := tx.Cases().Get(sourceID)
	if !ok {
		return nil, nil, errs.NotFound("case %s not found", sourceID)
	}
	dst, ok = tx.Cases().Get(targetID)
	if !ok {
		return nil, nil, errs.NotFound("case %s not found", targetID)
	}
	if dst.ArchivedAt != "" {
		return nil, nil, errs.BadRequest("target %s is archived: restore it first", targetID)
	}
	return src, dst, nil
}

// moveContent appends the source's tasks and notes to the target under
// fresh ids and unites their tags and labels. It returns the target's note
// minter, which notes about detached children go on using.
func moveContent(src, dst *wire.Case) *field.ChildIDs {
	taskMint, noteMint := field.ChildIDsAfter(dst.ID, "T", taskIDs(dst)), field.ChildIDsAfter(dst.ID, "N", noteIDs(dst))
	renamed := make(map[string]string, len(src.Tasks))
	first := len(dst.Tasks)
	for _, t := range src.Tasks {
		old := t.ID
		t.ID = taskMint.Next()
		renamed[old] = t.ID
		dst.Tasks = append(dst.Tasks, t)
	}
	for i := first; i < len(dst.Tasks); i++ {
		if to, ok := renamed[dst.Tasks[i].NextID]; ok {
			dst.Tasks[i].NextID = to // a repeating task's pointer follows the renumbering
		}
	}
	for _, n := range src.Notes {
		n.ID = noteMint.Next()
		dst.Notes = append(dst.Notes, n)
	}
	dst.Tags = field.CleanList(append(dst.Tags, src.Tags...))
	dst.Labels = field.CleanList(append(dst.Labels, src.Labels...))
	return noteMint
}

// relink points the messages, events and reminders of case from at case to.
func relink(tx *store.Tx, from, to, now string) {
	for _, m := range tx.Doc().Messages.All() {
		if m.CaseID == from {
			cp := *m
			cp.CaseID = to
			tx.Messages().Put(&cp)
		}
	}
	for _, e := range tx.Doc().Events.All() {
		if e.CaseID == from {
			cp := *e
			cp.CaseID, cp.UpdatedAt = to, now
			tx.Events().Put(&cp)
		}
	}
	for _, r := range tx.Doc().Reminders.All() {
		if r.CaseID == from {
			cp, _ := tx.Reminders().Get(r.ID)
			cp.CaseID, cp.UpdatedAt = to, now
			tx.Reminders().Put(cp)
		}
	}
}

// moveChildren re-parents the source's children to the target, as far as
// the target can hold them; a child it cannot hold is detached, and a note
// on the target says why.
func moveChildren(tx *store.Tx, src *wire.Case, dstID string, noteMint *field.ChildIDs) {
	now := tx.Stamp()
	// One index serves every check: moving a child changes nothing another
	// child's check reads, except when the child is the target itself.
	ix := hierarchy.NewIndex(tx.Doc().Cases)
	for _, c := range tx.Doc().Cases.All() {
		if c.ParentID != src.ID {
			continue
		}
		child, _ := tx.Cases().Get(c.ID)
		if err := ix.Violation(hierarchy.Node{ID: child.ID, Kind: child.Kind, ParentID: dstID}); err == nil {
			child.ParentID = dstID
			activity.Log(child, tx.Actor(), wire.VerbParentChanged, src.ID+" → "+dstID+" (merge)", now)
		} else {
			detach(tx, child, src.ID, dstID, err.Error(), noteMint)
		}
		child.UpdatedAt = now
		tx.Cases().Put(child)
		if child.ID == dstID {
			ix.Put(child)
		}
	}
}

// detach leaves a child of a merged source at the top of the tree (a
// workstream becomes an initiative) and notes why on the target.
func detach(tx *store.Tx, child *wire.Case, srcID, dstID, msg string, noteMint *field.ChildIDs) {
	now := tx.Stamp()
	child.ParentID = ""
	if child.Kind == wire.KindWorkstream {
		child.Kind = wire.KindInitiative
	}
	activity.Log(child, tx.Actor(), wire.VerbParentChanged, srcID+" → none (merge: "+msg+")", now)
	dst, _ := tx.Cases().Get(dstID)
	dst.Notes = append(dst.Notes, wire.Note{ID: noteMint.Next(), Text: fmt.Sprintf("%s (%s) was a child of %s but could not move under %s, so it was detached: %s", child.ID, child.Title, srcID, dstID, msg), Actor: wire.ActorSystem, CreatedAt: now})
	activity.Log(dst, wire.ActorSystem, wire.VerbChildDetached, child.ID, now)
	tx.Cases().Put(dst)
}
