package backup

import (
	"errors"
	"io"
)

// asyncWriter hands what is written to it, in blocks, to a goroutine that
// writes them to w: the store's encoding and the compression that follows
// it then run on two cores at once. At most asyncBlocks blocks exist, so
// memory stays bounded.
type asyncWriter struct {
	full  chan []byte
	free  chan []byte
	buf   []byte
	done  chan error
	err   error
	close bool
}

const (
	asyncBlock  = 256 << 10
	asyncBlocks = 4
)

func newAsyncWriter(w io.Writer) *asyncWriter {
	a := &asyncWriter{full: make(chan []byte, asyncBlocks), free: make(chan []byte, asyncBlocks), done: make(chan error, 1)}
	for range asyncBlocks - 1 {
		a.free <- make([]byte, 0, asyncBlock)
	}
	a.buf = make([]byte, 0, asyncBlock)
	go func() {
		var err error
		for b := range a.full {
			if err == nil {
				_, err = w.Write(b)
			}
			a.free <- b[:0]
		}
		a.done <- err
	}()
	return a
}

func (a *asyncWriter) Write(p []byte) (int, error) {
	if a.err != nil {
		return 0, a.err
	}
	n := 0
	for len(p) > 0 {
		k := copy(a.buf[len(a.buf):cap(a.buf)], p)
		a.buf = a.buf[:len(a.buf)+k]
		p, n = p[k:], n+k
		if len(a.buf) == cap(a.buf) {
			a.full <- a.buf
			a.buf = <-a.free
		}
	}
	return n, nil
}

// Close hands over the last block, waits for the goroutine and returns
// the first error writing met.
func (a *asyncWriter) Close() error {
	if a.close {
		return a.err
	}
	a.close = true
	if len(a.buf) > 0 {
		a.full <- a.buf
	}
	close(a.full)
	if err := <-a.done; err != nil && a.err == nil {
		a.err = err
	}
	if a.err == nil {
		a.err = errClosed
	}
	if errors.Is(a.err, errClosed) {
		return nil
	}
	return a.err
}

var errClosed = errors.New("write after close")
