package store

import (
	"fmt"
	"sort"
	"sync"
	"time"
)

// Health is what /api/health reports about the store.
type Health struct {
	Degraded bool
	Problems []string
}

// Keys of the problems Health reports.
const (
	problemDocument       = "document"
	problemJournal        = "journal"
	problemJournalDamaged = "journal-damaged"
	problemJournalLost    = "journal-lost"
	problemDiskFull       = "disk-full"
	problemTree           = "tree"
)

type healthState struct {
	mu       sync.Mutex
	problems map[string]string
}

func (h *healthState) set(key, msg string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.problems == nil {
		h.problems = map[string]string{}
	}
	h.problems[key] = msg
}

func (h *healthState) clear(key string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.problems, key)
}

func (h *healthState) has(key string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	_, ok := h.problems[key]
	return ok
}

// Health reports whether the store is degraded and why.
func (s *Store) Health() Health {
	var wait time.Duration
	if s.j != nil {
		wait = s.j.waiting(time.Now())
	}
	s.health.mu.Lock()
	defer s.health.mu.Unlock()
	var out Health
	for _, m := range s.health.problems {
		out.Problems = append(out.Problems, m)
	}
	if wait >= s.cfg.StallAfter {
		out.Problems = append(out.Problems, fmt.Sprintf("a write has been waiting %s for the disk: the file system holding the journal is not answering", wait.Round(time.Second)))
	}
	sort.Strings(out.Problems)
	out.Degraded = len(out.Problems) > 0
	return out
}
