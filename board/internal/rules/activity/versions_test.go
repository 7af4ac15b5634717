package activity_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/rules/activity"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

func TestSetVersions(t *testing.T) {
	t0 := time.Date(2026, 7, 1, 8, 0, 0, 0, time.UTC)
	ts := func(s int) string { return t0.Add(time.Duration(s) * time.Second).Format(time.RFC3339Nano) }
	recent := []*store.Change{
		{Version: 7, Actor: wire.ActorHuman, At: t0},
		{Version: 8, Actor: wire.ActorAgent, At: t0.Add(time.Second)},
		{Version: 9, Actor: wire.ActorHuman, At: t0.Add(2 * time.Second)},
	}
	for _, tc := range []struct {
		name   string
		recent []*store.Change
		upTo   int64
		rows   []wire.ActivityEntry
		want   []int64
	}{
		{"each row gets the write of its time and actor", recent, 9,
			[]wire.ActivityEntry{{Activity: wire.Activity{TS: ts(2), Actor: wire.ActorHuman}}, {Activity: wire.Activity{TS: ts(1), Actor: wire.ActorAgent}}, {Activity: wire.Activity{TS: ts(0), Actor: wire.ActorHuman}}},
			[]int64{9, 8, 7}},
		{"a row of another actor at that time is not that write's", recent, 9,
			[]wire.ActivityEntry{{Activity: wire.Activity{TS: ts(1), Actor: wire.ActorHuman}}}, []int64{0}},
		{"writes after the answer's version are not used", recent, 8,
			[]wire.ActivityEntry{{Activity: wire.Activity{TS: ts(2), Actor: wire.ActorHuman}}, {Activity: wire.Activity{TS: ts(1), Actor: wire.ActorAgent}}}, []int64{0, 8}},
		{"older than the ring: unchanged", recent, 9,
			[]wire.ActivityEntry{{Activity: wire.Activity{TS: ts(-60), Actor: wire.ActorHuman}, Version: 3}}, []int64{3}},
		{"no recent writes", nil, 9,
			[]wire.ActivityEntry{{Activity: wire.Activity{TS: ts(0), Actor: wire.ActorHuman}}}, []int64{0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			activity.SetVersions(tc.rows, tc.recent, tc.upTo)
			var got []int64
			for _, r := range tc.rows {
				got = append(got, r.Version)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestSummarize(t *testing.T) {
	long := strings.Repeat("x", wire.SummaryDetailMax+40)
	rows := []wire.ActivityEntry{{Activity: wire.Activity{Detail: "short"}}, {Activity: wire.Activity{Detail: long}}}
	activity.Summarize(rows)
	want := []string{"short", wire.Clip(long, wire.SummaryDetailMax)}
	if diff := cmp.Diff(want, []string{rows[0].Detail, rows[1].Detail}); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}
