package undo

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/rules/activity"
	"github.com/opsboard/opsboard/board/internal/rules/hierarchy"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// Verb is the activity verb an undo logs on each case it puts back.
const Verb = wire.VerbUndone

// errNothing stops a write that would undo nothing.
var errNothing = errors.New("nothing to undo")

// Parse checks an undo request's body and turns it into a Request.
func Parse(in wire.UndoRequest) (Request, error) {
	by, since := wire.Actor(strings.TrimSpace(string(in.WritesBy))), strings.TrimSpace(in.Since)
	switch {
	case in.Version != 0 && (by != "" || since != ""):
		return Request{}, errs.BadRequest("give either 'version' or 'writesBy' with 'since', not both")
	case in.Until != 0 && by == "":
		return Request{}, errs.BadRequest("field 'until' goes with 'writesBy' and 'since': the newest write to undo")
	case in.Until < 0:
		return Request{}, errs.BadRequest("field 'until' must be a positive write version")
	case in.Version != 0:
		return Request{Version: in.Version, Through: in.Through}, nil
	case by == "" && since == "":
		return Request{}, errs.BadRequest("field 'version' is required (or 'writesBy' with 'since')")
	case by == "":
		return Request{}, errs.BadRequest("field 'writesBy' is required with 'since': whose writes to undo, e.g. agent")
	case since == "":
		return Request{}, errs.BadRequest("field 'since' is required with 'writesBy': an RFC 3339 time")
	}
	t, err := time.Parse(time.RFC3339, since)
	if err != nil {
		return Request{}, errs.BadRequest("field 'since' must be an RFC 3339 time, e.g. 2026-11-26T14:00:00Z")
	}
	return Request{WritesBy: wire.Actor(strings.ToLower(string(by))), Since: t, Until: in.Until, Through: in.Through}, nil
}

// Do undoes what req names as one write attributed to actor, or with
// dryRun only says what it would undo. Undoing nothing writes nothing.
func Do(ctx context.Context, s *store.Store, actor wire.Actor, req Request, dryRun bool) (wire.UndoReply, error) {
	if dryRun {
		recent := s.RecentChanges()
		plan, err := Make(recent, req)
		if err != nil {
			return wire.UndoReply{}, err
		}
		return wire.UndoReply{Undone: Describe(plan.Writes), DryRun: true, Version: s.Snapshot().Version}, nil
	}
	var plan Plan
	v, err := s.Update(ctx, actor, nil, func(tx *store.Tx) error {
		var err error
		plan, err = ApplyTx(tx, req)
		if err == nil && len(plan.Writes) == 0 {
			return errNothing
		}
		return err
	})
	if errors.Is(err, errNothing) {
		return wire.UndoReply{Undone: []wire.UndoneWrite{}, Version: s.Snapshot().Version}, nil
	}
	if err != nil {
		return wire.UndoReply{}, err
	}
	return wire.UndoReply{Undone: Describe(plan.Writes), Version: v}, nil
}

// ApplyTx plans req from the recent writes and puts the records back in
// tx. Each case put back logs one activity entry naming what was undone.
// An undo that would leave the case tree broken (a child whose parent it
// removes) is refused.
func ApplyTx(tx *store.Tx, req Request) (Plan, error) {
	recent, err := tx.Recent()
	if err != nil {
		return Plan{}, err
	}
	plan, err := Make(recent, req)
	if err != nil || len(plan.Writes) == 0 {
		return plan, err
	}
	versions := make([]int64, 0, len(plan.Writes))
	for _, w := range plan.Writes {
		versions = append(versions, w.Version)
	}
	tx.NoteUndone(versions)
	caseTouched := false
	for _, r := range plan.Restores {
		if err := tx.PutImage(r.Kind, r.ID, r.Image); err != nil {
			return Plan{}, err
		}
		caseTouched = caseTouched || r.Kind == wire.KindCaseRecord
	}
	if caseTouched {
		if err := hierarchy.Check(tx.Doc().Cases.Slice()); err != nil {
			return Plan{}, errs.BadRequest("undoing this would break the case tree (%v): undo the later writes on those cases first, or with through", err)
		}
	}
	detail := "undid " + writesInWords(plan.Writes)
	for _, r := range plan.Restores {
		if r.Kind != wire.KindCaseRecord || r.Image == nil {
			continue
		}
		if c, ok := tx.Cases().Get(r.ID); ok {
			activity.Log(c, tx.Actor(), Verb, detail, tx.Stamp())
			tx.Cases().Put(c)
		}
	}
	return plan, nil
}

// Describe lists writes as the reply names them.
func Describe(writes []*store.Change) []wire.UndoneWrite {
	out := make([]wire.UndoneWrite, 0, len(writes))
	for _, w := range writes {
		u := wire.UndoneWrite{Version: w.Version, Actor: w.Actor, At: w.At.UTC().Format(time.RFC3339Nano), Records: []wire.RecordRef{}}
		for _, r := range w.Records {
			u.Records = append(u.Records, wire.RecordRef{Kind: r.Kind, ID: r.ID})
		}
		out = append(out, u)
	}
	return out
}

// writesInWords names writes for an activity entry: "write 12 by agent",
// "3 writes (14, 13, 12)".
func writesInWords(writes []*store.Change) string {
	if len(writes) == 1 {
		return fmt.Sprintf("write %d by %s", writes[0].Version, writes[0].Actor)
	}
	vs := make([]string, 0, len(writes))
	for _, w := range writes {
		vs = append(vs, fmt.Sprint(w.Version))
	}
	return fmt.Sprintf("%d writes (%s)", len(writes), strings.Join(vs, ", "))
}
