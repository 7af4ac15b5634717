package api

import (
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

// defaultHeartbeat keeps idle streams (and any proxy between) open; a
// heartbeat must come at least every 15 s.
const defaultHeartbeat = 10 * time.Second

// streamWriteTimeout bounds one write to a subscriber, so a client that
// stopped reading is cut off instead of holding its stream open.
const streamWriteTimeout = 10 * time.Second

// liveStream is GET /api/stream: one change{version} event per committed
// write (a burst may coalesce into one event with the newest version), fed
// by the store's change notifications. Each connection is its own
// r3labs/sse stream: it is greeted on that stream with the current version,
// and every later change is published to all of them. It starts with the
// first subscriber.
type liveStream struct {
	store     *store.Store
	heartbeat time.Duration
	log       *slog.Logger

	life context.Context // cancelled by close: every stream handler returns
	stop context.CancelFunc

	once    sync.Once
	conns   sync.WaitGroup // open stream handlers
	nextID  atomic.Uint64  // names each connection's stream
	srv     *sse.Server
	latest  atomic.Int64
	kick    chan struct{}
	started bool
	done    chan struct{} // the publisher exited

	// mu orders greetings against fan-out, so every subscriber sees
	// strictly increasing versions: its greeting carries sent, and every
	// change published after it is newer.
	mu       sync.Mutex
	closed   bool
	subs     map[string]*subscriber // by stream id
	sent     int64                  // the newest version published
	unlisten func()
}

// subscriber is one open connection.
type subscriber struct {
	cancel  context.CancelFunc // ends the connection
	greeted bool               // changes go to it only after its greeting
}

func newLiveStream(st *store.Store, heartbeat time.Duration, log *slog.Logger) *liveStream {
	if heartbeat <= 0 || heartbeat > 15*time.Second {
		heartbeat = defaultHeartbeat
	}
	life, stop := context.WithCancel(context.Background())
	return &liveStream{store: st, heartbeat: heartbeat, log: log, life: life, stop: stop, subs: map[string]*subscriber{}}
}

func (l *liveStream) start() {
	l.srv = sse.New()
	l.srv.AutoReplay = false // else every event is kept and replayed to each new subscriber
	l.srv.AutoStream = false // streams are made per connection, below
	l.srv.Headers = map[string]string{"X-Accel-Buffering": "no"}
	// The library calls OnSubscribe once the subscriber is registered on
	// its stream, so the greeting published there reaches it.
	l.srv.OnSubscribe = func(id string, _ *sse.Subscriber) { l.greet(id) }
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
	for {
		select {
		case <-l.life.Done():
			return
		case <-l.kick:
			l.mu.Lock()
			l.announce(l.latest.Load())
			l.mu.Unlock()
		case <-tick.C:
			l.mu.Lock()
			l.fanOut(&sse.Event{Comment: []byte("heartbeat")})
			l.mu.Unlock()
		}
	}
}

// greet publishes the current version to a new subscriber's stream and
// admits it to the fan-out. A version the others have not been told about
// yet goes to them too. Called by the library; l.mu is not held.
func (l *liveStream) greet(id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	sub := l.subs[id]
	if sub == nil { // the connection closed before it was registered
		return
	}
	l.announce(l.store.Version())
	if !l.srv.TryPublish(id, changeEvent(l.sent)) {
		sub.cancel()
		return
	}
	sub.greeted = true
}

// announce publishes version v to every greeted subscriber unless it is not
// newer than the last one published. l.mu is held.
func (l *liveStream) announce(v int64) {
	if v <= l.sent {
		return
	}
	l.sent = v
	l.fanOut(changeEvent(v))
}

// fanOut publishes ev to every greeted subscriber. A subscriber whose queue
// is full has fallen too far behind: it is disconnected rather than allowed
// to hold up the others, and a page reconnects and is greeted with the
// current version. l.mu is held.
func (l *liveStream) fanOut(ev *sse.Event) {
	for id, sub := range l.subs {
		if sub.greeted && !l.srv.TryPublish(id, ev) {
			l.log.Warn("stream subscriber fell behind; disconnecting it", "stream", id)
			sub.cancel()
		}
	}
}

// changeEvent is the change{version} event; its id is the version, so a
// reconnecting EventSource reports where it stood.
func changeEvent(v int64) *sse.Event {
	return &sse.Event{ID: strconv.AppendInt(nil, v, 10), Event: []byte("change"), Data: fmt.Appendf(nil, `{"version":%d}`, v)}
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

// enter admits a subscriber unless the stream is closing, and gives it its
// own library stream.
func (l *liveStream) enter(cancel context.CancelFunc) (id string, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return "", false
	}
	l.once.Do(l.start)
	l.conns.Add(1)
	id = strconv.FormatUint(l.nextID.Add(1), 10)
	l.subs[id] = &subscriber{cancel: cancel}
	l.srv.CreateStream(id)
	return id, true
}

// leave removes a subscriber and its library stream once its handler is
// done with it.
func (l *liveStream) leave(id string) {
	l.mu.Lock()
	delete(l.subs, id)
	l.mu.Unlock()
	l.srv.RemoveStream(id)
	l.conns.Done()
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
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	id, ok := l.enter(cancel)
	if !ok {
		a.fail(w, &errs.UnavailableError{Msg: "the board is shutting down"})
		return
	}
	defer l.leave(id)
	defer context.AfterFunc(l.life, cancel)()
	// r3labs/sse reads the stream id from the query: serve this
	// connection's own.
	req := r.WithContext(ctx)
	u := *r.URL
	u.RawQuery = "stream=" + id
	req.URL = &u
	dw := &deadlineWriter{ResponseWriter: w, rc: http.NewResponseController(w), cancel: cancel}
	l.srv.ServeHTTP(dw, req)
	_ = dw.rc.SetWriteDeadline(time.Time{}) // the connection may be reused
}

// deadlineWriter bounds each write and flush to one subscriber. A failed
// write ends the subscription; the library drains what is left of its
// queue into the writer, which drops it.
type deadlineWriter struct {
	http.ResponseWriter
	rc     *http.ResponseController
	cancel context.CancelFunc
	broken bool
}

var errStreamGone = errors.New("the subscriber is gone")

func (d *deadlineWriter) Write(p []byte) (int, error) {
	if d.broken {
		return 0, errStreamGone
	}
	_ = d.rc.SetWriteDeadline(time.Now().Add(streamWriteTimeout)) // unsupported writers just skip it
	n, err := d.ResponseWriter.Write(p)
	if err != nil {
		d.gone()
	}
	return n, err
}

// Flush implements http.Flusher, which the library requires.
func (d *deadlineWriter) Flush() {
	if d.broken {
		return
	}
	_ = d.rc.SetWriteDeadline(time.Now().Add(streamWriteTimeout))
	if err := d.rc.Flush(); err != nil {
		d.gone()
	}
}

func (d *deadlineWriter) gone() {
	d.broken = true
	d.cancel()
}
