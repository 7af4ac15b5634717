package undo_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/opsboard/opsboard/board/internal/rules/undo"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// BenchmarkMake plans undos over a full ring (1,024 writes, each touching
// two of 200 cases): the oldest write through everything after it, and the
// agent's writes since the start.
func BenchmarkMake(b *testing.B) {
	ring := make([]*store.Change, 0, store.DefaultRingSize)
	for v := int64(1); v <= store.DefaultRingSize; v++ {
		actor := wire.ActorHuman
		if v%3 == 0 {
			actor = wire.ActorAgent
		}
		var recs []store.RecordChange
		for _, n := range []int64{v % 200, (v * 7) % 200} {
			id := fmt.Sprintf("CASE-%d", n)
			recs = append(recs, put(id, cs(id, "before"), cs(id, "after")))
		}
		ring = append(ring, &store.Change{Version: v, Actor: actor, At: t0.Add(time.Duration(v) * time.Second), Records: recs})
	}
	for _, bc := range []struct {
		name string
		req  undo.Request
	}{
		{"through from the oldest", undo.Request{Version: 1, Through: true}},
		{"the agent since, through", undo.Request{WritesBy: wire.ActorAgent, Since: t0, Through: true}},
		{"the newest", undo.Request{Version: store.DefaultRingSize}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := undo.Make(ring, bc.req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
