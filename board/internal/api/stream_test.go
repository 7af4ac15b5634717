package api_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opsboard/opsboard/board/internal/api"
	"github.com/opsboard/opsboard/board/internal/mail/dedupe"
	"github.com/opsboard/opsboard/board/internal/rules/labels"
	"github.com/opsboard/opsboard/board/internal/rules/priorities"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
	"github.com/tidwall/gjson"
)

// streamWait bounds every wait for an event, so a broken stream fails the
// test instead of hanging it. It is a deadline, not a speed requirement.
const streamWait = 10 * time.Second

// newStreamBoard is newBoard with the API at hand (to close its streams)
// and a chosen heartbeat.
func newStreamBoard(t testing.TB, heartbeat time.Duration) (*board, *api.API) {
	t.Helper()
	b := newBoard(t, func(s *store.Config, c *api.Config) {
		s.CompactIdle = 20 * time.Millisecond
		c.StreamHeartbeat = heartbeat
	})
	return b, b.API
}

// sseEvent is one server-sent event as a browser's EventSource reads it.
type sseEvent struct {
	Name, ID, Data, Comment string
	At                      time.Time // when the client finished reading it
}

func (e sseEvent) version() int64 { return gjson.Get(e.Data, "version").Int() }

// sseClient is a small EventSource: it reads the stream line by line and
// hands over whole events.
type sseClient struct {
	Events chan sseEvent
	Header http.Header
	cancel context.CancelFunc
	done   chan struct{}
	tr     *http.Transport
}

func openStream(t testing.TB, base string) *sseClient {
	t.Helper()
	return openStreamAt(t, base+"/api/stream")
}

func openStreamAt(t testing.TB, url string) *sseClient {
	t.Helper()
	tr := &http.Transport{DisableKeepAlives: true}
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/event-stream")
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		cancel()
		t.Fatalf("GET /api/stream: status %d", resp.StatusCode)
	}
	c := &sseClient{Events: make(chan sseEvent, 4096), Header: resp.Header, cancel: cancel, done: make(chan struct{}), tr: tr}
	go func() {
		defer close(c.done)
		defer close(c.Events)
		defer resp.Body.Close()
		rd := bufio.NewReader(resp.Body)
		var ev sseEvent
		seen := false
		for {
			line, err := rd.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimRight(line, "\r\n")
			switch {
			case line == "":
				if seen {
					ev.At = time.Now()
					select {
					case c.Events <- ev:
					case <-ctx.Done():
						return
					}
				}
				ev, seen = sseEvent{}, false
			case strings.HasPrefix(line, ":"):
				ev.Comment, seen = strings.TrimSpace(line[1:]), true
			default:
				field, value, _ := strings.Cut(line, ":")
				value = strings.TrimPrefix(value, " ")
				seen = true
				switch field {
				case "event":
					ev.Name = value
				case "id":
					ev.ID = value
				case "data":
					if ev.Data != "" {
						ev.Data += "\n"
					}
					ev.Data += value
				}
			}
		}
	}()
	return c
}

// Close disconnects, as a closed browser tab does.
func (c *sseClient) Close() {
	c.cancel()
	<-c.done
	c.tr.CloseIdleConnections()
}

// next is the next event, comments included.
func (c *sseClient) next(t testing.TB) sseEvent {
	t.Helper()
	select {
	case ev, ok := <-c.Events:
		if !ok {
			t.Fatal("the stream ended")
		}
		return ev
	case <-time.After(streamWait):
		t.Fatalf("no event within %s", streamWait)
	}
	return sseEvent{}
}

// changesUntil reads change events until one carries version v or later and
// returns every version read. It checks each event's shape on the way.
func (c *sseClient) changesUntil(t testing.TB, v int64) []int64 {
	t.Helper()
	var got []int64
	for len(got) == 0 || got[len(got)-1] < v {
		ev := c.next(t)
		if ev.Comment != "" && ev.Name == "" {
			continue // heartbeat
		}
		if ev.Name != "change" || ev.ID != strconv.FormatInt(ev.version(), 10) || ev.Data != fmt.Sprintf(`{"version":%d}`, ev.version()) {
			t.Fatalf("malformed change event %+v", ev)
		}
		got = append(got, ev.version())
	}
	return got
}

func strictlyIncreasing(v []int64) bool {
	for i := 1; i < len(v); i++ {
		if v[i] <= v[i-1] {
			return false
		}
	}
	return true
}

