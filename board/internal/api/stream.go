package api

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/r3labs/sse/v2"
)

// streamID is the one stream every subscriber joins, so a plain
// EventSource('/api/stream') works without a ?stream= parameter.
const streamID = "changes"

// defaultHeartbeat keeps idle streams (and any proxy between) open; the
// spec asks for a heartbeat at least every 15 s.
const defaultHeartbeat = 10 * time.Second

// streamWriteTimeout bounds one write to a subscriber, so a client that
// stopped reading cannot stall the fan-out to the others.
const streamWriteTimeout = 10 * time.Second

// liveStream is GET /api/stream: one change{version} event per committed
// write (a burst may coalesce into one event with the newest version), fed
// by the store's change notifications, fanned out by r3labs/sse. It starts
// with the first subscriber.
type liveStream struct {
	store     *store.Store
	heartbeat time.Duration
	log       *slog.Logger

	life context.Context // cancelled by close: every stream handler returns
	stop context.CancelFunc

	mu      sync.RWMutex // orders subscriber entry against close
	closed  bool
	started bool
	once    sync.Once
	conns   sync.WaitGroup // open stream handlers

	srv      *sse.Server
	latest   atomic.Int64
	kick     chan struct{}
	unlisten func()
	done     chan struct{} // the publisher exited
}

func newLiveStream(st *store.Store, heartbeat time.Duration, log *slog.Logger) *liveStream {
	if heartbeat <= 0 || heartbeat > 15*time.Second {
		heartbeat = defaultHeartbeat
	}
	life, stop := context.WithCancel(context.Background())
	return &liveStream{store: st, heartbeat: heartbeat, log: log, life: life, stop: stop}
}

func (l *liveStream) start() {
	l.srv = sse.New()
	l.srv.AutoReplay = false // else every event is kept and replayed to each new subscriber
	l.srv.AutoStream = false
	l.srv.Headers = map[string]string{"X-Accel-Buffering": "no"}
	l.srv.CreateStream(streamID)
	l.kick = make(chan struct{}, 1)
	l.done = make(chan struct{})
	l.unlisten = l.store.OnChange(func(v int64) {
		raise(&l.latest, v)
		select { // never blocks the store's committer
		case l.kick <- struct{}{}:
		default:
		}
	})
	go l.publish()
	l.started = true
}

// publish sends the newest version whenever the store reports a change, so
// changes that land while an event is being sent coalesce into the next one,
// and a heartbeat comment on every tick.
func (l *liveStream) publish() {
	defer close(l.done)
	tick := time.NewTicker(l.heartbeat)
	defer tick.Stop()
	var sent int64
	for {
		select {
		case <-l.life.Done():
			return
		case <-l.kick:
			v := l.latest.Load()
			if v <= sent {
				continue
			}
			sent = v
			l.srv.Publish(streamID, &sse.Event{ID: strconv.AppendInt(nil, v, 10), Event: []byte("change"), Data: changeData(v)})
		case <-tick.C:
			l.srv.Publish(streamID, &sse.Event{Comment: []byte("heartbeat")})
		}
	}
}

// raise sets n to v unless it already holds a newer version.
func raise(n *atomic.Int64, v int64) {
	for {
		cur := n.Load()
		if v <= cur || n.CompareAndSwap(cur, v) {
			return
		}
	}
}

func changeData(v int64) []byte { return fmt.Appendf(nil, `{"version":%d}`, v) }

// enter admits a subscriber unless the stream is closing.
func (l *liveStream) enter() bool {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if l.closed {
		return false
	}
	l.once.Do(l.start)
	l.conns.Add(1)
	return true
}

// close ends every open stream, waits for their handlers to return and
// stops the publisher. Later subscribers get 503.
func (l *liveStream) close() {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return
	}
	l.closed = true
	l.mu.Unlock()
	l.stop()
	l.conns.Wait()
	if l.started {
		l.unlisten()
		l.srv.Close()
		<-l.done
	}
}

