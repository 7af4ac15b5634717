package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opsboard/opsboard/board/internal/api"
	"github.com/opsboard/opsboard/board/internal/backup"
	"github.com/opsboard/opsboard/board/internal/backup/schedule"
	"github.com/opsboard/opsboard/board/internal/mail/dedupe"
	"github.com/opsboard/opsboard/board/internal/rules/hierarchy"
	"github.com/opsboard/opsboard/board/internal/rules/labels"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/board/internal/testkit"
	"github.com/opsboard/opsboard/board/internal/vault"
	"github.com/opsboard/opsboard/shared/wire"
)

// board is a real board on a loopback port: the store on a temp directory,
// the /api routes and this page, wired as cmd/board wires them.
type board struct {
	t    testing.TB
	URL  string
	Path string // the store document
	addr string
	st   *store.Store
	api  *api.API
	srv  *http.Server
	vlt  *vault.Vault // vault/ beside the document, as the daemon keeps it

	guardURL string // the guard sidecar, when a test runs one

	// backupEnv is the environment the backup settings are read from; nil
	// runs the board without them.
	backupEnv map[string]string
	backups   *schedule.Trigger
	toolDir   string // where /api/connect looks for the tool servers
	reqMu     sync.Mutex
	reqs      []request // what the browser asked for, in order
}

// request is one answer the board gave the browser (not the test's own
// calls, nor the live stream): what was asked and how many body bytes it got.
type request struct {
	Method, Path string // Path with its query
	Bytes        int
}

func startBoard(t testing.TB) *board {
	t.Helper()
	return startBoardOn(t, nil)
}

// startBoardOn starts a board on a copy of doc (a fresh board when nil),
// written straight to the store file: a big board without a write each.
func startBoardOn(t testing.TB, doc *wire.Doc) *board {
	t.Helper()
	b := &board{t: t, Path: filepath.Join(t.TempDir(), "board.json"), addr: "127.0.0.1:0"}
	if doc != nil {
		data, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(b.Path, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	b.start()
	t.Cleanup(b.stop)
	return b
}

// requests returns the browser's requests from the n-th on.
func (b *board) requests(n int) []request {
	b.reqMu.Lock()
	defer b.reqMu.Unlock()
	return append([]request(nil), b.reqs[min(n, len(b.reqs)):]...)
}

// requestCount is how many browser requests the board has answered.
func (b *board) requestCount() int {
	b.reqMu.Lock()
	defer b.reqMu.Unlock()
	return len(b.reqs)
}

// logRequests records the browser's requests on the way through.
func (b *board) logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.UserAgent(), "Go-http-client") || r.URL.Path == "/api/stream" {
			next.ServeHTTP(w, r)
			return
		}
		cw := &countingWriter{ResponseWriter: w}
		next.ServeHTTP(cw, r)
		b.reqMu.Lock()
		b.reqs = append(b.reqs, request{Method: r.Method, Path: r.URL.RequestURI(), Bytes: cw.n})
		b.reqMu.Unlock()
	})
}

type countingWriter struct {
	http.ResponseWriter
	n int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.ResponseWriter.Write(p)
	c.n += n
	return n, err
}

func (b *board) start() {
	b.t.Helper()
	bundles, err := labels.Load()
	if err != nil {
		b.t.Fatal(err)
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	st, err := store.Open(store.Config{
		Path: b.Path, MessageKey: dedupe.Key, Seed: labels.SeedUniversal(bundles), Logger: quiet,
		Verify: func(d *wire.Doc) error { return hierarchy.Check(d.Cases.Slice()) },
	})
	if err != nil {
		b.t.Fatal(err)
	}
	acfg := api.Config{Store: st, Version: "test", Logger: quiet, Bundles: bundles, GuardURL: b.guardURL, ToolDir: b.toolDir}
	if b.backupEnv != nil {
		bs, err := backup.SettingsFrom(func(k string) string { return b.backupEnv[k] }, b.Path)
		if err != nil {
			st.Close()
			b.t.Fatal(err)
		}
		b.backups = schedule.New(schedule.Config{Settings: bs, Log: quiet,
			Source: func(context.Context) (*wire.Doc, error) { return st.Snapshot(), nil }})
		acfg.Backups = b.backups
	}
	vlt, attach := testVault(b.t, st, quiet)
	acfg.Vault = vlt
	// The first scan runs in the background; the page opens after it, so
	// no view meets the vault's 503 while it loads.
	testkit.Eventually(b.t, "the vault's first scan", vlt.Ready)
	a, router := api.New(acfg)
	attach(a)
	Mount(router)
	var ln net.Listener
	for i := 0; ; i++ { // a restart reuses the port, which may take a moment to free
		ln, err = net.Listen("tcp", b.addr)
		if err == nil || i == 50 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		st.Close()
		b.t.Fatal(err)
	}
	b.addr = ln.Addr().String()
	b.URL = "http://" + b.addr
	b.st, b.api, b.vlt = st, a, vlt
	b.srv = &http.Server{Handler: b.logRequests(router), ReadHeaderTimeout: 10 * time.Second}
	b.srv.RegisterOnShutdown(a.Close)
	go b.srv.Serve(ln)
}

// stop shuts the board down as a signal would: open streams are cut.
func (b *board) stop() {
	if b.srv == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	b.api.Close()
	if err := b.srv.Shutdown(ctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		b.t.Logf("shutdown: %v", err)
	}
	if b.backups != nil {
		b.backups.Close()
	}
	b.vlt.Close()
	if err := b.st.Close(); err != nil {
		b.t.Errorf("close store: %v", err)
	}
	b.srv = nil
}

// restart stops the board and starts it again on the same port and data.
func (b *board) restart() {
	b.t.Helper()
	b.stop()
	b.start()
}

// call sends a request to the API; as the agent's tools do, when agent is
// set it carries x-actor: agent. It returns the decoded JSON body.
func (b *board) call(method, path string, body any, agent bool) map[string]any {
	b.t.Helper()
	out, code, err := b.try(method, path, body, agent)
	if err != nil {
		b.t.Fatal(err)
	}
	if code >= 300 {
		b.t.Fatalf("%s %s: %d %v", method, path, code, out)
	}
	return out
}

func (b *board) try(method, path string, body any, agent bool) (map[string]any, int, error) {
	var rd io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return nil, 0, err
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, b.URL+path, rd)
	if err != nil {
		return nil, 0, err
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if agent {
		req.Header.Set("x-actor", "agent")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, 0, err
	}
	var out map[string]any
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &out); err != nil {
			return nil, resp.StatusCode, fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, raw)
		}
	}
	return out, resp.StatusCode, nil
}

// cases lists the board's cases as records.
func (b *board) cases() []wire.Case {
	b.t.Helper()
	var out struct {
		Cases []wire.Case `json:"cases"`
	}
	b.decode("/api/cases?includeArchived=1", &out)
	return out.Cases
}

func (b *board) decode(path string, v any) {
	b.t.Helper()
	resp, err := http.Get(b.URL + path)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		b.t.Fatal(err)
	}
}

func str(m map[string]any, path ...string) string {
	var cur any = m
	for _, p := range path {
		mm, ok := cur.(map[string]any)
		if !ok {
			return ""
		}
		cur = mm[p]
	}
	s, _ := cur.(string)
	return s
}
