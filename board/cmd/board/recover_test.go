package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/testkit"
	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

// call sends one request to the daemon and returns the status and body. A
// dropped connection fails the test: no route may panic.
func (d *daemon) call(t *testing.T, method, path string, body any) (int, []byte) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, d.url+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", method, path, err, d.stderr)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the answer: %v", method, path, err)
	}
	return resp.StatusCode, raw
}

// mustCall is call for a request that has to succeed; it decodes the answer
// into out when out is not nil.
func (d *daemon) mustCall(t *testing.T, method, path string, body, out any) {
	t.Helper()
	code, raw := d.call(t, method, path, body)
	if code/100 != 2 {
		t.Fatalf("%s %s: %d %s", method, path, code, raw)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s %s: %v in %s", method, path, err, raw)
		}
	}
}

// createCase posts a case and returns it with the version that acknowledged it.
func (d *daemon) createCase(t *testing.T, in wire.CaseCreate) (*wire.Case, int64) {
	t.Helper()
	var out struct {
		Case    wire.Case `json:"case"`
		Version int64     `json:"version"`
	}
	d.mustCall(t, http.MethodPost, "/api/cases", in, &out)
	return &out.Case, out.Version
}

func (d *daemon) health(t *testing.T) wire.Health {
	t.Helper()
	var h wire.Health
	d.mustCall(t, http.MethodGet, "/api/health", nil, &h)
	return h
}

// titles lists the cases the daemon serves as "id title", sorted.
func (d *daemon) titles(t *testing.T) []string {
	t.Helper()
	return caseTitles(listCases(t, d))
}

// caseTitles lists the cases of d as "id title", sorted.
func caseTitles(d *wire.Doc) []string {
	out := []string{}
	for _, c := range d.Cases.All() {
		out = append(out, c.ID+" "+c.Title)
	}
	sort.Strings(out)
	return out
}

// readSnapshot reads a snapshot as the board writes them: a gzip-compressed
// document.
func readSnapshot(path string) (*wire.Doc, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("open snapshot %s: %w", path, err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("read snapshot %s: %w", path, err)
	}
	return storefile.Decode(raw)
}

// brokenCopies are the copies of the document the board kept aside because
// they did not parse, by file name.
func brokenCopies(t testing.TB, path string) map[string][]byte {
	t.Helper()
	matches, err := filepath.Glob(path + ".broken-*")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, m := range matches {
		data, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		out[m] = data
	}
	return out
}

// waitCompacted waits until the document on disk holds the daemon's newest
// version.
func waitCompacted(t *testing.T, d *daemon, data string) {
	t.Helper()
	v := d.health(t).Version
	testkit.Eventually(t, "the document to catch up with the journal", func() bool {
		doc, err := storefile.ReadDoc(data)
		return err == nil && doc.Version >= v
	})
}

// stopDaemon ends the daemon with SIGTERM and checks it exited cleanly.
func stopDaemon(t *testing.T, d *daemon) {
	t.Helper()
	if err := d.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-d.exited:
	case <-time.After(30 * time.Second):
		t.Fatalf("still running 30 s after SIGTERM:\n%s", d.stderr)
	}
	if d.err != nil {
		t.Fatalf("exit after SIGTERM: %v\n%s", d.err, d.stderr)
	}
}

