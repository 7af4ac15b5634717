package undo_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/rules/undo"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

var t0 = time.Date(2026, 11, 26, 14, 0, 0, 0, time.UTC)

func cs(id, title string) *wire.Case { return &wire.Case{ID: id, Title: title} }

// write is a ring entry at version v, made at t0 plus v minutes.
func write(v int64, actor wire.Actor, recs ...store.RecordChange) *store.Change {
	return &store.Change{Version: v, Actor: actor, At: t0.Add(time.Duration(v) * time.Minute), Records: recs}
}

func put(id string, before, after *wire.Case) store.RecordChange {
	rc := store.RecordChange{Kind: wire.KindCaseRecord, ID: id}
	if before != nil {
		rc.Before = before
	}
	if after != nil {
		rc.After = after
	}
	return rc
}

// outcome is a plan in comparable words: versions undone, each record
// restored (id -> title, "" when removed), conflicts.
type outcome struct {
	Writes    []int64
	Restores  map[string]string
	Conflicts []wire.UndoConflict
	Err       string
}

func summarize(p undo.Plan, err error) outcome {
	o := outcome{Conflicts: p.Conflicts}
	for _, w := range p.Writes {
		o.Writes = append(o.Writes, w.Version)
	}
	for _, r := range p.Restores {
		if o.Restores == nil {
			o.Restores = map[string]string{}
		}
		title := ""
		if c, ok := r.Image.(*wire.Case); ok {
			title = c.Title
		}
		o.Restores[r.ID] = title
	}
	if err != nil {
		o.Err = err.Error()
		var uc *errs.UndoConflictError
		var bad *errs.BadRequestError
		if !errors.As(err, &uc) && !errors.As(err, &bad) {
			o.Err = "untyped: " + o.Err
		}
	}
	return o
}

