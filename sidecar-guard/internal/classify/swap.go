package classify

import (
	"context"
	"io"
	"sync/atomic"
)

// Swap is a backend that can be replaced while the sidecar serves: the
// heuristic answers while a model downloads, and the model once it loads.
// A request that straddles the switch may be scored by both; each window
// is still scored whole by one of them.
type Swap struct {
	cur atomic.Pointer[backendRef]
}

type backendRef struct{ b Backend }

// NewSwap starts with b.
func NewSwap(b Backend) *Swap {
	s := &Swap{}
	s.Set(b)
	return s
}

// Set makes b answer from now on.
func (s *Swap) Set(b Backend) { s.cur.Store(&backendRef{b}) }

// Current is the backend answering now.
func (s *Swap) Current() Backend { return s.cur.Load().b }

// Name is the current backend's name.
func (s *Swap) Name() string { return s.Current().Name() }

// Score scores with the current backend.
func (s *Swap) Score(ctx context.Context, text string) (Score, error) {
	return s.Current().Score(ctx, text)
}

// Close releases the current backend when it holds anything.
func (s *Swap) Close() error {
	if c, ok := s.Current().(io.Closer); ok {
		return c.Close()
	}
	return nil
}
