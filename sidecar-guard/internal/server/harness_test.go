package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/opsboard/opsboard/sidecar-guard/internal/classify"
	"github.com/opsboard/opsboard/sidecar-guard/internal/guardstore"
	"github.com/opsboard/opsboard/sidecar-guard/internal/server"
)

// clock is a settable time source.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// options of a test guard.
type options struct {
	threshold float64
	ttlDays   int
	backend   classify.Backend // the heuristic when nil
	choice    string           // SVC_GUARD_MODEL
}

// guard is the real router over a real store in a temp directory, on a
// loopback port, with a clock the test moves.
type guard struct {
	t     testing.TB
	opt   options
	dir   string
	clock *clock
	store *guardstore.Store
	hs    *httptest.Server
	URL   string
}

func defaults() options { return options{threshold: 0.5, ttlDays: 7} }

func startGuard(t testing.TB, opt options) *guard {
	t.Helper()
	g := &guard{t: t, opt: opt, dir: t.TempDir(), clock: &clock{t: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}}
	g.open()
	t.Cleanup(g.close)
	return g
}

func (g *guard) open() {
	g.t.Helper()
	st, err := guardstore.Open(guardstore.Options{Dir: g.dir, SeedTTLDays: g.opt.ttlDays, Now: g.clock.Now})
	if err != nil {
		g.t.Fatal(err)
	}
	var b classify.Backend = classify.Heuristic{}
	if g.opt.backend != nil {
		b = g.opt.backend
	}
	choice := classify.Resolve(g.opt.choice, "")
	choice.Threshold = g.opt.threshold
	srv := server.New(server.Config{
		Store: st, Classifier: classify.New(b, g.opt.threshold), Choice: choice,
		DirOf:  func(p classify.Preset) string { return g.dir + "/models/" + p.Key },
		Prober: classify.NewProber(classify.ModelRuntime{}, time.Second, g.clock.Now),
		Now:    g.clock.Now,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	g.store, g.hs, g.URL = st, httptest.NewServer(srv.Handler()), ""
	g.URL = g.hs.URL
}

func (g *guard) close() {
	if g.hs != nil {
		g.hs.Close()
		g.store.Close()
		g.hs = nil
	}
}

// restart closes the server and the store and opens both again on the same
// directory, as a new process would.
func (g *guard) restart() {
	g.t.Helper()
	g.close()
	g.open()
}

// call sends a JSON request and decodes the answer into out (when non-nil),
// failing the test unless the status is want. It returns the raw body.
func (g *guard) call(method, path string, body any, want int, out any) []byte {
	g.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = bytes.NewBufferString(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			g.t.Fatal(err)
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(context.Background(), method, g.URL+path, rd)
	if err != nil {
		g.t.Fatal(err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		g.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		g.t.Fatalf("%s %s: status %d, want %d: %s", method, path, resp.StatusCode, want, data)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
		g.t.Errorf("%s %s: Content-Type %q", method, path, ct)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			g.t.Fatalf("%s %s: decode %s: %v", method, path, data, err)
		}
	}
	return data
}

func (g *guard) enable() {
	g.t.Helper()
	g.call("POST", "/config", map[string]any{"enabled": true}, 200, nil)
}