// Close ends the live streams, which would otherwise keep an
// http.Server.Shutdown waiting; register it with RegisterOnShutdown. The
// routes keep working; a new stream is refused with 503.
func (a *API) Close() { a.live.close() }

// GET /api/stream
func (a *API) stream(w http.ResponseWriter, r *http.Request) {
	l := a.live
	if !l.enter() {
		a.fail(w, &errs.UnavailableError{Msg: "the board is shutting down"})
		return
	}
	defer l.conns.Done()
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	defer context.AfterFunc(l.life, cancel)()
	// r3labs/sse reads the stream id from the query: serve the fixed one.
	req := r.WithContext(ctx)
	u := *r.URL
	u.RawQuery = "stream=" + streamID
	req.URL = &u
	g := &gateWriter{w: w, rc: http.NewResponseController(w), cancel: cancel, hello: a.store.Version}
	l.srv.ServeHTTP(g, req)
	g.finish()
}

// gateWriter sits between r3labs/sse and the connection. It greets a new
// subscriber with the current version (so a reconnecting page catches up),
// passes each event only when its version is newer than the last one this
// subscriber saw (so every subscriber sees strictly increasing versions,
// whatever the order of fan-out and greeting), and bounds each write.
type gateWriter struct {
	w      http.ResponseWriter
	rc     *http.ResponseController
	cancel context.CancelFunc
	hello  func() int64

	buf     bytes.Buffer // the event being written; sse flushes after each
	status  int
	last    int64
	greeted bool
	broken  bool
}

var errStreamGone = errors.New("the subscriber is gone")

func (g *gateWriter) Header() http.Header { return g.w.Header() }

func (g *gateWriter) WriteHeader(code int) {
	g.status = code
	g.w.WriteHeader(code)
}

func (g *gateWriter) Write(p []byte) (int, error) {
	if g.broken {
		return 0, errStreamGone
	}
	if g.status == 0 {
		g.status = http.StatusOK
	}
	return g.buf.Write(p)
}

// Flush ends one event (sse calls it after each): the gate decides whether
// it goes out.
func (g *gateWriter) Flush() {
	block := bytes.Clone(g.buf.Bytes())
	g.buf.Reset()
	if g.broken {
		return
	}
	var out []byte
	if !g.greeted && g.status == http.StatusOK {
		g.greeted = true
		g.last = g.hello()
		out = fmt.Appendf(nil, "id: %d\nevent: change\ndata: %s\n\n", g.last, changeData(g.last))
	}
	if len(block) > 0 {
		v, ok := eventVersion(block)
		switch {
		case !ok: // a heartbeat or other comment
			out = append(out, block...)
		case v > g.last:
			g.last = v
			out = append(out, block...)
		}
	}
	if len(out) == 0 {
		return
	}
	g.send(out)
}

func (g *gateWriter) send(p []byte) {
	_ = g.rc.SetWriteDeadline(time.Now().Add(streamWriteTimeout)) // unsupported writers just skip it
	if _, err := g.w.Write(p); err != nil {
		g.gone()
		return
	}
	if err := g.rc.Flush(); err != nil {
		g.gone()
	}
}

// gone marks the subscriber lost and ends its subscription; sse keeps
// draining its queue into the gate, which now drops everything.
func (g *gateWriter) gone() {
	g.broken = true
	g.cancel()
}

// finish writes what sse left unflushed (an error answer) and lifts the
// write deadline from the connection.
func (g *gateWriter) finish() {
	if g.buf.Len() > 0 && !g.broken {
		g.send(g.buf.Bytes())
	}
	_ = g.rc.SetWriteDeadline(time.Time{})
}

// eventVersion reads the id line of one event, which carries its version.
func eventVersion(block []byte) (int64, bool) {
	sc := bufio.NewScanner(bytes.NewReader(block))
	for sc.Scan() {
		if id, ok := bytes.CutPrefix(sc.Bytes(), []byte("id:")); ok {
			v, err := strconv.ParseInt(string(bytes.TrimSpace(id)), 10, 64)
			return v, err == nil
		}
	}
	return 0, false
}
