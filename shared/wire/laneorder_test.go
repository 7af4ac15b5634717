package wire

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLaneOrder(t *testing.T) {
	pos := func(v float64) *float64 { return &v }
	for _, tc := range []struct {
		name  string
		cards []Case
		want  []string
	}{
		{"newest without a position on top", []Case{
			{ID: "CASE-1", CreatedAt: "2026-01-01T09:00:00Z"},
			{ID: "CASE-2", CreatedAt: "2026-01-03T09:00:00Z"},
			{ID: "CASE-3", CreatedAt: "2026-01-02T09:00:00Z"},
		}, []string{"CASE-2", "CASE-3", "CASE-1"}},
		{"a position sorts among the others by its value", []Case{
			{ID: "CASE-1", CreatedAt: "2026-01-01T09:00:00Z", Position: pos(2)},
			{ID: "CASE-2", CreatedAt: "2026-01-03T09:00:00Z"},
			{ID: "CASE-3", CreatedAt: "2026-01-02T09:00:00Z", Position: pos(1)},
		}, []string{"CASE-2", "CASE-3", "CASE-1"}},
		{"a position above every creation time goes on top", []Case{
			{ID: "CASE-1", CreatedAt: "2026-01-01T09:00:00Z"},
			{ID: "CASE-2", CreatedAt: "2026-01-03T09:00:00Z", Position: pos(-1e10)},
		}, []string{"CASE-2", "CASE-1"}},
		{"ties by id ascending", []Case{
			{ID: "CASE-9", Position: pos(1)},
			{ID: "CASE-10", Position: pos(1)},
			{ID: "CASE-2", CreatedAt: "2026-01-01T09:00:00+01:00"},
			{ID: "CASE-1", CreatedAt: "2026-01-01T08:00:00Z"},
		}, []string{"CASE-1", "CASE-2", "CASE-10", "CASE-9"}},
		{"an unreadable creation time counts as zero", []Case{
			{ID: "CASE-1", CreatedAt: "soon", Position: nil},
			{ID: "CASE-2", Position: pos(-0.5)},
			{ID: "CASE-3", Position: pos(0.5)},
		}, []string{"CASE-2", "CASE-1", "CASE-3"}},
		{"milliseconds count, as the page parses them", []Case{
			{ID: "CASE-1", CreatedAt: "2026-01-01T09:00:00.001Z"},
			{ID: "CASE-2", CreatedAt: "2026-01-01T09:00:00.002Z"},
		}, []string{"CASE-2", "CASE-1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cards := slices.Clone(tc.cards)
			slices.SortFunc(cards, func(a, b Case) int { return CompareLane(a.Spot(), b.Spot()) })
			var got []string
			for _, c := range cards {
				got = append(got, c.ID)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestSortLanesGroupsByLaneInBoardOrder(t *testing.T) {
	cards := []Case{
		{ID: "CASE-1", Status: LaneDone, CreatedAt: "2026-01-05T09:00:00Z"},
		{ID: "CASE-2", Status: LaneTodo, CreatedAt: "2026-01-01T09:00:00Z"},
		{ID: "CASE-3", Status: LaneUrgent, CreatedAt: "2026-01-01T09:00:00Z"},
		{ID: "CASE-4", Status: LaneTodo, CreatedAt: "2026-01-02T09:00:00Z"},
	}
	SortLanes(cards)
	var got []string
	for _, c := range cards {
		got = append(got, c.ID)
	}
	if diff := cmp.Diff([]string{"CASE-3", "CASE-4", "CASE-2", "CASE-1"}, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}
