package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
	"github.com/opsboard/opsboard/sidecar-search/internal/server"
)

// store is a board store on disk, written the way the board writes it:
// the document by atomic rename, newer writes appended to the journal.
type store struct {
	t    *testing.T
	path string
	doc  *wire.Doc
}

func newStore(t *testing.T) *store {
	s := &store{t: t, path: filepath.Join(t.TempDir(), "board.json"), doc: seed()}
	s.compact()
	return s
}

func seed() *wire.Doc {
	d := storefile.New()
	d.Version = 3
	d.Cases = wire.ListOf([]*wire.Case{
		{ID: "CASE-1", Title: "Renew passport", Summary: "consulate appointment", Status: "todo", Domain: "life", Kind: "case",
			Tasks: []wire.Task{{ID: "CASE-1-T1", Title: "Book passport photos"}}},
		{ID: "CASE-2", Title: "Quarterly revenue forecast", Summary: "finance review with the board", Status: "in_progress", Domain: "work", Kind: "case"},
		{ID: "CASE-3", Title: "Lisbon offsite logistics", Status: "done", Domain: "work", Kind: "case", ArchivedAt: "2025-01-02T00:00:00Z"},
	}...)
	d.Messages = wire.ListOf([]*wire.Message{{ID: "M-1", Subject: "Passport appointment confirmed", From: "consulate@example.org", CaseID: "CASE-1"}}...)
	d.Reminders = wire.ListOf([]*wire.Reminder{{ID: "REM-1", Title: "Pay revenue tax", Status: "dismissed", Domain: "work"}}...)
	return d
}

// compact writes the whole state as the document and empties the journal.
func (s *store) compact() {
	s.t.Helper()
	data, err := json.Marshal(s.doc)
	if err != nil {
		s.t.Fatal(err)
	}
	tmp := s.path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		s.t.Fatal(err)
	}
	if err := os.Rename(tmp, s.path); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(storefile.JournalPath(s.path), nil, 0o600); err != nil {
		s.t.Fatal(err)
	}
}

// write appends one committed write to the journal.
func (s *store) write(e storefile.Entry) {
	s.t.Helper()
	e.Version = s.doc.Version + 1
	storefile.Apply(s.doc, &e)
	line, err := storefile.AppendEntry(nil, &e)
	if err != nil {
		s.t.Fatal(err)
	}
	f, err := os.OpenFile(storefile.JournalPath(s.path), os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		s.t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(line); err != nil {
		s.t.Fatal(err)
	}
}

type sidecar struct {
	t   *testing.T
	URL string
}

func start(t *testing.T, path string) *sidecar {
	t.Helper()
	return startWith(t, server.Config{DataPath: path, Embedder: "auto", Poll: time.Hour, Logger: slog.New(slog.DiscardHandler)})
}

// startWith runs a sidecar with cfg and waits until it is healthy.
func startWith(t *testing.T, cfg server.Config) *sidecar {
	t.Helper()
	srv := server.New(cfg)
	hs := httptest.NewServer(srv.Handler())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run: %v", err)
		}
		hs.Close()
	})
	sc := &sidecar{t: t, URL: hs.URL}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if code, _ := sc.do("GET", "/healthz", nil); code == http.StatusOK {
			return sc
		}
		if time.Now().After(deadline) {
			t.Fatal("sidecar did not become healthy")
		}
	}
}

func (s *sidecar) do(method, path string, body any) (int, map[string]any) {
	s.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		if str, ok := body.(string); ok {
			b = []byte(str)
		}
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, s.URL+path, rd)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		s.t.Fatalf("%s %s: %v", method, path, err)
	}
	return resp.StatusCode, out
}

func (s *sidecar) search(body any) map[string]any {
	s.t.Helper()
	code, out := s.do("POST", "/search", body)
	if code != http.StatusOK {
		s.t.Fatalf("search %v: %d %v", body, code, out)
	}
	return out
}

func (s *sidecar) stats() map[string]any {
	s.t.Helper()
	_, out := s.do("GET", "/stats", nil)
	return out
}

