// Package serve is the board's HTTP server around its router: the listener,
// capped so the store's own files always find a free descriptor, the
// timeouts that keep an idle or slow client from holding a connection
// forever, and the cache that encodes a list read once per version.
package serve

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"syscall"
	"time"

	"golang.org/x/net/netutil"
)

// Timeouts bound each phase of a connection. Zero fields take the defaults.
type Timeouts struct {
	ReadHeader time.Duration // a request's line and headers (10 s)
	Body       time.Duration // a request's body, from the end of its headers (30 s)
	Write      time.Duration // writing an answer, except on the live stream (60 s)
	Idle       time.Duration // a keep-alive connection waiting for its next request (60 s)
}

func (t Timeouts) withDefaults() Timeouts {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&t.ReadHeader, 10*time.Second)
	def(&t.Body, 30*time.Second)
	def(&t.Write, 60*time.Second)
	def(&t.Idle, 60*time.Second)
	return t
}

// Reserved descriptors are kept for the store (document, journal, lock,
// snapshots, the watcher) and the process itself.
const (
	maxConns = 512
	reserved = 128
	minConns = 16
)

// ConnLimit is how many connections the board serves at once:
// min(512, the open-file limit minus 128), and never fewer than 16. Past
// it, new connections wait in the kernel's queue until one closes, instead
// of taking the descriptors a compaction needs.
func ConnLimit() int {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return maxConns
	}
	return connLimit(lim.Cur)
}

func connLimit(nofile uint64) int {
	if nofile > maxConns+reserved {
		return maxConns
	}
	if nofile < minConns+reserved {
		return minConns
	}
	return int(nofile) - reserved
}

// Listen binds addr and caps the connections it hands out at conns.
func Listen(addr string, conns int) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	return netutil.LimitListener(ln, conns), nil
}

// NewServer serves h with the timeouts t. isStream tells the requests that
// stay open to push changes; they are exempt from the write timeout and
// bound each write themselves.
func NewServer(h http.Handler, t Timeouts, isStream func(*http.Request) bool) *http.Server {
	t = t.withDefaults()
	return &http.Server{
		Handler:           bounded(h, t.Body, isStream),
		ReadHeaderTimeout: t.ReadHeader,
		WriteTimeout:      t.Write,
		IdleTimeout:       t.Idle,
		// No ReadTimeout: it would stay armed after the request is read and
		// cut a live stream's context when it fires. The body gets its own
		// deadline instead.
	}
}

// bounded arms the body deadline for a request that has a body (and lifts it
// once the body is read, so a slow write in the store is not cut), and lifts
// the write deadline for a stream.
func bounded(h http.Handler, body time.Duration, isStream func(*http.Request) bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		if isStream != nil && isStream(r) {
			_ = rc.SetWriteDeadline(time.Time{})
		}
		if r.Body != nil && r.Body != http.NoBody {
			_ = rc.SetReadDeadline(time.Now().Add(body))
			r.Body = &deadlineBody{ReadCloser: r.Body, lift: func() { _ = rc.SetReadDeadline(time.Time{}) }}
		}
		h.ServeHTTP(w, r)
	})
}

// deadlineBody lifts the read deadline when the body has been read whole.
type deadlineBody struct {
	io.ReadCloser
	lift   func()
	lifted bool
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF && !b.lifted {
		b.lifted = true
		b.lift()
	}
	return n, err
}
