package api_test

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opsboard/opsboard/board/internal/api"
	"github.com/opsboard/opsboard/board/internal/mail/dedupe"
	"github.com/opsboard/opsboard/board/internal/rules/hierarchy"
	"github.com/opsboard/opsboard/board/internal/rules/labels"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
	"github.com/tidwall/gjson"
)

// option adjusts a test board's store or API configuration before it opens.
type option func(*store.Config, *api.Config)

// board is a real store and the real router on a loopback port, with the
// whole-tree invariant check after every write, so a write path that forgets
// the hierarchy check fails the suite.
type board struct {
	t     testing.TB
	URL   string
	Store *store.Store
	API   *api.API
	Dir   string
}

func newBoard(t testing.TB, opts ...option) *board {
	t.Helper()
	return newBoardWith(t, "", opts...)
}

// newBoardWith is newBoard with the vault folder vaultDir opened over its
// store, as the daemon does; "" runs without a vault.
func newBoardWith(t testing.TB, vaultDir string, opts ...option) *board {
	t.Helper()
	bundles, err := labels.Load()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	scfg := store.Config{
		Path: filepath.Join(dir, "board.json"), MessageKey: dedupe.Key, Seed: labels.SeedUniversal(bundles), Logger: quiet,
		Verify: func(d *wire.Doc) error { return hierarchy.Check(d.Cases.Slice()) },
	}
	acfg := api.Config{Version: "test", Logger: quiet, Bundles: bundles}
	for _, o := range opts {
		o(&scfg, &acfg)
	}
	st, err := store.Open(scfg)
	if err != nil {
		t.Fatal(err)
	}
	acfg.Store = st
	attach := func(*api.API) {}
	if vaultDir != "" {
		acfg.Vault, attach = openVault(t, st, vaultDir)
	}
	a, router := api.New(acfg)
	attach(a)
	srv := httptest.NewServer(router)
	t.Cleanup(func() {
		a.Close() // ends open streams, so the server's close does not wait on them
		srv.Close()
		if acfg.Vault != nil {
			acfg.Vault.Close()
		}
		if err := st.Close(); err != nil {
			t.Errorf("close store: %v", err)
		}
	})
	return &board{t: t, URL: srv.URL, Store: st, API: a, Dir: dir}
}

// res is an answer: its status and its JSON body.
type res struct {
	Code int
	Body gjson.Result
	Raw  string
	Hdr  http.Header
}

// do sends a request. body may be nil, a string (sent as is) or any value
// (encoded as JSON). hdr alternates header names and values.
func (b *board) do(method, path string, body any, hdr ...string) res {
	b.t.Helper()
	var rd io.Reader
	switch v := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(v)
	default:
		data, err := json.Marshal(v)
		if err != nil {
			b.t.Fatal(err)
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, b.URL+path, rd)
	if err != nil {
		b.t.Fatal(err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		if strings.EqualFold(hdr[i], "Host") {
			req.Host = hdr[i+1] // the client sends req.Host, not a Host header
			continue
		}
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return res{Code: resp.StatusCode, Body: gjson.ParseBytes(raw), Raw: string(raw), Hdr: resp.Header}
}

// must sends a request and fails the test unless the status is want.
func (b *board) must(want int, method, path string, body any, hdr ...string) gjson.Result {
	b.t.Helper()
	r := b.do(method, path, body, hdr...)
	if r.Code != want {
		b.t.Fatalf("%s %s: status %d, want %d: %s", method, path, r.Code, want, r.Raw)
	}
	return r.Body
}

// fails sends a request that must be refused with code and an error
// containing msg, and checks the state's version did not move.
func (b *board) fails(code int, msg, method, path string, body any, hdr ...string) {
	b.t.Helper()
	before := b.Store.Version()
	r := b.do(method, path, body, hdr...)
	if r.Code != code {
		b.t.Fatalf("%s %s: status %d, want %d: %s", method, path, r.Code, code, r.Raw)
	}
	if got := r.Body.Get("error").String(); !strings.Contains(got, msg) {
		b.t.Fatalf("%s %s: error %q does not contain %q", method, path, got, msg)
	}
	if after := b.Store.Version(); after != before {
		b.t.Fatalf("%s %s: refused write moved version %d -> %d", method, path, before, after)
	}
}

// quiet keeps test output to what the tests say.
var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// agent is the header pair an agent tool sends.
var agent = []string{"x-actor", "agent"}
