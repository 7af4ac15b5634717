// Package backupsched decides when the running board backs up off-site and
// runs the backup job in the background, one run at a time: Back up now
// (skipped while the newest snapshot is fresh unless forced, refused in a
// sandbox), the top-up fired from reads when the newest snapshot has gone
// stale, and the daily floor run at 03:30 local time. The automatic runs
// happen only on the live board (backup.Settings.Live); the decisions
// themselves are pure functions of time (plan.go).
package schedule

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/opsboard/opsboard/board/internal/backup"
	"github.com/opsboard/opsboard/shared/wire"
)

// Refusals of Start.
var (
	// ErrSandbox: a sandbox (SVC_SANDBOX=1) never backs up.
	ErrSandbox = errors.New("this board runs in a sandbox (SVC_SANDBOX=1): it never backs up")
	// ErrRunning: a run is already going, here or in `board backup run`.
	ErrRunning = errors.New("a backup is already running: wait for it to finish")
)

// Config is what a Trigger needs, built once in cmd/.
type Config struct {
	Settings backup.Settings
	// Source is the store at one consistent moment: the running board's
	// committed state.
	Source backup.Source
	Log    *slog.Logger
	// Zone is the board's time zone, where the daily run's 03:30 is; UTC
	// when nil.
	Zone *time.Location
	// Now is the clock of the decisions; time.Now when nil.
	Now func() time.Time
	// Tick paces the daily schedule's look at the clock; a one-minute
	// ticker when nil. The clock is read on each tick rather than sleeping
	// until 03:30, so a machine that slept through it runs on waking.
	Tick <-chan time.Time
}

// Trigger starts backup runs for the board.
type Trigger struct {
	cfg Config
	log *slog.Logger
	now func() time.Time

	ctx    context.Context // cancelled by Close: a run in flight stops
	cancel context.CancelFunc

	mu     sync.Mutex // serializes closed and wg.Add against Close
	closed bool
	wg     sync.WaitGroup

	running   atomic.Bool  // a run started here is going
	checking  atomic.Bool  // a top-up check is going
	nextCheck atomic.Int64 // unix nanoseconds before which a top-up does nothing
	notLive   atomic.Value // the last reason the identity check gave, logged on change

	onRunMu sync.Mutex
	onRun   func(running bool)     // told when a run starts and ends
	onDone  func(r wire.BackupRun) // handed each finished run
}

// OnRun registers f to be told when a run starts (true) and ends (false);
// f must not block. A later call replaces an earlier one.
func (t *Trigger) OnRun(f func(running bool)) {
	t.onRunMu.Lock()
	t.onRun = f
	t.onRunMu.Unlock()
}

// OnDone registers f to be handed each run's result when it finishes,
// before the run is told to have ended, so what f writes is there when the
// page looks; f may write to the board. A later call replaces an earlier one.
func (t *Trigger) OnDone(f func(r wire.BackupRun)) {
	t.onRunMu.Lock()
	t.onDone = f
	t.onRunMu.Unlock()
}

func (t *Trigger) done(r wire.BackupRun) {
	t.onRunMu.Lock()
	f := t.onDone
	t.onRunMu.Unlock()
	if f != nil {
		f(r)
	}
}

func (t *Trigger) told(running bool) {
	t.onRunMu.Lock()
	f := t.onRun
	t.onRunMu.Unlock()
	if f != nil {
		f(running)
	}
}

// New returns a Trigger; Close it when the board stops.
func New(cfg Config) *Trigger {
	t := &Trigger{cfg: cfg, log: cfg.Log, now: cfg.Now}
	if t.log == nil {
		t.log = slog.Default()
	}
	if t.now == nil {
		t.now = time.Now
	}
	if t.cfg.Zone == nil {
		t.cfg.Zone = time.UTC
	}
	t.ctx, t.cancel = context.WithCancel(context.Background())
	t.notLive.Store("")
	return t
}

// Close stops a run in flight and the daily schedule, and waits for them.
func (t *Trigger) Close() {
	t.mu.Lock()
	t.closed = true
	t.mu.Unlock()
	t.cancel()
	t.wg.Wait()
}

// goBackground runs f on its own goroutine unless the Trigger is closed.
func (t *Trigger) goBackground(f func()) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return false
	}
	t.wg.Add(1)
	go func() {
		defer t.wg.Done()
		f()
	}()
	return true
}

