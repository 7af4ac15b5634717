package store

import (
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

func TestSnapshotsToPrune(t *testing.T) {
	now := time.Date(2025, 6, 30, 12, 0, 0, 0, time.UTC)
	ago := func(d time.Duration) time.Time { return now.Add(-d) }
	day := 24 * time.Hour
	for _, tc := range []struct {
		name  string
		times []time.Time // oldest first
		want  []int       // indexes pruned
	}{
		{"nothing", nil, nil},
		{"a lone old snapshot is the newest and stays", []time.Time{ago(90 * day)}, nil},
		{"everything from the last 36 hours stays", []time.Time{ago(35 * time.Hour), ago(20 * time.Hour), ago(20*time.Hour - time.Minute), ago(time.Minute)}, nil},
		{"older than 36 hours: only the newest of its day",
			[]time.Time{
				time.Date(2025, 6, 20, 1, 0, 0, 0, time.UTC),
				time.Date(2025, 6, 20, 9, 0, 0, 0, time.UTC),
				time.Date(2025, 6, 20, 23, 59, 0, 0, time.UTC), // the newest of June 20
				time.Date(2025, 6, 21, 8, 0, 0, 0, time.UTC),
				ago(time.Hour),
			},
			[]int{0, 1}},
		{"the 36 hour window keeps a day's older ones too",
			[]time.Time{ago(40 * time.Hour), ago(35 * time.Hour), ago(34 * time.Hour)},
			nil}, // 40h ago is June 28 20:00, the only one of its day
		{"days are calendar days in UTC",
			[]time.Time{
				time.Date(2025, 6, 10, 23, 30, 0, 0, time.FixedZone("+02", 7200)), // 21:30 UTC on June 10
				time.Date(2025, 6, 11, 0, 30, 0, 0, time.FixedZone("+02", 7200)),  // 22:30 UTC on June 10
				ago(time.Hour),
			},
			[]int{0}},
		{"older than 30 days goes, except the newest snapshot",
			[]time.Time{ago(45 * day), ago(31 * day), ago(29 * day), ago(2 * day)},
			[]int{0, 1}},
		{"the newest is kept even when old", []time.Time{ago(60 * day), ago(40 * day)}, []int{0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, SnapshotsToPrune(tc.times, now)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// TestSnapshotRetentionIsBounded runs the rule over 45 days of snapshots at
// the highest rate the schedule allows (one per 15 minutes) and checks the
// most that are ever kept: 36 h x 4 per hour in the window, plus one per day
// for the rest of the 30 days. The README's worst-case disk use is this
// count times the measured snapshot size.
func TestSnapshotRetentionIsBounded(t *testing.T) {
	start := time.Date(2025, 1, 1, 0, 7, 0, 0, time.UTC)
	var kept []time.Time
	most := 0
	for now := start; now.Before(start.Add(45 * 24 * time.Hour)); now = now.Add(15 * time.Minute) {
		kept = append(kept, now)
		pruned := SnapshotsToPrune(kept, now)
		gone := map[int]bool{}
		for _, i := range pruned {
			gone[i] = true
		}
		next := kept[:0]
		for i, k := range kept {
			if !gone[i] {
				next = append(next, k)
			}
		}
		kept = next
		most = max(most, len(kept))
	}
	const bound = 36*4 + 1 + 30 // the window (both ends included) and one per older day
	t.Logf("at most %d snapshots kept", most)
	if most > bound {
		t.Errorf("kept up to %d snapshots, want at most %d", most, bound)
	}
	if most < 36*4 {
		t.Errorf("kept at most %d snapshots: the 36 hour window alone holds %d", most, 36*4)
	}
	now := kept[len(kept)-1]
	days := map[string]int{}
	for _, k := range kept {
		if now.Sub(k) >= keepDailyFor {
			t.Errorf("kept %v, older than 30 days", k)
		}
		if now.Sub(k) >= keepAllFor {
			days[k.Format("2006-01-02")]++
		}
	}
	for d, n := range days {
		if n != 1 {
			t.Errorf("%d snapshots kept for %s, want 1", n, d)
		}
	}
}

// fakeClock is a settable clock for Config.Now.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func snapshotTimes(t *testing.T, s *Store) []time.Time {
	t.Helper()
	var out []time.Time
	for _, sn := range s.listSnapshots() {
		out = append(out, sn.at)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Before(out[j]) })
	return out
}

// rebuilt is what a start on a broken document would serve: the newest
// snapshot with the journal on top.
// rebuilt is the state a start on a broken document builds: the newest
// earlier copy (the previous document or the newest snapshot) plus the
// journal.
func rebuilt(t *testing.T, s *Store) *wire.Doc {
	t.Helper()
	d := s.newestGoodCopy(s.listSnapshots(), 0)
	if d == nil {
		t.Fatal("no snapshot and no previous document")
	}
	entries, _, err := storefile.ReadJournalFile(storefile.JournalPath(s.Path()))
	if err != nil {
		t.Fatal(err)
	}
	storefile.Replay(d, entries)
	return d
}

func TestSnapshotsAtMostEvery15MinutesWhileWritesHappen(t *testing.T) {
	clock := &fakeClock{t: time.Date(2025, 3, 1, 8, 0, 0, 0, time.UTC)}
	path := filepath.Join(t.TempDir(), "board.json")
	cfg := manualConfig(path)
	cfg.Now = clock.now
	s := mustOpen(t, cfg)
	defer s.Close()
	for minute := 0; minute < 180; minute++ { // three hours of a write a minute
		create(t, s, "write")
		if minute%4 == 0 { // compactions come more often than snapshots may
			compactNow(t, s)
		}
		// Whenever the journal was trimmed, snapshot plus journal still
		// rebuild the whole state.
		if diff := cmp.Diff(caseTitles(s.Snapshot()), caseTitles(rebuilt(t, s))); diff != "" {
			t.Fatalf("minute %d: newest earlier copy plus journal lose writes (-want +got)\n%s", minute, diff)
		}
		clock.advance(time.Minute)
	}
	times := snapshotTimes(t, s)
	for i := 1; i < len(times); i++ {
		if gap := times[i].Sub(times[i-1]); gap < 15*time.Minute {
			t.Errorf("snapshots %v and %v are %v apart, want at least 15m", times[i-1], times[i], gap)
		}
	}
	if len(times) != 12 { // at 0, 16, 32, ... 176: the first compaction at or after each 15 minutes
		t.Errorf("%d snapshots in three hours, want 12: %v", len(times), times)
	}

	// Writes stop; the last ones reach a snapshot once the interval passed.
	clock.advance(20 * time.Minute)
	compactNow(t, s)
	snaps := s.listSnapshots()
	if newest := snaps[len(snaps)-1]; newest.version != s.Version() {
		t.Errorf("newest snapshot at version %d, want %d (the last write)", newest.version, s.Version())
	}
	entries, _, err := storefile.ReadJournalFile(storefile.JournalPath(path))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 0 {
		t.Errorf("%d journal entries left once the snapshot holds everything", len(entries))
	}
	// The snapshot is the compacted document.
	doc, err := storefile.ReadDoc(path)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := readSnapshot(snaps[len(snaps)-1].path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(doc, snap); diff != "" {
		t.Errorf("snapshot differs from the document (-doc +snapshot)\n%s", diff)
	}
}

func TestRetentionOnDisk(t *testing.T) {
	clock := &fakeClock{t: time.Date(2025, 3, 1, 8, 0, 0, 0, time.UTC)}
	path := filepath.Join(t.TempDir(), "board.json")
	cfg := manualConfig(path)
	cfg.Now = clock.now
	s := mustOpen(t, cfg)
	defer s.Close()
	var taken []time.Time
	for step := 0; step < 40*4; step++ { // 40 days, a write every 6 hours
		create(t, s, "write")
		compactNow(t, s)
		taken = append(taken, clock.now())
		clock.advance(6 * time.Hour)
	}
	var want []time.Time
	pruned := map[int]bool{}
	for _, i := range SnapshotsToPrune(taken, taken[len(taken)-1]) {
		pruned[i] = true
	}
	for i, at := range taken {
		if !pruned[i] {
			want = append(want, at.Truncate(time.Second))
		}
	}
	if diff := cmp.Diff(want, snapshotTimes(t, s)); diff != "" {
		t.Errorf("snapshots on disk (-want +got)\n%s", diff)
	}
}

func TestTakeSnapshotWritesOnlyNewState(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board.json")
	s := mustOpen(t, manualConfig(path))
	defer s.Close()
	create(t, s, "one")
	for i := 0; i < 3; i++ {
		if err := s.TakeSnapshot(); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(s.listSnapshots()); n != 1 {
		t.Errorf("%d snapshots of one state, want 1", n)
	}
	create(t, s, "two")
	if err := s.TakeSnapshot(); err != nil {
		t.Fatal(err)
	}
	snaps := s.listSnapshots()
	if len(snaps) != 2 || snaps[1].version != s.Version() {
		t.Errorf("snapshots %+v, want a second one at version %d", snaps, s.Version())
	}
}