// editRaw rewrites the document in place, as an editor saves it, through a
// generic JSON value, so an edit can put in what the board's types cannot
// hold (a number where a string belongs).
func editRaw(t *testing.T, data string, change func(m map[string]any)) []byte {
	t.Helper()
	raw, err := os.ReadFile(data)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	change(m)
	out, err := json.MarshalIndent(m, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(data, out, 0o600); err != nil {
		t.Fatal(err)
	}
	return out
}

// rawCase finds the case with id in a generic document.
func rawCase(t *testing.T, m map[string]any, id string) map[string]any {
	t.Helper()
	for _, c := range m["cases"].([]any) {
		if c := c.(map[string]any); c["id"] == id {
			return c
		}
	}
	t.Fatalf("no case %s in the document", id)
	return nil
}

// waitHandled waits until the daemon has dealt with a hand edit: it either
// loaded it (the version moved past from) or refused it (degraded).
func waitHandled(t *testing.T, d *daemon, from int64) wire.Health {
	t.Helper()
	var h wire.Health
	testkit.Eventually(t, "the hand edit to be loaded or refused", func() bool {
		h = d.health(t)
		return h.Degraded || h.Version != from
	})
	return h
}

// copiesHolding lists the copies set aside next to data that hold exactly want.
func copiesHolding(t *testing.T, data string, want []byte) []string {
	t.Helper()
	var out []string
	for name, got := range brokenCopies(t, data) {
		if bytes.Equal(got, want) {
			out = append(out, name)
		}
	}
	return out
}

// snapshotsIn lists the snapshot files beside data.
func snapshotsIn(t *testing.T, data string) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(filepath.Dir(data), "snapshots", "board-*.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(names)
	return names
}

var snapVersionOf = regexp.MustCompile(`-v(\d+)\.json\.gz$`)

// newestSnapshotVersion is the highest version among the snapshot files.
func newestSnapshotVersion(t *testing.T, data string) int64 {
	t.Helper()
	var v int64
	for _, n := range snapshotsIn(t, data) {
		if m := snapVersionOf.FindStringSubmatch(n); m != nil {
			x, _ := strconv.ParseInt(m[1], 10, 64)
			v = max(v, x)
		}
	}
	return v
}

// forceSnapshot makes the daemon take a snapshot now: a clean of a case
// created for it (changed after any snapshot, so the clean needs one).
func forceSnapshot(t *testing.T, d *daemon, data string) {
	t.Helper()
	c, v := d.createCase(t, wire.CaseCreate{Title: "made to be cleaned", Status: "done"})
	d.mustCall(t, http.MethodPost, "/api/cases/clean", wire.CaseClean{IDs: []string{c.ID}}, nil)
	if got := newestSnapshotVersion(t, data); got < v {
		t.Fatalf("no snapshot at or after v%d (newest v%d)", v, got)
	}
}

// journalHolds reports whether any journal entry writes the case id.
func journalHolds(t *testing.T, data, id string) bool {
	t.Helper()
	entries, _, err := storefile.ReadJournalFile(storefile.JournalPath(data))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		for _, c := range e.Cases {
			if c.ID == id {
				return true
			}
		}
	}
	return false
}

// staleCopyOutOfTheJournal drives a fresh daemon to the state a stale hand
// save is dangerous in: a copy of the document taken earlier, and writes
// acknowledged after it that the journal no longer holds (a snapshot let the
// journal be trimmed past them).
func staleCopyOutOfTheJournal(t *testing.T, d *daemon, data string) (stale []byte, after *wire.Case) {
	t.Helper()
	for i := 0; i < 3; i++ {
		d.createCase(t, wire.CaseCreate{Title: fmt.Sprintf("before the copy %d", i)})
	}
	waitCompacted(t, d, data)
	stale, err := os.ReadFile(data)
	if err != nil {
		t.Fatal(err)
	}
	after, _ = d.createCase(t, wire.CaseCreate{Title: "acknowledged after the copy"})
	forceSnapshot(t, d, data)
	testkit.Eventually(t, "the journal to be trimmed past the write after the copy", func() bool {
		return !journalHolds(t, data, after.ID)
	})
	return stale, after
}

// probe sends one request and reports the status, or the error when the
// daemon dropped the connection instead of answering.
func (d *daemon) probe(method, path string, body any) (int, error) {
	var rd io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return 0, err
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, d.url+path, rd)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if _, err := io.ReadAll(resp.Body); err != nil {
		return 0, err
	}
	return resp.StatusCode, nil
}

// readRoutesAnswer asks every read route, the tree under each served node
// and both searches, and fails on a 5xx or a dropped connection.
func readRoutesAnswer(t *testing.T, d *daemon, queries ...string) {
	t.Helper()
	paths := []string{
		"/api/health", "/api/cases", "/api/cases?includeArchived=true", "/api/tree", "/api/tree?includeArchived=1",
		"/api/activity", "/api/messages", "/api/unread-count", "/api/labels", "/api/labels/bundles", "/api/events",
		"/api/events.ics", "/api/reminders", "/api/priorities", "/api/pending", "/api/prefs", "/api/views", "/api/templates",
	}
	for _, c := range listCases(t, d).Cases.All() {
		paths = append(paths, "/api/tree?rootId="+c.ID, "/api/cases/"+c.ID)
	}
	for _, q := range queries {
		paths = append(paths, "/api/search?q="+q)
	}
	for _, p := range paths {
		if code, err := d.probe(http.MethodGet, p, nil); err != nil || code >= 500 {
			t.Errorf("GET %s: %d %v", p, code, err)
		}
	}
	for _, semantic := range []bool{false, true} {
		body := map[string]any{"queries": queries, "semantic": semantic}
		if code, err := d.probe(http.MethodPost, "/api/search", body); err != nil || code != http.StatusOK {
			t.Errorf("POST /api/search %v: %d %v", body, code, err)
		}
	}
}

