package api_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/opsboard/opsboard/board/internal/api"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/board/internal/testkit"
	"github.com/tidwall/gjson"
)

// newSearchBoard is newBoard with a search sidecar address.
func newSearchBoard(t *testing.T, searchURL string) *board {
	t.Helper()
	return newBoard(t, func(_ *store.Config, c *api.Config) { c.SearchURL = searchURL })
}

// seedSearch fills a board with cases, tasks, messages and reminders.
func seedSearch(b *board) {
	b.t.Helper()
	b.must(201, "POST", "/api/cases", map[string]any{"title": "Renew passport", "summary": "consulate appointment before the Lisbon trip", "domain": "life",
		"tasks": []map[string]any{{"title": "Book passport photos", "detail": "two biometric photos"}}})
	b.must(201, "POST", "/api/cases", map[string]any{"title": "Quarterly revenue forecast", "summary": "finance review with the board", "status": "in_progress"})
	b.must(201, "POST", "/api/cases", map[string]any{"title": "Acme invoice dispute", "summary": "overdue invoice from Acme", "status": "waiting_for_input"})
	b.must(201, "POST", "/api/cases/CASE-3/messages", map[string]any{"source": "email", "from": "billing@acme.test", "subject": "Invoice 8812 overdue", "preview": "Please pay the Acme invoice", "body": "full text of the reminder email"})
	b.must(201, "POST", "/api/reminders", map[string]any{"title": "Pay Acme invoice", "detail": "before Friday", "caseId": "CASE-3", "labels": []string{"follow-up"}, "dueAt": "2030-01-10"})
	b.must(201, "POST", "/api/reminders", map[string]any{"title": "Passport photo pickup", "domain": "life", "status": "dismissed"})
}

func idsOf(hits gjson.Result) []string {
	out := []string{}
	for _, h := range hits.Array() {
		out = append(out, h.Get("id").String())
	}
	return out
}

// closedURL is an address where nothing listens.
func closedURL(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr
}

func TestSearchGetIsASubstringScan(t *testing.T) {
	var calls atomic.Int64
	sidecar := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { calls.Add(1) }))
	defer sidecar.Close()
	b := newSearchBoard(t, sidecar.URL)
	seedSearch(b)

	got := b.must(200, "GET", "/api/search?q=ACME", nil)
	if diff := idsOf(got.Get("cases")); !slices.Equal(diff, []string{"CASE-3"}) {
		t.Errorf("cases %v", diff)
	}
	if got.Get("messages.0.id").String() != "M-1" || got.Get("reminders.0.id").String() != "REM-1" || len(got.Get("tasks").Array()) != 0 {
		t.Errorf("scan: %s", got.Raw)
	}
	got = b.must(200, "GET", "/api/search?q=biometric", nil)
	if got.Get("tasks.0.caseId").String() != "CASE-1" || got.Get("tasks.0.task.title").String() != "Book passport photos" {
		t.Errorf("task shape: %s", got.Raw)
	}
	if got := b.must(200, "GET", "/api/search?q=reminder%20email", nil); got.Get("messages.0.id").String() != "M-1" {
		t.Errorf("message bodies are scanned: %s", got.Raw)
	}
	for _, path := range []string{"/api/search", "/api/search?q=", "/api/search?q=%20%20"} {
		if got := b.must(200, "GET", path, nil); strings.TrimSpace(got.Raw) != `{"cases":[],"tasks":[],"messages":[],"reminders":[]}` {
			t.Errorf("%s: %s", path, got.Raw)
		}
	}
	if calls.Load() != 0 {
		t.Errorf("GET called the sidecar %d times", calls.Load())
	}
}

func checkKeywordEnvelope(t *testing.T, got gjson.Result) {
	t.Helper()
	if got.Get("engine").String() != "keyword" || got.Get("embedder").String() != "none" || got.Get("indexedDigest").String() != "" || !got.Get("tookMs").Exists() {
		t.Fatalf("keyword envelope: %s", got.Raw)
	}
	for _, r := range got.Get("results").Array() {
		for _, h := range r.Get("hits").Array() {
			if h.Get("cosine").Float() != 0 || h.Get("why").Raw != `["keyword"]` || h.Get("score").Float() <= 0 {
				t.Errorf("keyword hit %s", h.Raw)
			}
		}
	}
}

