package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress shows how far a long command has got, on stderr so that stdout
// stays the command's answer: a live bar (count, total when known, rate,
// time left) when stderr is a terminal, else one summary line when the work
// ends, so a log or a pipe gets a line rather than a stream of redraws.
type progress struct {
	w     io.Writer
	what  string // the command, as the summary line starts
	unit  string // what is counted: "messages", "bytes", "steps"
	bar   *progressbar.ProgressBar
	start time.Time

	mu sync.Mutex
	n  int64
}

// newProgress starts the progress of what on stderr; total -1 when unknown.
func newProgress(stderr io.Writer, what, unit string, total int64) *progress {
	p := &progress{w: stderr, what: what, unit: unit, start: time.Now()}
	if f, ok := stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		opts := []progressbar.Option{
			progressbar.OptionSetWriter(stderr), progressbar.OptionSetDescription(what), progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true), progressbar.OptionSetElapsedTime(true),
			progressbar.OptionThrottle(100 * time.Millisecond), progressbar.OptionSetWidth(30),
			progressbar.OptionOnCompletion(func() { fmt.Fprintln(stderr) }),
		}
		if unit == "bytes" { // the bar says sizes and their rate itself
			opts = append(opts, progressbar.OptionShowBytes(true))
		} else {
			opts = append(opts, progressbar.OptionShowIts(), progressbar.OptionSetItsString(unit))
		}
		p.bar = progressbar.NewOptions64(total, opts...)
	}
	return p
}

// setTotal says how many units the work holds, once it is known.
func (p *progress) setTotal(n int64) {
	if p.bar != nil {
		p.bar.ChangeMax64(n)
	}
}

// add counts n more units done.
func (p *progress) add(n int) {
	p.mu.Lock()
	p.n += int64(n)
	p.mu.Unlock()
	if p.bar != nil {
		_ = p.bar.Add(n) // a failed redraw of the terminal is no reason to stop
	}
}

// note shows what the work is doing now, on the bar only.
func (p *progress) note(s string) {
	if p.bar != nil {
		p.bar.Describe(p.what + ": " + s)
	}
}

// done ends the progress: the bar completes, or the summary line is
// written with the outcome in the command's words.
func (p *progress) done(outcome string) {
	if p.bar != nil {
		_ = p.bar.Finish()
		return
	}
	p.mu.Lock()
	n := p.n
	p.mu.Unlock()
	took := time.Since(p.start)
	line := fmt.Sprintf("%s: %d %s in %s", p.what, n, p.unit, took.Round(time.Millisecond))
	if s := took.Seconds(); s > 0 && n > 0 {
		line += fmt.Sprintf(" (%.0f/s)", float64(n)/s)
	}
	if outcome != "" {
		line += ": " + outcome
	}
	fmt.Fprintln(p.w, line)
}

// counted passes reads through to r and counts their bytes.
type counted struct {
	r io.Reader
	p *progress
}

func (c counted) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.p.add(n)
	return n, err
}

// stepLog passes a job's log lines through to w and counts each as a step,
// the line shown beside the bar.
type stepLog struct {
	w io.Writer
	p *progress
}

func (s stepLog) Write(b []byte) (int, error) {
	if s.p.bar != nil {
		_ = s.p.bar.Clear() // the line goes where the bar was; the bar redraws below it
	}
	n, err := s.w.Write(b)
	for _, line := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		if line != "" {
			s.p.add(1)
			s.p.note(line)
		}
	}
	return n, err
}

// outcome is ok, or "failed" when err is set.
func outcome(err error, ok string) string {
	if err != nil {
		return "failed"
	}
	return ok
}