func hitIDs(res map[string]any, q int) []string {
	out := []string{}
	for _, h := range res["results"].([]any)[q].(map[string]any)["hits"].([]any) {
		out = append(out, h.(map[string]any)["id"].(string))
	}
	return out
}

func TestColdSidecarIsNotHealthy(t *testing.T) {
	srv := server.New(server.Config{DataPath: filepath.Join(t.TempDir(), "board.json"), Embedder: "hash", Logger: slog.New(slog.DiscardHandler)})
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	sc := &sidecar{t: t, URL: hs.URL}
	if code, out := sc.do("GET", "/healthz", nil); code != http.StatusServiceUnavailable || out["ok"] != false {
		t.Errorf("healthz before warm-up: %d %v", code, out)
	}
	if code, _ := sc.do("POST", "/search", map[string]any{"queries": []string{"x"}}); code != http.StatusServiceUnavailable {
		t.Errorf("search before warm-up: %d", code)
	}
	if code, _ := sc.do("POST", "/reindex", nil); code != http.StatusServiceUnavailable {
		t.Errorf("reindex before warm-up: %d", code)
	}
	if st := sc.stats(); st["warm"] != false || st["embedder"] != "none" {
		t.Errorf("stats before warm-up: %v", st)
	}
}

func TestHealthyStatsAndSearch(t *testing.T) {
	s := newStore(t)
	sc := start(t, s.path)
	_, h := sc.do("GET", "/healthz", nil)
	if h["ok"] != true || h["embedder"] != "hash" || h["docs"] != float64(6) {
		t.Errorf("healthz %v", h)
	}
	st := sc.stats()
	wantDocs := map[string]any{"case": float64(3), "task": float64(1), "message": float64(1), "reminder": float64(1)}
	if diff := cmp.Diff(wantDocs, st["docs"]); diff != "" {
		t.Errorf("doc counts (-want +got)\n%s", diff)
	}
	if st["embedder"] != "hash" || len(st["digest"].(string)) != 64 || st["storeVersion"] != float64(3) {
		t.Errorf("stats %v", st)
	}

	res := sc.search(map[string]any{"queries": []string{"renew passport", "revenue forecast"}, "limit": 3})
	if res["engine"] != "semantic" || res["embedder"] != "hash" || res["indexedDigest"] != st["digest"] || res["dim"] != float64(256) {
		t.Errorf("envelope %v", res)
	}
	if got := hitIDs(res, 0); len(got) != 3 || got[0] != "CASE-1" {
		t.Errorf("renew passport: %v", got)
	}
	if got := hitIDs(res, 1); got[0] != "CASE-2" {
		t.Errorf("revenue forecast: %v", got)
	}
	first := res["results"].([]any)[0].(map[string]any)
	hit := first["hits"].([]any)[0].(map[string]any)
	if first["query"] != "renew passport" || hit["type"] != "case" || hit["caseId"] != "CASE-1" || hit["cosine"].(float64) <= 0 {
		t.Errorf("first hit %v", first)
	}
}

