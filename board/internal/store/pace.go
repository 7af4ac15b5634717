package store

import "time"

// Compaction shares the processor with the writes it runs beside. Encoding
// the records a burst of writes changed is CPU-bound: at 10,000 cases a
// compaction encodes up to 35 MB of them, and on two cores the writers that
// queued behind it waited for the processor (their p99 doubled while it
// ran). The compactor therefore rests after each paceWork of work for as
// long again, so it takes at most half of one core; it takes twice as long
// instead.
const (
	paceWork = time.Millisecond
	paceRest = time.Millisecond
)

// pacer spaces out one run of background work. A nil pacer never rests.
type pacer struct {
	work, rest time.Duration
	stop       <-chan struct{} // once closed, resting ends: the board is stopping
	now        func() time.Time
	sleep      func(d time.Duration, stop <-chan struct{})

	since  time.Time     // when the current stretch of work began
	rested time.Duration // how long it has rested in all
}

// newPacer paces work on the real clock until stop is closed.
func newPacer(stop <-chan struct{}) *pacer {
	return &pacer{work: paceWork, rest: paceRest, stop: stop, now: time.Now, sleep: restUnless}
}

// step is called between units of work; it rests once the work since the
// last rest reaches p.work.
func (p *pacer) step() {
	if p == nil {
		return
	}
	t := p.now()
	if p.since.IsZero() {
		p.since = t
		return
	}
	if t.Sub(p.since) < p.work {
		return
	}
	p.sleep(p.rest, p.stop)
	p.since = p.now()
	p.rested += p.since.Sub(t)
}

// restedFor is the time p spent resting; nil has rested for none.
func (p *pacer) restedFor() time.Duration {
	if p == nil {
		return 0
	}
	return p.rested
}

// restUnless sleeps for d, or until stop is closed.
func restUnless(d time.Duration, stop <-chan struct{}) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-stop:
	}
}
