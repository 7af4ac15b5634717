package wire

import (
	"cmp"
	"slices"
	"time"
)

// LaneSpot is what places a card in its lane: its manual position, when
// it has one, its creation time and its id.
type LaneSpot struct {
	Position  *float64
	CreatedAt string
	ID        string
}

// Spot is where c sits in its lane.
func (c *Case) Spot() LaneSpot { return LaneSpot{c.Position, c.CreatedAt, c.ID} }

// Spot is where c sits in its lane.
func (c *CaseSummary) Spot() LaneSpot { return LaneSpot{c.Position, c.CreatedAt, c.ID} }

// LaneKey is the one number a lane sorts by, smallest first: the position,
// else minus the creation time in seconds, so the newest card without a
// position is on top, where a person looking for what just arrived sees
// it. Every card has a key, so a drop writes one position (between its new
// neighbours' keys) and never renumbers the lane. The page computes the
// same key (static/js/lanes.js): milliseconds, as a browser parses them.
func LaneKey(s LaneSpot) float64 {
	if s.Position != nil {
		return *s.Position
	}
	t, err := time.Parse(time.RFC3339Nano, s.CreatedAt)
	if err != nil {
		return 0
	}
	return -float64(t.UnixMilli()) / 1000
}

// CompareLane orders two cards of a lane: by key, ties by id ascending.
func CompareLane(a, b LaneSpot) int {
	if c := cmp.Compare(LaneKey(a), LaneKey(b)); c != 0 {
		return c
	}
	return cmp.Compare(a.ID, b.ID)
}

// SortLanes puts cases in board order: by lane (urgent first, done last,
// an unknown status after them), and within a lane by CompareLane.
func SortLanes(cases []Case) {
	rank := map[string]int{}
	for i, l := range Lanes() {
		rank[l] = i
	}
	laneOf := func(c *Case) int {
		if r, ok := rank[string(c.Status)]; ok {
			return r
		}
		return len(rank)
	}
	slices.SortStableFunc(cases, func(a, b Case) int {
		if c := cmp.Compare(laneOf(&a), laneOf(&b)); c != 0 {
			return c
		}
		return CompareLane(a.Spot(), b.Spot())
	})
}