func TestSearchWithoutSidecarFallsBackToKeyword(t *testing.T) {
	for name, url := range map[string]string{"not configured": "", "nothing listening": closedURL(t)} {
		t.Run(name, func(t *testing.T) {
			b := newSearchBoard(t, url)
			seedSearch(b)
			got := b.must(200, "POST", "/api/search", map[string]any{"queries": []string{"acme invoice", "CASE-1"}}, agent...)
			checkKeywordEnvelope(t, got)
			r0 := got.Get("results.0")
			if r0.Get("query").String() != "acme invoice" || !slices.Contains(idsOf(r0.Get("hits"))[:3], "CASE-3") {
				t.Errorf("acme invoice: %s", r0.Raw)
			}
			if first := got.Get("results.1.hits.0"); first.Get("id").String() != "CASE-1" || first.Get("score").Float() < 8 {
				t.Errorf("exact id first, boosted: %s", first.Raw)
			}
			merged := got.Get("merged")
			if !slices.Contains(idsOf(merged.Get("cases")), "CASE-3") || merged.Get("messages.0.body").String() == "" || merged.Get("reminders.0.id").String() != "REM-1" {
				t.Errorf("merged: %s", merged.Raw)
			}
		})
	}
}

func TestSearchHitShapes(t *testing.T) {
	b := newSearchBoard(t, "")
	seedSearch(b)
	b.must(201, "POST", "/api/cases", map[string]any{"title": "Old acme contract"})
	b.must(200, "POST", "/api/cases/CASE-4/merge", map[string]any{"targetId": "CASE-3"})
	b.must(201, "POST", "/api/cases", map[string]any{"title": "Acme archive box"})
	b.must(200, "DELETE", "/api/cases/CASE-5", nil)

	got := b.must(200, "POST", "/api/search", map[string]any{"q": "acme", "k": 50, "includeArchived": true})
	hits := map[string]gjson.Result{}
	for _, h := range got.Get("results.0.hits").Array() {
		hits[h.Get("id").String()] = h
	}
	rem := hits["REM-1"]
	if rem.Get("type").String() != "reminder" || rem.Get("caseId").String() != "CASE-3" ||
		rem.Get("reminder").Raw != `{"id":"REM-1","title":"Pay Acme invoice","status":"open","dueAt":"2030-01-10","domain":null,"caseId":"CASE-3","labels":["follow-up"],"detail":"before Friday"}` {
		t.Errorf("reminder hit %s", rem.Raw)
	}
	if m := hits["M-1"]; m.Get("caseId").String() != "CASE-3" || m.Get("message.subject").String() != "Invoice 8812 overdue" || m.Get("message.body").Exists() || m.Get("snippet").String() == "" {
		t.Errorf("message hit %s", m.Raw)
	}
	if c := hits["CASE-4"]; c.Get("case.mergedInto").String() != "CASE-3" || c.Get("case.archivedAt").String() == "" {
		t.Errorf("merged case hit must say where it went: %s", c.Raw)
	}
	if c := hits["CASE-5"]; c.Get("case.archivedAt").String() == "" || c.Get("caseId").String() != "CASE-5" {
		t.Errorf("archived case hit must say so: %s", c.Raw)
	}
	got = b.must(200, "POST", "/api/search", map[string]any{"q": "biometric photos"})
	if task := got.Get("results.0.hits.0"); task.Get("id").String() != "CASE-1::CASE-1-T1" || task.Get("caseId").String() != "CASE-1" ||
		task.Get("task.id").String() != "CASE-1-T1" || task.Get("task.caseTitle").String() != "Renew passport" {
		t.Errorf("task hit %s", task.Raw)
	}
	if m := got.Get("merged.tasks.0"); m.Get("caseId").String() != "CASE-1" || m.Get("task.id").String() != "CASE-1-T1" {
		t.Errorf("merged task %s", m.Raw)
	}
	if n := len(got.Get("results.0.hits.0.why").Array()); n != 1 {
		t.Errorf("why %s", got.Get("results.0.hits.0.why").Raw)
	}
	if got := b.must(200, "POST", "/api/search", map[string]any{"q": "Renew passport", "k": 50}); !got.Get(`results.0.hits.#(id=="CASE-1")`).Exists() {
		t.Errorf("no hit for the title: %s", got.Raw)
	}
	gotNull := b.must(200, "POST", "/api/search", map[string]any{"q": "photo pickup"})
	if h := gotNull.Get(`results.0.hits.#(id=="REM-2")`); h.Get("caseId").Type != gjson.Null || h.Get("reminder.caseId").Type != gjson.Null || h.Get("reminder.status").String() != "dismissed" {
		t.Errorf("a dismissed, unlinked reminder is found with null caseId: %s", h.Raw)
	}
}