func TestStreamGreetsWithTheCurrentVersion(t *testing.T) {
	b, _ := newStreamBoard(t, 0)
	b.must(201, "POST", "/api/cases", map[string]any{"title": "before anyone listens"})
	c := openStream(t, b.URL)
	defer c.Close()
	if ct := c.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("content type %q", ct)
	}
	// A page that (re)connects learns where the board stands, so it catches
	// up on anything written while it was away.
	if got := c.changesUntil(t, b.Store.Version()); !slices.Equal(got, []int64{b.Store.Version()}) {
		t.Errorf("greeting %v, want [%d]", got, b.Store.Version())
	}
	v := b.must(201, "POST", "/api/priorities", map[string]any{"text": "p"}).Get("version").Int()
	if got := c.changesUntil(t, v); !slices.Equal(got, []int64{v}) {
		t.Errorf("after one write %v, want [%d]", got, v)
	}
	// The stream parameter of the library is not needed, nor harmful.
	c2 := openStreamAt(t, b.URL+"/api/stream?stream=other")
	defer c2.Close()
	if got := c2.changesUntil(t, v); !slices.Equal(got, []int64{v}) {
		t.Errorf("with ?stream=other: %v", got)
	}
}

func TestStreamFansOutIncreasingVersionsToEverySubscriber(t *testing.T) {
	b, _ := newStreamBoard(t, 0)
	const subscribers, writers, each = 4, 4, 10
	var subs []*sseClient
	for range subscribers {
		c := openStream(t, b.URL)
		defer c.Close()
		subs = append(subs, c)
	}
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				text := fmt.Sprintf("w%d-%d", w, i)
				if _, _, _, err := priorities.Create(context.Background(), b.Store, wire.ActorHuman, wire.PriorityCreate{Text: text}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	final := b.Store.Version()
	for i, c := range subs {
		got := c.changesUntil(t, final)
		if !strictlyIncreasing(got) || got[len(got)-1] != final {
			t.Errorf("subscriber %d saw %v, want strictly increasing versions ending at %d", i, got, final)
		}
	}
	// One more write reaches everyone.
	v := b.must(201, "POST", "/api/events", map[string]any{"title": "x", "date": "2026-01-01"}).Get("version").Int()
	for i, c := range subs {
		if got := c.changesUntil(t, v); got[len(got)-1] != v {
			t.Errorf("subscriber %d: %v", i, got)
		}
	}
}

func TestStreamHeartbeat(t *testing.T) {
	b, _ := newStreamBoard(t, 20*time.Millisecond)
	c := openStream(t, b.URL)
	defer c.Close()
	c.changesUntil(t, b.Store.Version()) // the greeting
	for range 2 {
		if ev := c.next(t); ev.Comment != "heartbeat" || ev.Name != "" || ev.Data != "" {
			t.Errorf("want a heartbeat comment, got %+v", ev)
		}
	}
}

func TestStreamReportsHandEdits(t *testing.T) {
	b, _ := newStreamBoard(t, 0)
	id := newCaseID(b, "Typed by hand soon")
	path := filepath.Join(b.Dir, "board.json")
	// Wait for the document to hold the case (the journal is folded into it
	// after a short idle).
	deadline := time.Now().Add(streamWait)
	for {
		d, err := storefile.ReadDoc(path)
		if err == nil && d.Version == b.Store.Version() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the document did not catch up: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	c := openStream(t, b.URL)
	defer c.Close()
	before := c.changesUntil(t, b.Store.Version())[0]
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	for _, x := range doc["cases"].([]any) {
		if m := x.(map[string]any); m["id"] == id {
			m["title"] = "Edited by hand"
		}
	}
	edited, _ := json.MarshalIndent(doc, "", "  ")
	tmp := path + ".edit"
	if err := os.WriteFile(tmp, edited, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil { // how editors save
		t.Fatal(err)
	}
	got := c.changesUntil(t, before+1)
	if got[len(got)-1] <= before {
		t.Fatalf("no change after the hand edit: %v", got)
	}
	if title := b.must(200, "GET", "/api/cases/"+id, nil).Get("case.title").String(); title != "Edited by hand" {
		t.Errorf("after the change event the case reads %q", title)
	}
}

// steadyGoroutines is the goroutine count once it has stopped moving for a
// few samples (bounded by streamWait).
func steadyGoroutines() int {
	deadline := time.Now().Add(streamWait)
	n, same := runtime.NumGoroutine(), 0
	for same < 5 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		m := runtime.NumGoroutine()
		if m == n {
			same++
		} else {
			n, same = m, 0
		}
	}
	return n
}

// settledGoroutines waits (boundedly) for the goroutine count to drop to at
// most want, and returns the last count.
func settledGoroutines(want int) int {
	deadline := time.Now().Add(streamWait)
	n := runtime.NumGoroutine()
	for n > want && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		runtime.GC()
		n = runtime.NumGoroutine()
	}
	return n
}

func TestStreamSubscribersThatLeaveAreCleanedUp(t *testing.T) {
	b, _ := newStreamBoard(t, 0)
	warm := openStream(t, b.URL) // the stream's own goroutines start with the first subscriber
	warm.changesUntil(t, b.Store.Version())
	warm.Close()
	base := steadyGoroutines()
	for round := range 3 {
		var subs []*sseClient
		for range 8 {
			subs = append(subs, openStream(t, b.URL))
		}
		if _, _, _, err := priorities.Create(context.Background(), b.Store, wire.ActorHuman, wire.PriorityCreate{Text: "x"}); err != nil {
			t.Fatal(err)
		}
		for _, c := range subs {
			c.changesUntil(t, b.Store.Version())
		}
		if during := runtime.NumGoroutine(); during <= base {
			t.Fatalf("round %d: %d goroutines with 8 open streams, baseline %d: the count does not see them", round, during, base)
		}
		for _, c := range subs {
			c.Close()
		}
		if n := settledGoroutines(base); n > base {
			t.Fatalf("round %d: %d goroutines after every subscriber left, baseline %d", round, n, base)
		}
	}
	// The board still serves new subscribers.
	c := openStream(t, b.URL)
	defer c.Close()
	c.changesUntil(t, b.Store.Version())
}

func TestStreamEndsOnShutdown(t *testing.T) {
	bundles, err := labels.Load()
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(store.Config{Path: filepath.Join(t.TempDir(), "board.json"), MessageKey: dedupe.Key})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	a, router := api.New(api.Config{Store: st, Version: "test", Bundles: bundles})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: router}
	srv.RegisterOnShutdown(a.Close)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	base := "http://" + ln.Addr().String()
	c1, c2 := openStream(t, base), openStream(t, base)
	defer c1.Close()
	defer c2.Close()
	c1.changesUntil(t, st.Version())
	c2.changesUntil(t, st.Version())
	ctx, cancel := context.WithTimeout(context.Background(), streamWait)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		t.Fatalf("shutdown with open streams: %v", err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		t.Errorf("serve: %v", err)
	}
	for i, c := range []*sseClient{c1, c2} {
		select {
		case <-c.done:
		case <-time.After(streamWait):
			t.Errorf("stream %d still open after shutdown", i)
		}
	}
	// After Close, a late subscriber is refused rather than left hanging.
	rec := httptest.NewRecorder()
	router.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://127.0.0.1/api/stream", nil))
	if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), "shutting down") {
		t.Errorf("stream after close: %d %s", rec.Code, rec.Body.String())
	}
	a.Close() // idempotent
}

