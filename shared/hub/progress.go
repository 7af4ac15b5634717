package hub

import (
	"io"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// StderrProgress is a Progress for a sidecar started by hand: a bar per
// file (count, total, rate, time left) when stderr is a terminal, else one
// log line per file once it is in.
func StderrProgress(log *slog.Logger) func(file string, done, total int64) {
	if term.IsTerminal(int(os.Stderr.Fd())) {
		return (&bars{w: os.Stderr}).update
	}
	return (&summary{log: log, now: time.Now}).update
}

// bars draws one bar per file on w.
type bars struct {
	w    io.Writer
	mu   sync.Mutex
	file string
	bar  *progressbar.ProgressBar
}

func (b *bars) update(file string, done, total int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.file != file || b.bar == nil {
		b.file = file
		b.bar = progressbar.NewOptions64(total,
			progressbar.OptionSetWriter(b.w),
			progressbar.OptionSetDescription(file),
			progressbar.OptionShowBytes(true),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionOnCompletion(func() { io.WriteString(b.w, "\n") }),
		)
	}
	b.bar.Set64(done)
}

// summary logs a file once it has all its bytes.
type summary struct {
	log   *slog.Logger
	now   func() time.Time
	mu    sync.Mutex
	file  string
	start time.Time
	from  int64
}

func (s *summary) update(file string, done, total int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.file != file {
		s.file, s.start, s.from = file, s.now(), done
	}
	if total >= 0 && done == total {
		took := s.now().Sub(s.start)
		rate := 0.0
		if took > 0 {
			rate = float64(done-s.from) / took.Seconds() / (1 << 20)
		}
		s.log.Info("model.download", "file", file, "bytes", done, "took", took.Round(time.Millisecond), "MiBps", int(rate))
	}
}