// treeIDs lists every node of the tree the daemon serves, at any depth.
func treeIDs(t *testing.T, d *daemon) []string {
	t.Helper()
	var reply wire.TreeReply
	d.mustCall(t, http.MethodGet, "/api/tree?includeArchived=1", nil, &reply)
	var out []string
	var walk func(ns []*wire.TreeNode, depth int)
	walk = func(ns []*wire.TreeNode, depth int) {
		if depth > 10 {
			t.Fatalf("the tree is deeper than any valid one: a cycle was followed")
		}
		for _, n := range ns {
			out = append(out, n.ID)
			walk(n.Children, depth+1)
		}
	}
	walk(reply.Tree, 0)
	sort.Strings(out)
	return out
}

// caseIDs lists the ids of the cases the daemon serves, sorted.
func caseIDs(t *testing.T, d *daemon) []string {
	t.Helper()
	var out []string
	for _, c := range listCases(t, d).Cases.All() {
		out = append(out, c.ID)
	}
	sort.Strings(out)
	return out
}

// hierarchyFixture creates an initiative holding two workstreams, a case in
// the first, and a top-level case.
func hierarchyFixture(t *testing.T, d *daemon) (ini, ws1, ws2, leaf, top *wire.Case) {
	t.Helper()
	ini, _ = d.createCase(t, wire.CaseCreate{Title: "an initiative", Kind: "initiative"})
	ws1, _ = d.createCase(t, wire.CaseCreate{Title: "first workstream", Kind: "workstream", ParentID: ini.ID})
	ws2, _ = d.createCase(t, wire.CaseCreate{Title: "second workstream", Kind: "workstream", ParentID: ini.ID})
	leaf, _ = d.createCase(t, wire.CaseCreate{Title: "a case in the first", ParentID: ws1.ID})
	top, _ = d.createCase(t, wire.CaseCreate{Title: "a top-level case"})
	return
}

