package schedule

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/shared/wire"
)

var now = time.Date(2026, 3, 10, 15, 0, 0, 0, time.UTC)

func TestFresh(t *testing.T) {
	for _, tc := range []struct {
		name   string
		newest time.Time
		want   bool
	}{
		{"no snapshot", time.Time{}, false},
		{"an hour old", now.Add(-time.Hour), true},
		{"just under the window", now.Add(-FreshFor + time.Second), true},
		{"exactly the window", now.Add(-FreshFor), false},
		{"a day old", now.Add(-24 * time.Hour), false},
		{"dated in the future", now.Add(time.Hour), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Fresh(tc.newest, now); got != tc.want {
				t.Errorf("Fresh = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestTopUp(t *testing.T) {
	type plan struct {
		Run     bool
		Recheck time.Time
	}
	for _, tc := range []struct {
		name   string
		live   bool
		newest time.Time
		want   plan
	}{
		{"not live: never runs, looks again soon", false, time.Time{}, plan{false, now.Add(RecheckNotLive)}},
		{"not live and stale: still never runs", false, now.Add(-48 * time.Hour), plan{false, now.Add(RecheckNotLive)}},
		{"live, no snapshot yet: runs", true, time.Time{}, plan{true, now.Add(RetryAfter)}},
		{"live, stale: runs", true, now.Add(-13 * time.Hour), plan{true, now.Add(RetryAfter)}},
		{"live, fresh: waits until it goes stale", true, now.Add(-2 * time.Hour), plan{false, now.Add(10 * time.Hour)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run, recheck := TopUp(tc.live, tc.newest, now)
			if diff := cmp.Diff(tc.want, plan{run, recheck}); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestNextDaily(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no time zone database:", err)
	}
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip("no time zone database:", err)
	}
	for _, tc := range []struct {
		name string
		now  time.Time
		zone *time.Location
		want time.Time
	}{
		{"afternoon: tomorrow", time.Date(2026, 3, 10, 15, 0, 0, 0, berlin), berlin, time.Date(2026, 3, 11, 3, 30, 0, 0, berlin)},
		{"small hours: today", time.Date(2026, 3, 10, 1, 0, 0, 0, berlin), berlin, time.Date(2026, 3, 10, 3, 30, 0, 0, berlin)},
		{"exactly 03:30: the next day", time.Date(2026, 3, 10, 3, 30, 0, 0, berlin), berlin, time.Date(2026, 3, 11, 3, 30, 0, 0, berlin)},
		{"03:29:59: in a second", time.Date(2026, 3, 10, 3, 29, 59, 0, berlin), berlin, time.Date(2026, 3, 10, 3, 30, 0, 0, berlin)},
		{"local, not UTC: 02:00 UTC is 03:00 in Berlin", time.Date(2026, 1, 10, 2, 0, 0, 0, time.UTC), berlin, time.Date(2026, 1, 10, 2, 30, 0, 0, time.UTC)},
		{"end of month", time.Date(2026, 1, 31, 23, 0, 0, 0, ny), ny, time.Date(2026, 2, 1, 3, 30, 0, 0, ny)},
		{"the night clocks go forward", time.Date(2026, 3, 7, 12, 0, 0, 0, ny), ny, time.Date(2026, 3, 8, 7, 30, 0, 0, time.UTC)},
		{"the night clocks go back", time.Date(2026, 10, 24, 12, 0, 0, 0, berlin), berlin, time.Date(2026, 10, 25, 2, 30, 0, 0, time.UTC)},
		{"nil zone is UTC", time.Date(2026, 3, 10, 4, 0, 0, 0, time.UTC), nil, time.Date(2026, 3, 11, 3, 30, 0, 0, time.UTC)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := NextDaily(tc.now, tc.zone); !got.Equal(tc.want) {
				t.Errorf("NextDaily(%s) = %s, want %s", tc.now, got, tc.want.In(time.UTC))
			}
		})
	}
}

func TestCreated(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Time
	}{
		{"2026-03-10T14:00:00Z", time.Date(2026, 3, 10, 14, 0, 0, 0, time.UTC)},
		{"2026-03-10T14:00:00.5+01:00", time.Date(2026, 3, 10, 13, 0, 0, 5e8, time.UTC)},
		{"", time.Time{}},
		{"yesterday", time.Time{}},
	} {
		if got := Created(wire.BackupSnapshot{Created: tc.in}); !got.Equal(tc.want) {
			t.Errorf("Created(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