func TestSearchRequestRules(t *testing.T) {
	s := newStore(t)
	sc := start(t, s.path)
	all := func(body map[string]any) []string {
		body["queries"] = []string{"passport revenue lisbon offsite"}
		body["limit"] = 50
		return hitIDs(sc.search(body), 0)
	}
	has := func(list []string, id string) bool {
		return strings.Contains(","+strings.Join(list, ",")+",", ","+id+",")
	}
	if got := all(map[string]any{}); has(got, "CASE-3") || len(got) != 5 {
		t.Errorf("default hides the archived case: %v", got)
	}
	if got := all(map[string]any{"includeArchived": true}); !has(got, "CASE-3") {
		t.Errorf("includeArchived: %v", got)
	}
	if got := all(map[string]any{"types": []string{"message", "reminder"}}); len(got) != 2 || !has(got, "M-1") || !has(got, "REM-1") {
		t.Errorf("types: %v", got)
	}
	if got := all(map[string]any{"domain": "work"}); has(got, "CASE-1") || !has(got, "M-1") || !has(got, "REM-1") {
		t.Errorf("domain keeps messages, drops other domains: %v", got)
	}
	if got := all(map[string]any{"status": "todo"}); has(got, "CASE-2") || !has(got, "REM-1") || !has(got, "CASE-1::CASE-1-T1") {
		t.Errorf("status keeps reminders: %v", got)
	}

	many := make([]string, 40)
	for i := range many {
		many[i] = fmt.Sprintf(" query %d ", i)
	}
	many[0] = "   "
	res := sc.search(map[string]any{"queries": many, "limit": 1})
	if r := res["results"].([]any); len(r) != 31 || r[0].(map[string]any)["query"] != "query 1" {
		t.Errorf("first 32 queries, trimmed, empties dropped: %d results, first %v", len(r), r[0])
	}
	if got := hitIDs(sc.search(map[string]any{"queries": []string{"passport"}, "limit": -4}), 0); len(got) != 1 {
		t.Errorf("limit clamps to 1: %v", got)
	}
	if got := hitIDs(sc.search(map[string]any{"queries": []string{"passport"}}), 0); len(got) != 5 {
		t.Errorf("default limit over 5 visible docs: %v", got)
	}
	for name, body := range map[string]any{
		"no queries":    map[string]any{"queries": []string{" ", ""}},
		"unknown type":  map[string]any{"queries": []string{"x"}, "types": []string{"event"}},
		"bad domain":    map[string]any{"queries": []string{"x"}, "domain": "home"},
		"bad status":    map[string]any{"queries": []string{"x"}, "status": "open"},
		"not an object": "[1,2]",
		"not json":      "{",
	} {
		if code, out := sc.do("POST", "/search", body); code != http.StatusBadRequest || out["error"] == "" {
			t.Errorf("%s: %d %v", name, code, out)
		}
	}
}

func TestIndexFollowsTheStoreAndRebuildsOnlyOnChange(t *testing.T) {
	s := newStore(t)
	sc := start(t, s.path)
	num := func(st map[string]any, k string) int { return int(st[k].(float64)) }
	base := sc.stats()
	if num(base, "rebuilds") != 1 || num(base, "embeddedTotal") != 6 {
		t.Fatalf("first build: %v", base)
	}

	for range 3 {
		sc.search(map[string]any{"queries": []string{"passport"}})
	}
	if st := sc.stats(); num(st, "reloads") != num(base, "reloads") || num(st, "embeddedTotal") != 6 {
		t.Errorf("unchanged store was re-read: %v", st)
	}

	// A write is searchable on the very next search.
	s.write(storefile.Entry{Cases: []*wire.Case{{ID: "CASE-4", Title: "Zeppelin hangar maintenance", Status: "todo", Domain: "work", Kind: "case"}}})
	if got := hitIDs(sc.search(map[string]any{"queries": []string{"zeppelin hangar"}}), 0); got[0] != "CASE-4" {
		t.Errorf("new case not found first: %v", got)
	}
	st := sc.stats()
	if num(st, "reloads") != num(base, "reloads")+1 || num(st, "rebuilds") != 2 || num(st, "lastEmbedded") != 1 || num(st, "embeddedTotal") != 7 || num(st, "storeVersion") != 4 {
		t.Errorf("after one write: %v", st)
	}

	// Compaction rewrites the files without changing the content: the
	// store is re-read, nothing is re-embedded.
	s.compact()
	sc.search(map[string]any{"queries": []string{"zeppelin"}})
	st2 := sc.stats()
	if num(st2, "reloads") != num(st, "reloads")+1 || num(st2, "rebuilds") != 2 || num(st2, "embeddedTotal") != 7 || st2["digest"] != st["digest"] {
		t.Errorf("after compaction: %v", st2)
	}

	// A lane change is not embedded text: same digest, no embedding, but
	// the status filter sees the new lane.
	moved := *s.doc.Cases.At(1)
	moved.Status = "done"
	s.write(storefile.Entry{Cases: []*wire.Case{&moved}})
	got := hitIDs(sc.search(map[string]any{"queries": []string{"revenue forecast"}, "status": "done"}), 0)
	if len(got) == 0 || got[0] != "CASE-2" {
		t.Errorf("status filter after a lane change: %v", got)
	}
	if st3 := sc.stats(); num(st3, "rebuilds") != 2 || num(st3, "embeddedTotal") != 7 || st3["digest"] != st["digest"] {
		t.Errorf("after a lane change: %v", st3)
	}

	// A deletion leaves the index; the id map keeps its size.
	s.write(storefile.Entry{Deleted: map[storefile.Collection][]string{"cases": {"CASE-4"}}})
	if got := hitIDs(sc.search(map[string]any{"queries": []string{"zeppelin hangar"}, "limit": 50}), 0); strings.Contains(strings.Join(got, ","), "CASE-4") {
		t.Errorf("deleted case still found: %v", got)
	}
	if st4 := sc.stats(); num(st4, "total") != 6 || num(st4, "idMapSize") != 7 {
		t.Errorf("after a delete: %v", st4)
	}

	code, out := sc.do("POST", "/reindex", nil)
	if code != http.StatusOK || out["embedded"] != float64(6) {
		t.Errorf("reindex: %d %v", code, out)
	}
	if st5 := sc.stats(); num(st5, "rebuilds") != 4 || num(st5, "embeddedTotal") != 7+6 {
		t.Errorf("after reindex: %v", st5)
	}
}