func TestMake(t *testing.T) {
	// 11 creates CASE-1 (human); 12 renames it (agent); 13 creates CASE-2
	// (agent); 14 renames CASE-1 again and touches CASE-3 (human);
	// 15 renames CASE-3 (human); 16 removes CASE-2 (agent).
	ring := []*store.Change{
		write(11, wire.ActorHuman, put("CASE-1", nil, cs("CASE-1", "a"))),
		write(12, wire.ActorAgent, put("CASE-1", cs("CASE-1", "a"), cs("CASE-1", "b"))),
		write(13, wire.ActorAgent, put("CASE-2", nil, cs("CASE-2", "x"))),
		write(14, wire.ActorHuman, put("CASE-1", cs("CASE-1", "b"), cs("CASE-1", "c")), put("CASE-3", cs("CASE-3", "p"), cs("CASE-3", "q"))),
		write(15, wire.ActorHuman, put("CASE-3", cs("CASE-3", "q"), cs("CASE-3", "r"))),
		write(16, wire.ActorAgent, put("CASE-2", cs("CASE-2", "x"), nil)),
	}
	for _, tc := range []struct {
		name string
		req  undo.Request
		want outcome
	}{
		{"the newest write alone: a removal re-creates", undo.Request{Version: 16},
			outcome{Writes: []int64{16}, Restores: map[string]string{"CASE-2": "x"}}},
		{"a write nothing later touched", undo.Request{Version: 15},
			outcome{Writes: []int64{15}, Restores: map[string]string{"CASE-3": "q"}}},
		{"a later write on the same record refuses", undo.Request{Version: 12},
			outcome{Conflicts: []wire.UndoConflict{{Kind: "case", ID: "CASE-1", Version: 14}},
				Err: "cannot undo: a later write (14) changed case CASE-1; undo with through to undo the later writes too, or undo those first"}},
		{"through undoes the later writes and what they touched, newest first", undo.Request{Version: 12, Through: true},
			outcome{Writes: []int64{15, 14, 12}, Restores: map[string]string{"CASE-1": "a", "CASE-3": "p"}}},
		{"undoing a create removes the record", undo.Request{Version: 13},
			outcome{Conflicts: []wire.UndoConflict{{Kind: "case", ID: "CASE-2", Version: 16}},
				Err: "cannot undo: a later write (16) changed case CASE-2; undo with through to undo the later writes too, or undo those first"}},
		{"create and removal through: the record ends removed", undo.Request{Version: 13, Through: true},
			outcome{Writes: []int64{16, 13}, Restores: map[string]string{"CASE-2": ""}}},
		{"the agent since a time: a later human write refuses", undo.Request{WritesBy: wire.ActorAgent, Since: t0},
			outcome{Conflicts: []wire.UndoConflict{{Kind: "case", ID: "CASE-1", Version: 14}},
				Err: "cannot undo: a later write (14) changed case CASE-1; undo with through to undo the later writes too, or undo those first"}},
		{"the agent since after its first write: its own later writes need no through", undo.Request{WritesBy: wire.ActorAgent, Since: t0.Add(12 * time.Minute)},
			outcome{Writes: []int64{16, 13}, Restores: map[string]string{"CASE-2": ""}}},
		{"the agent since, through", undo.Request{WritesBy: wire.ActorAgent, Since: t0, Through: true},
			outcome{Writes: []int64{16, 15, 14, 13, 12}, Restores: map[string]string{"CASE-1": "a", "CASE-2": "", "CASE-3": "p"}}},
		{"no agent write since: nothing to do", undo.Request{WritesBy: wire.ActorAgent, Since: t0.Add(time.Hour)},
			outcome{}},
		{"older than the ring", undo.Request{Version: 10},
			outcome{Err: "write 10 is out of reach: undo reaches back to write 11 (the board's last 6 writes since it started); the board is at 16"}},
		{"newer than the board", undo.Request{Version: 17},
			outcome{Err: "write 17 is out of reach: undo reaches back to write 11 (the board's last 6 writes since it started); the board is at 16"}},
		{"a negative version", undo.Request{Version: -1},
			outcome{Err: "version must be a positive write version"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := summarize(undo.Make(ring, tc.req))
			if got.Err != "" {
				got.Writes, got.Restores = nil, nil // what a refused plan holds is not the answer
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestMakeWithAnEmptyRing(t *testing.T) {
	_, err := undo.Make(nil, undo.Request{Version: 3})
	var bad *errs.BadRequestError
	if !errors.As(err, &bad) {
		t.Fatalf("want a bad request, got %v", err)
	}
}

// The earliest undone write's before-image wins for a record several
// undone writes touched, and the restores follow the order of first touch.
func TestMakeRestoresTheEarliestImage(t *testing.T) {
	ring := []*store.Change{
		write(1, wire.ActorAgent, put("CASE-2", cs("CASE-2", "two"), cs("CASE-2", "2")), put("CASE-1", cs("CASE-1", "one"), cs("CASE-1", "1"))),
		write(2, wire.ActorAgent, put("CASE-1", cs("CASE-1", "1"), cs("CASE-1", "i"))),
	}
	p, err := undo.Make(ring, undo.Request{WritesBy: wire.ActorAgent, Since: t0})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range p.Restores {
		got = append(got, r.ID+"="+r.Image.(*wire.Case).Title)
	}
	if diff := cmp.Diff([]string{"CASE-2=two", "CASE-1=one"}, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestUndone(t *testing.T) {
	undid := func(v int64, vs ...int64) *store.Change { return &store.Change{Version: v, Undid: vs} }
	for _, tc := range []struct {
		name string
		ring []*store.Change
		want []int64
	}{
		{"no undo", []*store.Change{undid(1), undid(2)}, nil},
		{"an undo", []*store.Change{undid(1), undid(2, 1)}, []int64{1}},
		{"an undone undo brings the write back", []*store.Change{undid(1), undid(2, 1), undid(3, 2)}, []int64{2}},
		{"undone three times", []*store.Change{undid(1), undid(2, 1), undid(3, 2), undid(4, 3)}, []int64{1, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []int64
			set := undo.Undone(tc.ring)
			for _, c := range tc.ring {
				if set[c.Version] {
					got = append(got, c.Version)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestMakeSkipsTheAgentWritesAlreadyUndone(t *testing.T) {
	ring := []*store.Change{
		write(1, wire.ActorAgent, put("CASE-1", nil, cs("CASE-1", "a"))),
		write(2, wire.ActorAgent, put("CASE-2", nil, cs("CASE-2", "b"))),
		write(3, wire.ActorHuman, put("CASE-2", cs("CASE-2", "b"), nil)),
	}
	ring[2].Undid = []int64{2}
	got := summarize(undo.Make(ring, undo.Request{WritesBy: wire.ActorAgent, Since: t0}))
	if diff := cmp.Diff(outcome{Writes: []int64{1}, Restores: map[string]string{"CASE-1": ""}}, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// The person edits a case twice and undoes both, newest first: the undo of
// the second edit does not stand in the way of undoing the first.
func TestMakeStepsBackThroughUndos(t *testing.T) {
	ring := []*store.Change{
		write(1, wire.ActorHuman, put("CASE-1", cs("CASE-1", "a"), cs("CASE-1", "b"))),
		write(2, wire.ActorHuman, put("CASE-1", cs("CASE-1", "b"), cs("CASE-1", "c"))),
		write(3, wire.ActorHuman, put("CASE-1", cs("CASE-1", "c"), cs("CASE-1", "b"))),
	}
	ring[2].Undid = []int64{2}
	got := summarize(undo.Make(ring, undo.Request{Version: 1}))
	if diff := cmp.Diff(outcome{Writes: []int64{1}, Restores: map[string]string{"CASE-1": "a"}}, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	// Undoing again what an undo in effect already undid is refused.
	got = summarize(undo.Make(ring, undo.Request{Version: 2}))
	if diff := cmp.Diff([]wire.UndoConflict{{Kind: "case", ID: "CASE-1", Version: 3}}, got.Conflicts); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}
