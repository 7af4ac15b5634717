package ingest

import (
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/opsboard/opsboard/shared/wire"
)

// SourceHealth remembers how each source's last run in this process went,
// for the board's health route.
type SourceHealth struct {
	mu      sync.Mutex
	names   []string
	sources map[string]*wire.IngestSourceHealth
}

// NewSourceHealth returns an empty record.
func NewSourceHealth() *SourceHealth {
	return &SourceHealth{sources: map[string]*wire.IngestSourceHealth{}}
}

func (h *SourceHealth) line(name string) *wire.IngestSourceHealth {
	l, ok := h.sources[name]
	if !ok {
		l = &wire.IngestSourceHealth{Name: name}
		h.sources[name] = l
		h.names = append(h.names, name)
	}
	return l
}

// Know lists the configured sources before any of them has run.
func (h *SourceHealth) Know(c Config) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, s := range c.Sources {
		h.line(s.Name)
	}
}

// Note records a source's run: at when it was read to its end (err nil),
// else its error; the last success stays.
func (h *SourceHealth) Note(name string, at time.Time, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	l := h.line(name)
	if err != nil {
		l.LastError = err.Error()
		return
	}
	l.LastError = ""
	l.LastOKAt = at.UTC().Format(time.RFC3339)
}

// Health is the record as /api/health shows it, in the order sources were
// first known; nil while no source is known (the scheduled ingest is off).
func (h *SourceHealth) Health() *wire.IngestHealth {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.names) == 0 {
		return nil
	}
	out := &wire.IngestHealth{Sources: []wire.IngestSourceHealth{}}
	for _, n := range h.names {
		out.Sources = append(out.Sources, *h.sources[n])
	}
	return out
}

// NoteRun records a finished run over sources: a source is failed when one
// of the report's errors is its own ("source NAME: ..."), else read.
func (h *SourceHealth) NoteRun(sources []string, rep Report, at time.Time) {
	for _, name := range sources {
		var err error
		for _, e := range rep.Errors {
			if strings.HasPrefix(e, "source "+name+": ") {
				err = errors.New(e)
			}
		}
		h.Note(name, at, err)
	}
}
