package ingest

import "sync"

// runQueue is the set of sources waiting for a run, each at most once, in
// the order they were first asked for.
type runQueue struct {
	mu    sync.Mutex
	names []string
}

func newRunQueue() *runQueue { return &runQueue{} }

// add queues name; false when it was already waiting.
func (q *runQueue) add(name string) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, n := range q.names {
		if n == name {
			return false
		}
	}
	q.names = append(q.names, name)
	return true
}

// take empties the queue and returns what it held.
func (q *runQueue) take() []string {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := q.names
	q.names = nil
	return out
}