// BenchmarkStreamWriteToEvent measures, on loopback, the time from sending a
// write (POST /api/priorities) to the moment every subscriber has read its
// change event. The figure includes the write's own durable commit (a
// journal fsync) and is reported as p50 and p99 over the run.
func BenchmarkStreamWriteToEvent(b *testing.B) {
	for _, n := range []int{1, 8} {
		b.Run(fmt.Sprintf("subscribers=%d", n), func(b *testing.B) {
			bd, _ := newStreamBoard(b, 0)
			var subs []*sseClient
			for range n {
				c := openStream(b, bd.URL)
				defer c.Close()
				c.changesUntil(b, bd.Store.Version())
				subs = append(subs, c)
			}
			client := &http.Client{}
			body := `{"text":"bench"}`
			lat := make([]time.Duration, 0, b.N)
			ack := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for range b.N {
				start := time.Now()
				resp, err := client.Post(bd.URL+"/api/priorities", "application/json", strings.NewReader(body))
				if err != nil {
					b.Fatal(err)
				}
				var out struct {
					Version int64 `json:"version"`
				}
				err = json.NewDecoder(resp.Body).Decode(&out)
				resp.Body.Close()
				if err != nil {
					b.Fatal(err)
				}
				acked := time.Now()
				var last time.Time
				for _, c := range subs {
					for {
						ev := c.next(b)
						if ev.Name == "change" && ev.version() >= out.Version {
							if ev.At.After(last) {
								last = ev.At
							}
							break
						}
					}
				}
				lat = append(lat, last.Sub(start))
				ack = append(ack, acked.Sub(start))
			}
			b.StopTimer()
			b.ReportMetric(float64(percentile(lat, 50).Microseconds()), "p50-write-to-event-µs")
			b.ReportMetric(float64(percentile(lat, 99).Microseconds()), "p99-write-to-event-µs")
			b.ReportMetric(float64(percentile(ack, 50).Microseconds()), "p50-write-ack-µs")
		})
	}
}

func percentile(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*p/100)]
}