// TestDaemonRecovery runs the real board binary against documents a person
// or a failing disk can leave behind: each must neither lose an acknowledged
// write silently nor take the board dark.
func TestDaemonRecovery(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the daemon")
	}

	t.Run("a stale hand save while running never undoes acknowledged writes", func(t *testing.T) {
		data := filepath.Join(t.TempDir(), "board.json")
		d := spawn(t, data, nil)
		d.ready(t)
		stale, after := staleCopyOutOfTheJournal(t, d, data)
		want := d.titles(t)
		from := d.health(t).Version
		if err := os.WriteFile(data, stale, 0o600); err != nil {
			t.Fatal(err)
		}
		h := waitHandled(t, d, from)
		if diff := cmp.Diff(want, d.titles(t)); diff != "" {
			t.Errorf("served cases after the stale save (-want +got)\n%s", diff)
		}
		if !h.Degraded || !strings.Contains(strings.Join(h.Problems, " "), "older") {
			t.Errorf("health %+v, want degraded saying the file is older than the board", h)
		}
		if len(copiesHolding(t, data, stale)) != 1 {
			t.Errorf("the stale file was not copied aside")
		}
		// The acknowledged write survives a restart too.
		stopDaemon(t, d)
		d = spawn(t, data, nil)
		d.ready(t)
		if diff := cmp.Diff(want, d.titles(t)); diff != "" {
			t.Errorf("served cases after a restart on the stale file (-want +got)\n%s", diff)
		}
		if got := d.titles(t); !strings.Contains(strings.Join(got, "\n"), after.ID+" "+after.Title) {
			t.Errorf("%s is gone", after.ID)
		}
	})

	t.Run("a stale hand save while down never undoes acknowledged writes", func(t *testing.T) {
		data := filepath.Join(t.TempDir(), "board.json")
		d := spawn(t, data, nil)
		d.ready(t)
		stale, _ := staleCopyOutOfTheJournal(t, d, data)
		want := d.titles(t)
		acked := d.health(t).Version
		stopDaemon(t, d)
		if err := os.WriteFile(data, stale, 0o600); err != nil {
			t.Fatal(err)
		}
		d = spawn(t, data, nil)
		h := d.ready(t)
		if diff := cmp.Diff(want, d.titles(t)); diff != "" {
			t.Errorf("served cases after a start on the stale file (-want +got)\n%s", diff)
		}
		if v := int64(h["version"].(float64)); v < acked {
			t.Errorf("started at version %d, below the acknowledged %d", v, acked)
		}
		if h["degraded"] != true || !strings.Contains(fmt.Sprint(h["problems"]), "older") {
			t.Errorf("health %v, want degraded saying the file is older than the board", h)
		}
		if got, _ := os.ReadFile(data); !bytes.Equal(got, stale) {
			t.Errorf("the stale file was replaced; it stays for the person to look at")
		}
		if len(copiesHolding(t, data, stale)) != 1 {
			t.Errorf("the stale file was not copied aside")
		}
	})
	t.Run("a document the board cannot read stops the start with a clear message", func(t *testing.T) {
		data := filepath.Join(t.TempDir(), "board.json")
		d := spawn(t, data, nil)
		d.ready(t)
		d.createCase(t, wire.CaseCreate{Title: "written before the disk went bad"})
		want := d.titles(t)
		stopDaemon(t, d)
		journal, err := os.ReadFile(storefile.JournalPath(data))
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			name  string
			spoil func(t *testing.T) (adjust func(*exec.Cmd), undo func())
		}{
			{"permission denied", func(t *testing.T) (func(*exec.Cmd), func()) { return unreadableTo(t, data) }},
			{"a read error (a directory in its place)", func(t *testing.T) (func(*exec.Cmd), func()) {
				if err := os.Rename(data, data+".saved"); err != nil {
					t.Fatal(err)
				}
				if err := os.Mkdir(data, 0o700); err != nil {
					t.Fatal(err)
				}
				return nil, func() {
					os.Remove(data)
					os.Rename(data+".saved", data)
				}
			}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				adjust, undo := tc.spoil(t)
				d := spawn(t, data, adjust)
				select {
				case <-d.exited:
				case <-time.After(30 * time.Second):
					t.Fatalf("the board started on a document it cannot read:\n%s", d.stderr)
				}
				var exit *exec.ExitError
				if !errors.As(d.err, &exit) || exit.ExitCode() == 0 {
					t.Errorf("exit %v, want a non-zero status", d.err)
				}
				if msg := d.stderr.String(); !strings.Contains(msg, "cannot read "+data) {
					t.Errorf("the board said %q, want it to name the document it cannot read", msg)
				}
				undo()
				if copies := brokenCopies(t, data); len(copies) > 0 {
					t.Errorf("an unreadable document was treated as a broken one: %v", copies)
				}
				if got, _ := os.ReadFile(storefile.JournalPath(data)); !bytes.Equal(got, journal) {
					t.Errorf("the journal changed")
				}
				d = spawn(t, data, nil)
				if h := d.ready(t); h["degraded"] == true {
					t.Errorf("degraded once the document reads again: %v", h["problems"])
				}
				if diff := cmp.Diff(want, d.titles(t)); diff != "" {
					t.Errorf("cases once the document reads again (-want +got)\n%s", diff)
				}
				stopDaemon(t, d)
			})
		}
	})
	t.Run("a hand edit that breaks the hierarchy is refused while running", func(t *testing.T) {
		data := filepath.Join(t.TempDir(), "board.json")
		d := spawn(t, data, nil)
		d.ready(t)
		ini, ws1, _, _, top := hierarchyFixture(t, d)
		for _, tc := range []struct {
			name string
			edit func(m map[string]any)
			say  string // the health problem names this
		}{
			{"a parentId cycle", func(m map[string]any) { rawCase(t, m, ini.ID)["parentId"] = ws1.ID }, ini.ID},
			{"a self-parent", func(m map[string]any) { rawCase(t, m, top.ID)["parentId"] = top.ID }, top.ID},
			{"duplicate ids", func(m map[string]any) {
				dup := map[string]any{}
				for k, v := range rawCase(t, m, top.ID) {
					dup[k] = v
				}
				dup["title"] = "a second record under the same id"
				m["cases"] = append(m["cases"].([]any), dup)
			}, top.ID},
			{"an empty id", func(m map[string]any) {
				m["cases"] = append(m["cases"].([]any), map[string]any{"id": "", "title": "nameless", "kind": "case", "status": "todo", "domain": "work"})
			}, "empty id"},
			{"a wrong-typed field", func(m map[string]any) { rawCase(t, m, top.ID)["title"] = 5 }, "does not parse"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				waitCompacted(t, d, data)
				good, err := os.ReadFile(data)
				if err != nil {
					t.Fatal(err)
				}
				want, wantTree := d.titles(t), treeIDs(t, d)
				from := d.health(t).Version
				edited := editRaw(t, data, tc.edit)
				h := waitHandled(t, d, from)
				if !h.Degraded || !strings.Contains(strings.Join(h.Problems, " "), tc.say) {
					t.Errorf("health %+v, want degraded naming %q", h, tc.say)
				}
				if len(copiesHolding(t, data, edited)) != 1 {
					t.Errorf("the edit was not copied aside")
				}
				if diff := cmp.Diff(want, d.titles(t)); diff != "" {
					t.Errorf("served cases changed (-want +got)\n%s", diff)
				}
				if diff := cmp.Diff(wantTree, treeIDs(t, d)); diff != "" {
					t.Errorf("served tree changed (-want +got)\n%s", diff)
				}
				readRoutesAnswer(t, d, "nameless", top.ID)
				// Writes go on meanwhile; putting the file right clears it.
				c, cv := d.createCase(t, wire.CaseCreate{Title: "written while the edit is refused"})
				if err := os.WriteFile(data, good, 0o600); err != nil {
					t.Fatal(err)
				}
				testkit.Eventually(t, "the repaired file to be picked up", func() bool {
					h := d.health(t)
					return !h.Degraded && h.Version > cv
				})
				if got := strings.Join(d.titles(t), "\n"); !strings.Contains(got, c.ID+" "+c.Title) {
					t.Errorf("%s, written while the edit was refused, is gone", c.ID)
				}
			})
		}
	})

	t.Run("a document that breaks the hierarchy at start loads, degraded, and every read route answers", func(t *testing.T) {
		data := filepath.Join(t.TempDir(), "board.json")
		d := spawn(t, data, nil)
		d.ready(t)
		_, ws1, ws2, leaf, top := hierarchyFixture(t, d)
		stopDaemon(t, d)
		editRaw(t, data, func(m map[string]any) {
			rawCase(t, m, ws1.ID)["parentId"] = ws2.ID // a cycle of two workstreams
			rawCase(t, m, ws2.ID)["parentId"] = ws1.ID
			rawCase(t, m, top.ID)["parentId"] = top.ID
			dup := map[string]any{}
			for k, v := range rawCase(t, m, leaf.ID) {
				dup[k] = v
			}
			dup["title"] = "a second record under the same id"
			m["cases"] = append(m["cases"].([]any), dup, map[string]any{"id": "", "title": "nameless", "kind": "case", "status": "todo", "domain": "work"})
			// Records of the other collections without an id, or pointing
			// at nodes that are not where they should be.
			m["messages"] = []any{map[string]any{"id": "", "subject": "nameless mail", "caseId": ws1.ID}, map[string]any{"id": "M-1", "subject": "mail", "caseId": top.ID}}
			m["reminders"] = []any{map[string]any{"id": "", "title": "nameless reminder", "caseId": ws2.ID, "tasks": []any{map[string]any{"id": "", "title": "t"}}}}
			m["events"] = []any{map[string]any{"id": "", "title": "nameless event", "date": "2026-03-01", "caseId": ws1.ID}}
			m["priorities"] = []any{map[string]any{"id": "", "text": "nameless priority", "caseId": ws1.ID}}
		})
		d = spawn(t, data, nil)
		h := d.ready(t)
		msg := fmt.Sprint(h["problems"])
		if h["degraded"] != true {
			t.Errorf("health %v, want degraded", h)
		}
		for _, id := range []string{ws1.ID, ws2.ID, top.ID, leaf.ID, "empty id"} {
			if !strings.Contains(msg, id) {
				t.Errorf("health problems %s do not name %s", msg, id)
			}
		}
		// Every node is on the page: the ones whose parent cannot hold them
		// show as detached, none is hidden.
		if diff := cmp.Diff(caseIDs(t, d), treeIDs(t, d)); diff != "" {
			t.Errorf("nodes missing from the tree (-cases +tree)\n%s", diff)
		}
		readRoutesAnswer(t, d, "nameless", leaf.ID, "workstream")
		if _, v := d.createCase(t, wire.CaseCreate{Title: "writes go on"}); v == 0 {
			t.Error("no version for a write")
		}
		stopDaemon(t, d)
	})
	t.Run("a hand-edited version or id counter that would overflow is refused", func(t *testing.T) {
		data := filepath.Join(t.TempDir(), "board.json")
		d := spawn(t, data, nil)
		d.ready(t)
		d.createCase(t, wire.CaseCreate{Title: "one"})
		for _, tc := range []struct {
			name string
			edit func(m map[string]any)
		}{
			{"version", func(m map[string]any) { m["version"] = int64(math.MaxInt64) }},
			{"id counter", func(m map[string]any) { m["counters"].(map[string]any)["CASE"] = int64(math.MaxInt64) }},
		} {
			t.Run(tc.name, func(t *testing.T) {
				waitCompacted(t, d, data)
				good, err := os.ReadFile(data)
				if err != nil {
					t.Fatal(err)
				}
				from := d.health(t).Version
				editRaw(t, data, tc.edit)
				h := waitHandled(t, d, from)
				c, v := d.createCase(t, wire.CaseCreate{Title: "after the edit"})
				if v <= from || v > 1<<53 {
					t.Errorf("a write after the edit got version %d, want just above %d", v, from)
				}
				if n, err := strconv.ParseInt(strings.TrimPrefix(c.ID, "CASE-"), 10, 64); err != nil || n <= 0 || n > 1<<53 {
					t.Errorf("minted %s after the edit", c.ID)
				}
				if !h.Degraded || !strings.Contains(strings.Join(h.Problems, " "), "outside") {
					t.Errorf("health %+v, want degraded saying the number is out of range", h)
				}
				if err := os.WriteFile(data, good, 0o600); err != nil {
					t.Fatal(err)
				}
				testkit.Eventually(t, "the repaired file to be picked up", func() bool {
					h := d.health(t)
					return !h.Degraded && h.Version > v
				})
			})
		}
		// The same at start: the board starts from the newest snapshot and
		// the journal, degraded, and counts on from where it was.
		want := d.titles(t)
		acked := d.health(t).Version
		stopDaemon(t, d)
		editRaw(t, data, func(m map[string]any) { m["version"] = int64(math.MaxInt64) })
		d = spawn(t, data, nil)
		h := d.ready(t)
		if h["degraded"] != true || !strings.Contains(fmt.Sprint(h["problems"]), "outside") {
			t.Errorf("health %v, want degraded saying the version is out of range", h)
		}
		if diff := cmp.Diff(want, d.titles(t)); diff != "" {
			t.Errorf("served cases (-want +got)\n%s", diff)
		}
		if _, v := d.createCase(t, wire.CaseCreate{Title: "after the start"}); v <= acked || v > 1<<53 {
			t.Errorf("a write after the start got version %d, want just above %d", v, acked)
		}
		stopDaemon(t, d)
	})
	t.Run("a clean takes a safety snapshot only when the newest one lacks what it removes", func(t *testing.T) {
		data := filepath.Join(t.TempDir(), "board.json")
		d := spawn(t, data, nil)
		d.ready(t)
		clean := func(id string) {
			t.Helper()
			d.mustCall(t, http.MethodPost, "/api/cases/clean", wire.CaseClean{IDs: []string{id}}, nil)
		}
		old, _ := d.createCase(t, wire.CaseCreate{Title: "finished before the snapshot", Status: "done"})
		mailed, _ := d.createCase(t, wire.CaseCreate{Title: "finished, mail came later", Status: "done"})
		forceSnapshot(t, d, data)
		n := len(snapshotsIn(t, data))
		d.createCase(t, wire.CaseCreate{Title: "a write the clean does not touch"})

		clean(old.ID)
		if got := len(snapshotsIn(t, data)); got != n {
			t.Errorf("%d snapshots after cleaning a case the newest snapshot holds as it was, want %d", got, n)
		}

		// A message linked after the snapshot goes with its case: the
		// snapshot lacks it, so the clean takes one.
		d.mustCall(t, http.MethodPost, "/api/cases/"+mailed.ID+"/messages", wire.MessageInput{Subject: "arrived after the snapshot", From: "a@example.com"}, nil)
		clean(mailed.ID)
		if got := len(snapshotsIn(t, data)); got != n+1 {
			t.Errorf("%d snapshots after cleaning a case whose mail the snapshot lacks, want %d", got, n+1)
		}

		// A case changed since the newest snapshot needs one, holding it as
		// it was when it was removed.
		fresh, _ := d.createCase(t, wire.CaseCreate{Title: "finished after the snapshot", Status: "done"})
		clean(fresh.ID)
		snaps := snapshotsIn(t, data)
		if len(snaps) != n+2 {
			t.Fatalf("%d snapshots after cleaning a case changed since the newest, want %d", len(snaps), n+2)
		}
		newest := snaps[0]
		for _, n := range snaps {
			if snapVersionOf.FindStringSubmatch(n)[1] == strconv.FormatInt(newestSnapshotVersion(t, data), 10) {
				newest = n
			}
		}
		snap, err := readSnapshot(newest)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(strings.Join(caseTitles(snap), "\n"), fresh.ID+" "+fresh.Title) {
			t.Errorf("the newest snapshot lacks %s: %v", fresh.ID, caseTitles(snap))
		}
		for _, id := range []string{old.ID, mailed.ID, fresh.ID} {
			if strings.Contains(strings.Join(d.titles(t), "\n"), id+" ") {
				t.Errorf("%s was not cleaned", id)
			}
		}
	})
	t.Run("restore puts a snapshot back, keeps what it replaces and counts on", func(t *testing.T) {
		data := filepath.Join(t.TempDir(), "board.json")
		dir := filepath.Dir(data)
		d := spawn(t, data, nil)
		d.ready(t)
		a, _ := d.createCase(t, wire.CaseCreate{Title: "in the snapshot"})
		forceSnapshot(t, d, data)
		snapV := newestSnapshotVersion(t, data)
		var snapFile string
		for _, n := range snapshotsIn(t, data) {
			if strings.HasSuffix(n, fmt.Sprintf("-v%d.json.gz", snapV)) {
				snapFile = n
			}
		}
		d.mustCall(t, http.MethodPatch, "/api/cases/"+a.ID, map[string]any{"title": "renamed after the snapshot"}, nil)
		lost1, _ := d.createCase(t, wire.CaseCreate{Title: "after the snapshot"})
		lost2, acked := d.createCase(t, wire.CaseCreate{Title: "also after the snapshot"})
		restore := func(args ...string) (string, error) {
			cmd := exec.Command(boardBin, append([]string{"restore"}, args...)...)
			cmd.Env = append(os.Environ(), "SVC_BOARD_DATA="+data)
			out, err := cmd.CombinedOutput()
			return string(out), err
		}
		files := func() map[string][]byte {
			out := map[string][]byte{}
			for _, p := range []string{data, storefile.JournalPath(data)} {
				out[p], _ = os.ReadFile(p)
			}
			return out
		}

		// The dry run, even while the board runs, writes nothing and says
		// what the snapshot holds and what would be lost.
		before := files()
		out, err := restore(snapFile)
		if err != nil {
			t.Fatalf("dry run: %v\n%s", err, out)
		}
		for _, want := range []string{fmt.Sprintf("version %d", snapV), "dry run", lost1.ID, lost2.ID, a.ID, "--apply"} {
			if !strings.Contains(strings.ToLower(out), strings.ToLower(want)) {
				t.Errorf("dry run output lacks %q:\n%s", want, out)
			}
		}
		if diff := cmp.Diff(before, files()); diff != "" {
			t.Errorf("the dry run changed files")
		}

		// --apply refuses while a board holds the lock.
		out, err = restore("--apply", snapFile)
		if err == nil || !strings.Contains(out, "running") {
			t.Errorf("--apply while the board runs: %v\n%s", err, out)
		}
		if diff := cmp.Diff(before, files()); diff != "" {
			t.Errorf("the refused restore changed files")
		}

		stopDaemon(t, d)
		stopped := files()
		out, err = restore("--apply", snapFile)
		if err != nil {
			t.Fatalf("--apply: %v\n%s", err, out)
		}
		asides, _ := filepath.Glob(filepath.Join(dir, "pre-restore-*"))
		if len(asides) != 1 {
			t.Fatalf("pre-restore directories %v, want one", asides)
		}
		for p, want := range stopped {
			if got, err := os.ReadFile(filepath.Join(asides[0], filepath.Base(p))); err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s was not moved aside whole (%v)", filepath.Base(p), err)
			}
		}

		held, err := readSnapshot(snapFile)
		if err != nil {
			t.Fatal(err)
		}
		want := caseTitles(held) // with a.ID as it was then
		d = spawn(t, data, nil)
		h := d.ready(t)
		if diff := cmp.Diff(want, d.titles(t)); diff != "" {
			t.Errorf("cases after the restore (-want +got)\n%s", diff)
		}
		if v := int64(h["version"].(float64)); v <= acked {
			t.Errorf("version %d after the restore, want above the acknowledged %d", v, acked)
		}
		if h["degraded"] == true {
			t.Errorf("degraded after the restore: %v", h["problems"])
		}
		next, _ := d.createCase(t, wire.CaseCreate{Title: "after the restore"})
		for _, used := range []string{lost1.ID, lost2.ID} {
			if next.ID == used {
				t.Errorf("minted %s again after the restore", used)
			}
		}
		// The journal of the old state does not come back at the next start.
		d.kill()
		d = spawn(t, data, nil)
		d.ready(t)
		want = append(want, next.ID+" after the restore")
		sort.Strings(want)
		if diff := cmp.Diff(want, d.titles(t)); diff != "" {
			t.Errorf("cases after a restart (-want +got)\n%s", diff)
		}
		stopDaemon(t, d)
	})
	t.Run("a document that becomes unreadable while the board runs is reported", func(t *testing.T) {
		data := filepath.Join(t.TempDir(), "board.json")
		d := spawn(t, data, nil)
		d.ready(t)
		d.createCase(t, wire.CaseCreate{Title: "one"})
		waitCompacted(t, d, data)
		stopDaemon(t, d)
		// The daemon runs as a user the document can be taken from.
		adjust, _ := unreadableTo(t, data)
		if adjust != nil {
			if err := os.Lchown(data, 65534, 65534); err != nil {
				t.Fatal(err)
			}
		} else {
			os.Chmod(data, 0o600)
		}
		d = spawn(t, data, adjust)
		d.ready(t)
		good, err := os.ReadFile(data)
		if err != nil {
			t.Fatal(err)
		}
		// Someone saves the file and leaves it unreadable to the board.
		if err := os.WriteFile(data, append(bytes.Clone(good), '\n'), 0o600); err != nil {
			t.Fatal(err)
		}
		if adjust != nil {
			err = os.Lchown(data, 0, 0)
		} else {
			err = os.Chmod(data, 0)
		}
		if err != nil {
			t.Fatal(err)
		}
		testkit.Eventually(t, "health to report the unreadable document", func() bool { return d.health(t).Degraded })
		if msg := strings.Join(d.health(t).Problems, " "); !strings.Contains(msg, "cannot be read") {
			t.Errorf("health %q does not say the document cannot be read", msg)
		}
		c, _ := d.createCase(t, wire.CaseCreate{Title: "written while the document is unreadable"})
		if adjust != nil {
			err = os.Lchown(data, 65534, 65534)
		} else {
			err = os.Chmod(data, 0o600)
		}
		if err != nil {
			t.Fatal(err)
		}
		testkit.Eventually(t, "the readable document to be picked up", func() bool { return !d.health(t).Degraded })
		if got := strings.Join(d.titles(t), "\n"); !strings.Contains(got, c.ID+" "+c.Title) {
			t.Errorf("%s is gone: %s", c.ID, got)
		}
	})
}

// unreadableTo makes the document unreadable to the daemon while everything
// else in its directory stays usable. As root, which reads any file, the
// daemon runs as nobody and the document stays root's own.
func unreadableTo(t *testing.T, data string) (adjust func(*exec.Cmd), undo func()) {
	t.Helper()
	if os.Geteuid() != 0 {
		if err := os.Chmod(data, 0); err != nil {
			t.Fatal(err)
		}
		return nil, func() { os.Chmod(data, 0o600) }
	}
	const nobody = 65534
	for _, dir := range []string{filepath.Dir(boardBin), filepath.Dir(filepath.Dir(boardBin)), filepath.Dir(filepath.Dir(data))} {
		if err := os.Chmod(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Dir(data)
	err := filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil || p == data {
			return err
		}
		return os.Lchown(p, nobody, nobody)
	})
	if err != nil {
		t.Fatal(err)
	}
	adjust = func(cmd *exec.Cmd) {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	}
	return adjust, func() {}
}