func TestSameStoreSameDigestAndRanking(t *testing.T) {
	s := newStore(t)
	body := map[string]any{"queries": []string{"passport photos", "revenue", "offsite"}, "limit": 50, "includeArchived": true}
	var answers []map[string]any
	for range 2 {
		res := start(t, s.path).search(body)
		delete(res, "tookMs")
		answers = append(answers, res)
	}
	if diff := cmp.Diff(answers[0], answers[1]); diff != "" {
		t.Errorf("two sidecars over one store disagree (-first +second)\n%s", diff)
	}
}

func TestBrokenStoreKeepsTheLastIndex(t *testing.T) {
	s := newStore(t)
	sc := start(t, s.path)
	if err := os.WriteFile(s.path, []byte("{ not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := hitIDs(sc.search(map[string]any{"queries": []string{"renew passport"}}), 0); got[0] != "CASE-1" {
		t.Errorf("search over the last good index: %v", got)
	}
	if st := sc.stats(); st["lastError"] == "" {
		t.Errorf("stats do not say the store is unreadable: %v", st)
	}
}

func TestForeignHostIsRefused(t *testing.T) {
	sc := start(t, newStore(t).path)
	req, _ := http.NewRequest("GET", sc.URL+"/healthz", nil)
	req.Host = "attacker.example:8008"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("foreign host: %d", resp.StatusCode)
	}
}

func TestRoutesAnswerInJSON(t *testing.T) {
	sc := start(t, newStore(t).path)
	for _, tc := range []struct {
		name, method, path string
		body               any
		status             int
		wantError          string
	}{
		{"an unknown field is ignored", "POST", "/search", `{"queries":["passport"],"rerank":true}`, 200, ""},
		{"a body that is not an object", "POST", "/search", `[]`, 400, "the request body must be a JSON object"},
		{"a body over 1 MiB", "POST", "/search", `{"queries":["` + strings.Repeat("x", 1<<20) + `"]}`, 413, "request body is larger than 1048576 bytes"},
		{"an unknown route", "GET", "/nope", nil, 404, "no route GET /nope"},
		{"a wrong method", "GET", "/search", nil, 405, "method GET not allowed on /search"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out := sc.do(tc.method, tc.path, tc.body)
			if code != tc.status || (tc.wantError != "" && out["error"] != tc.wantError) {
				t.Errorf("%d %v, want %d %q", code, out, tc.status, tc.wantError)
			}
		})
	}
	req, _ := http.NewRequest("HEAD", sc.URL+"/healthz", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("HEAD /healthz: %d", resp.StatusCode)
	}
}
