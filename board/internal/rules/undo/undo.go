// Package undo is the rule that turns a request to undo writes into the
// records to restore. It reads the ring of recent writes (each with the
// before-image of every record it touched) and decides which writes an
// undo reverts, which later writes stand in its way, and what each record
// becomes. It is a pure function of those values; the store applies the
// plan as one new write.
package undo

import (
	"fmt"
	"time"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// Request names the writes to undo: the one write at Version, or, when
// Version is 0, every write by WritesBy made after Since. Through also
// undoes every later write that touched a record being restored.
type Request struct {
	Version  int64
	WritesBy wire.Actor
	Since    time.Time
	Until    int64 // with WritesBy: only writes up to this version; 0 for all
	Through  bool
}

// Restore is one record the undo puts back: Image is its state before the
// earliest undone write that touched it, nil when that write created it
// (the undo removes it). Images are the ring's committed values: copy
// before changing them.
type Restore struct {
	Kind  string
	ID    string
	Image any
}

// Plan is what an undo does: the writes it reverts, newest first, and the
// records it restores, in the order the oldest of those writes touched
// them. Conflicts, when set, are the later writes that refuse it.
type Plan struct {
	Writes    []*store.Change
	Restores  []Restore
	Conflicts []wire.UndoConflict
}

type key struct{ kind, id string }

// Make plans the undo of req over ring, the recent writes oldest first
// with no gap (as the store's ring keeps them). A version the ring does not
// hold is a BadRequestError saying how far back undo reaches; later writes
// on the same records, unless req.Through, an UndoConflictError listing
// them. A request that matches no write is an empty plan.
func Make(ring []*store.Change, req Request) (Plan, error) {
	undone := Undone(ring)
	target := func(c *store.Change) bool {
		if req.Version != 0 {
			return c.Version == req.Version
		}
		return c.Actor == req.WritesBy && c.At.After(req.Since) && !undone[c.Version] &&
			(req.Until == 0 || c.Version <= req.Until)
	}
	if req.Version != 0 {
		if req.Version < 0 {
			return Plan{}, errs.BadRequest("version must be a positive write version")
		}
		if len(ring) == 0 {
			return Plan{}, errs.BadRequest("write %d is out of reach: undo reaches only the writes made since the board started, and it has made none", req.Version)
		}
		first, last := ring[0].Version, ring[len(ring)-1].Version
		if req.Version < first || req.Version > last {
			return Plan{}, errs.BadRequest("write %d is out of reach: undo reaches back to write %d (the board's last %d writes since it started); the board is at %d", req.Version, first, len(ring), last)
		}
	}
	var (
		plan    Plan
		touched = map[key]bool{}
		writes  []*store.Change
		started bool
		first   int64 // the oldest write undone
	)
	for _, c := range ring {
		switch {
		case target(c):
			if !started {
				first = c.Version
			}
			started = true
		case !started:
			continue
		case neutral(c, first, undone):
			continue
		default:
			var hits []wire.UndoConflict
			for _, r := range c.Records {
				if touched[key{r.Kind, r.ID}] {
					hits = append(hits, wire.UndoConflict{Kind: r.Kind, ID: r.ID, Version: c.Version})
				}
			}
			if len(hits) == 0 {
				continue
			}
			if !req.Through {
				plan.Conflicts = append(plan.Conflicts, hits...)
				continue
			}
		}
		writes = append(writes, c)
		for _, r := range c.Records {
			k := key{r.Kind, r.ID}
			if !touched[k] {
				touched[k] = true
				plan.Restores = append(plan.Restores, Restore{Kind: r.Kind, ID: r.ID, Image: r.Before})
			}
		}
	}
	for i := len(writes) - 1; i >= 0; i-- {
		plan.Writes = append(plan.Writes, writes[i])
	}
	if len(plan.Conflicts) > 0 {
		return plan, &errs.UndoConflictError{Msg: conflictMessage(plan.Conflicts), Conflicts: plan.Conflicts}
	}
	return plan, nil
}

// Undone are the writes of ring an undo still in effect has undone: an
// undo counts unless a later undo, itself in effect, undid it.
func Undone(ring []*store.Change) map[int64]bool {
	out := map[int64]bool{}
	for i := len(ring) - 1; i >= 0; i-- {
		if c := ring[i]; !out[c.Version] {
			for _, v := range c.Undid {
				out[v] = true
			}
		}
	}
	return out
}

// neutral reports whether a later write c leaves the records as they were
// after the writes being undone (the oldest of them first): c was itself
// undone, or it is an undo (in effect) of writes after first only. Such a
// write neither refuses the undo nor needs undoing with it, so the
// person's edit, its undo, and then an undo of the edit before it works.
func neutral(c *store.Change, first int64, undone map[int64]bool) bool {
	if undone[c.Version] {
		return true
	}
	if len(c.Undid) == 0 {
		return false
	}
	for _, v := range c.Undid {
		if v <= first {
			return false
		}
	}
	return true
}

func conflictMessage(cs []wire.UndoConflict) string {
	c := cs[0]
	more := ""
	if len(cs) > 1 {
		more = fmt.Sprintf(" (and %d more)", len(cs)-1)
	}
	return fmt.Sprintf("cannot undo: a later write (%d) changed %s %s%s; undo with through to undo the later writes too, or undo those first", c.Version, c.Kind, c.ID, more)
}