func TestSearchPostRules(t *testing.T) {
	var calls atomic.Int64
	sidecar := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer sidecar.Close()
	b := newSearchBoard(t, sidecar.URL)
	seedSearch(b)
	search := func(body map[string]any) gjson.Result {
		t.Helper()
		return b.must(200, "POST", "/api/search", body)
	}
	sorted := func(r gjson.Result) []string {
		out := idsOf(r)
		slices.Sort(out)
		return out
	}

	for _, body := range []any{
		map[string]any{}, // no queries
		map[string]any{"queries": []string{"", "   "}}, // only empty queries
		map[string]any{"q": "  "},                      // blank q
		map[string]any{"q": "x", "types": []string{"event"}},
		map[string]any{"q": "x", "domain": "home"},
		map[string]any{"q": "x", "status": "open"},
		map[string]any{"queries": []int{1}},  // queries not strings
		map[string]any{"q": "x", "limit": 3}, // unknown field
		"null",
	} {
		b.fails(400, "", "POST", "/api/search", body)
	}
	b.fails(400, "query", "POST", "/api/search", map[string]any{"queries": []string{" "}})

	// q is wrapped; queries win over it; the first 32 are kept, trimmed,
	// and empties dropped.
	if got := search(map[string]any{"q": "  acme  "}); got.Get("results.#").Int() != 1 || got.Get("results.0.query").String() != "acme" {
		t.Errorf("q: %s", got.Get("results").Raw)
	}
	many := make([]string, 40)
	for i := range many {
		many[i] = fmt.Sprintf(" q%d ", i)
	}
	many[3] = " "
	got := search(map[string]any{"queries": many, "q": "ignored"})
	if n := got.Get("results.#").Int(); n != 31 || got.Get("results.0.query").String() != "q0" || got.Get("results.30.query").String() != "q31" {
		t.Errorf("queries clamp: %d results, %s", n, got.Get("results.30.query"))
	}

	// k defaults to 10 and clamps to 1..50.
	if n := len(search(map[string]any{"q": "acme", "k": 0}).Get("results.0.hits").Array()); n != 1 {
		t.Errorf("k 0 -> %d hits", n)
	}
	for i := range 60 {
		b.must(201, "POST", "/api/reminders", map[string]any{"title": fmt.Sprintf("Acme follow-up %d", i)})
	}
	if n := len(search(map[string]any{"q": "acme"}).Get("results.0.hits").Array()); n != 10 {
		t.Errorf("default k -> %d hits", n)
	}
	if n := len(search(map[string]any{"q": "acme", "k": 5000}).Get("results.0.hits").Array()); n != 50 {
		t.Errorf("k 5000 -> %d hits", n)
	}

	// Filters.
	q := "acme invoice passport revenue photo"
	if got := sorted(search(map[string]any{"q": q, "types": []string{"case", "task"}, "k": 50}).Get("results.0.hits")); !slices.Equal(got, []string{"CASE-1", "CASE-1::CASE-1-T1", "CASE-2", "CASE-3"}) {
		t.Errorf("types: %v", got)
	}
	got = search(map[string]any{"q": q, "domain": "work", "k": 50, "types": []string{"case", "message", "reminder"}})
	if found := sorted(got.Get("results.0.hits")); slices.Contains(found, "CASE-1") || slices.Contains(found, "REM-2") || !slices.Contains(found, "M-1") || !slices.Contains(found, "REM-1") {
		t.Errorf("domain work: %v", found)
	}
	got = search(map[string]any{"q": q, "status": "in_progress", "k": 50, "types": []string{"case", "reminder", "task"}})
	if found := sorted(got.Get("results.0.hits")); !slices.Contains(found, "CASE-2") || slices.Contains(found, "CASE-1") || slices.Contains(found, "CASE-1::CASE-1-T1") || !slices.Contains(found, "REM-2") {
		t.Errorf("status: %v", found)
	}
	b.must(200, "DELETE", "/api/cases/CASE-2", nil)
	if found := idsOf(search(map[string]any{"q": "revenue forecast", "k": 50}).Get("results.0.hits")); slices.Contains(found, "CASE-2") {
		t.Errorf("archived case without includeArchived: %v", found)
	}
	if found := idsOf(search(map[string]any{"q": "revenue forecast", "includeArchived": true}).Get("results.0.hits")); len(found) == 0 || found[0] != "CASE-2" {
		t.Errorf("archived case with includeArchived: %v", found)
	}

	before := calls.Load()
	checkKeywordEnvelope(t, search(map[string]any{"q": "acme", "semantic": false}))
	if calls.Load() != before {
		t.Error("semantic false still called the sidecar")
	}
	checkKeywordEnvelope(t, search(map[string]any{"q": "acme", "actor": "agent"}))
	if calls.Load() == before {
		t.Error("the sidecar was not tried")
	}
}

