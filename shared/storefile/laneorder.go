package storefile

import (
	"cmp"
	"slices"
	"time"

	"github.com/opsboard/opsboard/shared/wire"
)

// mapLanePositions gives every case a position that keeps its place in its
// lane. Until schema 8 a card without a position sorted by its creation
// time, oldest first; from 8 on the newest is on top (wire.LaneKey). Run
// once on an older document, it numbers each lane 1, 2, 3... in the old
// order, so no lane changes order on upgrade and the cards created later
// (no position, a negative key) come in above them.
func mapLanePositions(d *wire.Doc) {
	lanes := map[wire.Lane][]*wire.Case{}
	for _, c := range d.Cases.All() {
		lanes[c.Status] = append(lanes[c.Status], c)
	}
	for _, lane := range lanes {
		slices.SortStableFunc(lane, compareBefore8)
		for i, c := range lane {
			p := float64(i + 1)
			c.Position = &p
		}
	}
}

// compareBefore8 is the lane order schemas up to 7 drew: the position,
// else the creation time in seconds, oldest first; ties by creation time as
// written, then by id.
func compareBefore8(a, b *wire.Case) int {
	key := func(c *wire.Case) float64 {
		if c.Position != nil {
			return *c.Position
		}
		t, err := time.Parse(time.RFC3339Nano, c.CreatedAt)
		if err != nil {
			return 0
		}
		return float64(t.UnixMilli()) / 1000
	}
	if c := cmp.Compare(key(a), key(b)); c != 0 {
		return c
	}
	if c := cmp.Compare(a.CreatedAt, b.CreatedAt); c != 0 {
		return c
	}
	return cmp.Compare(a.ID, b.ID)
}