// Status is the job's offline status with what only the running board
// knows: a run it started that has not taken the lock yet is running, and
// whether it backs up on its own.
func (t *Trigger) Status() wire.BackupStatus {
	st := backup.Status(t.cfg.Settings)
	if t.running.Load() {
		st.Running = true
	}
	auto := wire.BackupAuto{}
	if ok, why := t.cfg.Settings.Live(); ok {
		auto.On = true
		auto.NextDaily = NextDaily(t.now(), t.cfg.Zone).Format(time.RFC3339)
	} else {
		auto.Reason = why
	}
	st.Auto = &auto
	return st
}

// Start is Back up now: it starts a run in the background and answers
// Started, or Skipped "fresh" with the newest snapshot's time when that is
// younger than FreshFor and force is false. It refuses with ErrSandbox in a
// sandbox and ErrRunning while a run holds the lock. Unlike the automatic
// runs it does not ask for the live board: a person may back up any board
// they point at a repository.
func (t *Trigger) Start(force bool) (wire.BackupRunReply, error) {
	if t.cfg.Settings.Sandbox {
		return wire.BackupRunReply{}, ErrSandbox
	}
	if t.running.Load() || backup.LockHeld(t.cfg.Settings) {
		return wire.BackupRunReply{}, ErrRunning
	}
	if !force {
		if snap, ok := backup.NewestSnapshot(t.cfg.Settings); ok && Fresh(Created(snap), t.now()) {
			return wire.BackupRunReply{Skipped: "fresh", Newest: snap.Created}, nil
		}
	}
	if !t.launch("now") {
		return wire.BackupRunReply{}, ErrRunning
	}
	return wire.BackupRunReply{Started: true}, nil
}

// TopUp fires the opportunistic top-up: it never blocks, does nothing
// before the last check said to look again, and checks at most once at a
// time; the check runs a backup on the live board when the newest snapshot
// is older than FreshFor.
func (t *Trigger) TopUp() {
	if t.cfg.Settings.Sandbox || t.now().UnixNano() < t.nextCheck.Load() {
		return
	}
	if !t.checking.CompareAndSwap(false, true) {
		return
	}
	if !t.goBackground(func() {
		defer t.checking.Store(false)
		t.topUpCheck()
	}) {
		t.checking.Store(false)
	}
}

func (t *Trigger) topUpCheck() {
	now := t.now()
	live := t.live("top-up")
	var newest time.Time
	if snap, ok := backup.NewestSnapshot(t.cfg.Settings); ok {
		newest = Created(snap)
	}
	run, recheck := TopUp(live, newest, now)
	t.nextCheck.Store(recheck.UnixNano())
	if run {
		t.launch("top-up")
	}
}

// live runs the identity check, logging its reason when it changes.
func (t *Trigger) live(what string) bool {
	ok, why := t.cfg.Settings.Live()
	if prev := t.notLive.Swap(why); prev != why && !ok {
		t.log.Info("backup.auto.off", "trigger", what, "why", why)
	}
	return ok
}

// launch starts one run unless one is going; why names the trigger.
func (t *Trigger) launch(why string) bool {
	if !t.running.CompareAndSwap(false, true) {
		return false
	}
	started := t.goBackground(func() {
		defer t.told(false)
		defer t.running.Store(false)
		t.told(true)
		t.log.Info("backup.run.start", "trigger", why)
		// The job keeps its own log for the status; the board's log gets
		// one line for the outcome.
		r := backup.Run(t.ctx, t.cfg.Settings, t.cfg.Source, io.Discard)
		t.log.Info("backup.run.end", "trigger", why, "exit", r.Exit, "outcome", r.Outcome, "file", r.File, "err", r.Error)
		t.done(r)
	})
	if !started {
		t.running.Store(false)
	}
	return started
}

// ScheduleDaily starts the daily floor run: at 03:30 in the board's zone
// (or on the first look at the clock after it, when the machine slept
// through it) it runs a backup on the live board.
func (t *Trigger) ScheduleDaily() {
	t.goBackground(func() {
		// The ticker is made here, so a Trigger already closed makes none.
		tick := t.cfg.Tick
		if tick == nil {
			ticker := time.NewTicker(time.Minute)
			defer ticker.Stop()
			tick = ticker.C
		}
		next := NextDaily(t.now(), t.cfg.Zone)
		for {
			select {
			case <-t.ctx.Done():
				return
			case <-tick:
			}
			now := t.now()
			if now.Before(next) {
				continue
			}
			next = NextDaily(now, t.cfg.Zone)
			if t.live("daily") && !t.launch("daily") {
				t.log.Info("backup.daily.skip", "why", "a run is already going")
			}
		}
	})
}