func TestSearchFailsOpen(t *testing.T) {
	good := `{"engine":"semantic","embedder":"hash","dim":256,"indexedDigest":"abc","docs":1,"tookMs":1,"results":[{"query":"acme","hits":[{"id":"CASE-3","type":"case","caseId":"CASE-3","cosine":0.5}]}]}`
	handlers := map[string]http.HandlerFunc{
		"slower than 800 ms": func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-time.After(5 * time.Second):
			case <-r.Context().Done():
			}
			io.WriteString(w, good)
		},
		"non-2xx": func(w http.ResponseWriter, r *http.Request) { http.Error(w, good, http.StatusInternalServerError) },
		"cold (503)": func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, `{"error":"warming up"}`, http.StatusServiceUnavailable)
		},
		"html 200":       func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "<html><body>hello</body></html>") },
		"empty 200":      func(w http.ResponseWriter, r *http.Request) {},
		"wrong json 200": func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, `{"ok":true,"results":"many"}`) },
		"other query": func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, strings.Replace(good, `"query":"acme"`, `"query":"zzz"`, 1))
		},
		"nan cosine": func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, strings.Replace(good, `0.5`, `"NaN"`, 1))
		},
		"redirect": func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "http://example.org/", http.StatusFound)
		},
		"hang up": func(w http.ResponseWriter, r *http.Request) { panic(http.ErrAbortHandler) },
	}
	for name, h := range handlers {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(h)
			defer srv.Close()
			b := newSearchBoard(t, srv.URL)
			seedSearch(b)
			checkKeywordEnvelope(t, b.must(200, "POST", "/api/search", map[string]any{"q": "acme"}))
		})
	}
	t.Run("foreign process speaking another protocol", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				c.Write([]byte("SSH-2.0-OpenSSH_9.6\r\n\x00\x01garbage"))
				c.Close()
			}
		}()
		b := newSearchBoard(t, "http://"+ln.Addr().String())
		seedSearch(b)
		checkKeywordEnvelope(t, b.must(200, "POST", "/api/search", map[string]any{"queries": []string{"acme", "passport"}}))
	})
	t.Run("a good answer is used", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, good) }))
		defer srv.Close()
		b := newSearchBoard(t, srv.URL)
		seedSearch(b)
		got := b.must(200, "POST", "/api/search", map[string]any{"q": "acme"})
		if got.Get("engine").String() != "semantic" || got.Get("embedder").String() != "hash" || got.Get("indexedDigest").String() != "abc" {
			t.Fatalf("envelope %s", got.Raw)
		}
		if h := got.Get(`results.0.hits.#(id=="CASE-3")`); h.Get("cosine").Float() != 0.5 || !slices.Contains(strings.Split(strings.Trim(h.Get("why").Raw, "[]"), ","), `"semantic"`) {
			t.Errorf("hit %s", h.Raw)
		}
	})
}

