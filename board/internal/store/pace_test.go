package store

import (
	"testing"
	"time"
)

// fakePacer is a pacer on a clock that moves only when the test does.
func fakePacer(work, rest time.Duration) (*pacer, *time.Time) {
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := &pacer{work: work, rest: rest, now: func() time.Time { return clock }}
	p.sleep = func(d time.Duration, _ <-chan struct{}) { clock = clock.Add(d) }
	return p, &clock
}

func TestPacerRestsAsLongAsItWorks(t *testing.T) {
	p, clock := fakePacer(time.Millisecond, time.Millisecond)
	const units, each = 10_000, 30 * time.Microsecond
	start := *clock
	for range units {
		p.step()
		*clock = clock.Add(each)
	}
	worked := time.Duration(units) * each
	total := clock.Sub(start)
	if got := total - worked; got != p.restedFor() {
		t.Fatalf("rested %v by the clock, %v by its count", got, p.restedFor())
	}
	// Half the time at rest: a stretch of work ends at the first step past
	// a millisecond, so it rests a little less than it works.
	if r := p.restedFor(); r < worked*9/10 || r > worked {
		t.Fatalf("rested %v over %v of work; want about as long", r, worked)
	}
}

func TestPacerLetsShortWorkRun(t *testing.T) {
	p, clock := fakePacer(time.Millisecond, time.Millisecond)
	for range 30 {
		p.step()
		*clock = clock.Add(30 * time.Microsecond) // 0.9 ms in all
	}
	if p.restedFor() != 0 {
		t.Fatalf("work shorter than one stretch rested %v", p.restedFor())
	}
	var none *pacer
	none.step() // no pacing: must not panic
	if none.restedFor() != 0 {
		t.Fatal("a nil pacer rested")
	}
}

func TestRestEndsWhenTheBoardStops(t *testing.T) {
	stop := make(chan struct{})
	close(stop)
	restUnless(time.Hour, stop) // returns at once, or the test times out
}
