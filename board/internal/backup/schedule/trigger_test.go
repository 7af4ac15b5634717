package schedule_test

import (
	"context"
	"io"
	"log/slog"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/opsboard/opsboard/board/internal/backup"
	"github.com/opsboard/opsboard/board/internal/backup/schedule"
	"github.com/opsboard/opsboard/board/internal/backup/seal"
	"github.com/opsboard/opsboard/board/internal/testkit"
	"github.com/opsboard/opsboard/shared/wire"
)

// clock is a settable clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

// liveSettings are the settings of a board at a temporary path that
// `board backup init` made the live one, backing up to a local bare
// repository; env adds to its environment.
func liveSettings(t testing.TB, env map[string]string) backup.Settings {
	t.Helper()
	repo := filepath.Join(t.TempDir(), "backup.git")
	if out, err := exec.Command("git", "init", "--quiet", "--bare", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init --bare: %v\n%s", err, out)
	}
	store := filepath.Join(t.TempDir(), "board.json")
	vars := map[string]string{"SVC_BACKUP_KEY": "correct horse battery staple"}
	for k, v := range env {
		vars[k] = v
	}
	getenv := func(k string) string { return vars[k] }
	s, err := backup.SettingsFrom(getenv, store)
	if err != nil {
		t.Fatal(err)
	}
	if err := backup.Init(s, repo); err != nil {
		t.Fatal(err)
	}
	if s, err = backup.SettingsFrom(getenv, store); err != nil {
		t.Fatal(err)
	}
	s.KDF = seal.Params{LogN: 10, R: 8, P: 1} // cheap: the format is not under test here
	return s
}

func source(context.Context) (*wire.Doc, error) { return testkit.BoardDoc(3), nil }

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// TestDailyRun drives the daily schedule's clock: nothing before 03:30,
// one run after it, and none on a board that is not the live one.
func TestDailyRun(t *testing.T) {
	zone := time.FixedZone("board", 2*3600)
	for _, tc := range []struct {
		name string
		env  map[string]string
		runs bool
	}{
		{"the live board", nil, true},
		{"a sandbox", map[string]string{"SVC_SANDBOX": "1"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := liveSettings(t, tc.env)
			c := &clock{t: time.Date(2026, 3, 10, 3, 0, 0, 0, zone)}
			tick := make(chan time.Time)
			tr := schedule.New(schedule.Config{Settings: s, Source: source, Log: quiet, Zone: zone, Now: c.now, Tick: tick})
			defer tr.Close()
			tr.ScheduleDaily()
			// A send returns once the schedule took the tick; the next send
			// returns only after it handled the one before.
			tickAt := func(at time.Time) {
				c.set(at)
				tick <- at
				tick <- at
			}
			tickAt(time.Date(2026, 3, 10, 3, 29, 0, 0, zone))
			if st := tr.Status(); st.Running || st.LastRun != nil {
				t.Fatalf("ran before 03:30: %+v", st.LastRun)
			}
			tickAt(time.Date(2026, 3, 10, 3, 31, 0, 0, zone))
			if !tc.runs {
				if st := tr.Status(); st.Running || st.LastRun != nil {
					t.Fatalf("a board that is not live ran: %+v", st.LastRun)
				}
				return
			}
			var st wire.BackupStatus
			testkit.Eventually(t, "the daily run ends", func() bool {
				st = tr.Status()
				return st.LastRun != nil && !st.Running
			})
			if st.LastRun.Outcome != wire.BackupPushed || len(st.Snapshots) != 1 {
				t.Fatalf("daily run: %+v, %d snapshots", st.LastRun, len(st.Snapshots))
			}
			// Later the same morning: no second run until tomorrow's 03:30.
			tickAt(time.Date(2026, 3, 10, 9, 0, 0, 0, zone))
			if st := tr.Status(); st.Running || len(st.Snapshots) != 1 {
				t.Errorf("ran twice in a day: %d snapshots", len(st.Snapshots))
			}
		})
	}
}

// TestStart covers Back up now's answers without the HTTP layer.
func TestStart(t *testing.T) {
	s := liveSettings(t, nil)
	c := &clock{t: time.Now()}
	tr := schedule.New(schedule.Config{Settings: s, Source: source, Log: quiet, Now: c.now})
	defer tr.Close()
	// Hold the first run at its start, so the second Start meets it.
	release := make(chan struct{})
	tr.OnRun(func(running bool) {
		if running {
			<-release
		}
	})
	ans, err := tr.Start(false)
	if err != nil || !ans.Started {
		t.Fatalf("first Start: %+v %v", ans, err)
	}
	if _, err := tr.Start(true); err != schedule.ErrRunning {
		t.Errorf("Start while a run goes: %v, want ErrRunning", err)
	}
	if !tr.Status().Running {
		t.Error("the status does not say a run is going")
	}
	close(release)
	testkit.Eventually(t, "the run ends", func() bool { return !tr.Status().Running })
	ans, err = tr.Start(false)
	if err != nil || ans.Skipped != "fresh" || ans.Newest == "" {
		t.Errorf("Start while fresh: %+v %v", ans, err)
	}
	// Thirteen hours on, the same snapshot is stale: a run starts.
	c.set(c.now().Add(13 * time.Hour))
	if ans, err := tr.Start(false); err != nil || !ans.Started {
		t.Errorf("Start when stale: %+v %v", ans, err)
	}
	testkit.Eventually(t, "the run ends", func() bool { return !tr.Status().Running })

	s.Sandbox = true
	sb := schedule.New(schedule.Config{Settings: s, Source: source, Log: quiet})
	defer sb.Close()
	if _, err := sb.Start(true); err != schedule.ErrSandbox {
		t.Errorf("Start in a sandbox: %v, want ErrSandbox", err)
	}
}

// TestTopUpRunsOnceAtATime: a burst of reads on a stale live board starts
// one run, and Close waits for it.
func TestTopUpRunsOnceAtATime(t *testing.T) {
	s := liveSettings(t, nil)
	var mu sync.Mutex
	starts := 0
	tr := schedule.New(schedule.Config{Settings: s, Source: source, Log: quiet})
	tr.OnRun(func(running bool) {
		if running {
			mu.Lock()
			starts++
			mu.Unlock()
		}
	})
	var wg sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); tr.TopUp() }()
	}
	wg.Wait()
	testkit.Eventually(t, "the top-up ran", func() bool {
		st := tr.Status()
		return st.LastRun != nil && !st.Running
	})
	for i := 0; i < 50; i++ {
		tr.TopUp() // fresh now, and the next check is hours away
	}
	tr.Close()
	mu.Lock()
	defer mu.Unlock()
	if starts != 1 {
		t.Errorf("%d runs started, want 1", starts)
	}
	if st := backup.Status(s); len(st.Snapshots) != 1 {
		t.Errorf("%d snapshots, want 1", len(st.Snapshots))
	}
}