// sidecarBinary builds the real search sidecar.
func sidecarBinary(t *testing.T) string {
	t.Helper()
	return testkit.GoBuild(t, t.TempDir(), "github.com/opsboard/opsboard/sidecar-search/cmd/sidecar-search")
}

var listening = regexp.MustCompile(`msg=search.listening url=(http://\S+)`)

// startSidecar runs the real sidecar over the board's store on a free port
// and waits until it is healthy.
func startSidecar(t *testing.T, bin, data string) string {
	t.Helper()
	cmd := exec.Command(bin, "-addr", "127.0.0.1:0", "-data", data, "-embedder", "hash")
	cmd.Env = append(os.Environ(), "SVC_SEARCH_MODEL_DIR=")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("sidecar exit: %v", err)
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Error("sidecar did not stop on interrupt")
		}
	})
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				urls <- m[1]
			}
		}
	}()
	var url string
	select {
	case url = <-urls:
	case <-time.After(30 * time.Second):
		t.Fatal("sidecar did not start listening")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		req, _ := http.NewRequestWithContext(ctx, "GET", url+"/healthz", nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return url
			}
		}
		if ctx.Err() != nil {
			t.Fatal("sidecar did not become healthy")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestSearchWithTheRealSidecar(t *testing.T) {
	bin := sidecarBinary(t)
	// The board starts first (it creates the store the sidecar reads), so
	// it points at a small forwarder that learns the sidecar's address once
	// the sidecar runs.
	var sidecarURL atomic.Pointer[string]
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u := sidecarURL.Load()
		if u == nil {
			http.Error(w, "not yet", http.StatusServiceUnavailable)
			return
		}
		req, _ := http.NewRequestWithContext(r.Context(), r.Method, *u+r.URL.Path, r.Body)
		req.Header = r.Header.Clone()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		w.WriteHeader(resp.StatusCode)
		io.Copy(w, resp.Body)
	}))
	defer front.Close()
	b := newSearchBoard(t, front.URL)
	seedSearch(b)
	url := startSidecar(t, bin, b.Store.Path())
	sidecarURL.Store(&url)

	body := map[string]any{"queries": []string{"passport renewal", "acme invoice", "CASE-2"}, "k": 5}
	got := b.must(200, "POST", "/api/search", body)
	digest := got.Get("indexedDigest").String()
	if got.Get("engine").String() != "semantic" || got.Get("embedder").String() != "hash" || len(digest) != 64 {
		t.Fatalf("envelope %s", got.Raw)
	}
	semantic := 0
	for _, r := range got.Get("results").Array() {
		for _, h := range r.Get("hits").Array() {
			if strings.Contains(h.Get("why").Raw, `"semantic"`) {
				semantic++
				if h.Get("cosine").Float() == 0 {
					t.Errorf("semantic hit without cosine: %s", h.Raw)
				}
			}
		}
	}
	if semantic == 0 {
		t.Errorf("no semantic hits: %s", got.Raw)
	}
	if first := got.Get("results.0.hits.0.id").String(); first != "CASE-1" {
		t.Errorf("passport renewal: %s first", first)
	}
	if first := got.Get("results.2.hits.0"); first.Get("id").String() != "CASE-2" || !strings.Contains(first.Get("why").Raw, "exact-id") {
		t.Errorf("exact id: %s", first.Raw)
	}

	// Same store: same digest, same ranking.
	again := b.must(200, "POST", "/api/search", body)
	if again.Get("indexedDigest").String() != digest || again.Get("results").Raw != got.Get("results").Raw {
		t.Errorf("same store, different answer:\n%s\n%s", got.Get("results").Raw, again.Get("results").Raw)
	}

	// A write is searchable semantically on the next search.
	b.must(201, "POST", "/api/cases", map[string]any{"title": "Zeppelin hangar lease", "summary": "airship storage contract"})
	got = b.must(200, "POST", "/api/search", map[string]any{"q": "airship storage", "types": []string{"case"}})
	if h := got.Get("results.0.hits.0"); h.Get("id").String() != "CASE-4" || !strings.Contains(h.Get("why").Raw, "semantic") {
		t.Errorf("new case: %s", h.Raw)
	}
	if got.Get("indexedDigest").String() == digest {
		t.Error("digest did not move after a write")
	}
}
