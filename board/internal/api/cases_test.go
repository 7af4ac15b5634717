package api_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
	"github.com/tidwall/gjson"
)

func ids(r gjson.Result) []string {
	var out []string
	for _, x := range r.Array() {
		out = append(out, x.Get("id").String())
	}
	return out
}

func TestCreateAndGetCase(t *testing.T) {
	b := newBoard(t)
	c := b.must(201, "POST", "/api/cases", map[string]any{
		"title": "  Renew lease ", "summary": "office", "labels": []string{"blocked"}, "tags": []string{"a", "a", " "},
		"dueAt": "2026-12-01", "tasks": []map[string]any{{"title": "call landlord"}, {"title": "sign"}},
	})
	if c.Get("version").Int() < 2 {
		t.Errorf("version %d: the seed is version 1, so a create must be later", c.Get("version").Int())
	}
	got := c.Get("case")
	want := map[string]string{"id": "CASE-1", "title": "Renew lease", "status": "todo", "domain": "work", "kind": "case", "tasks.1.id": "CASE-1-T2", "tags": `["a"]`, "activity.0.verb": "created", "activity.0.actor": "human"}
	for path, w := range want {
		if g := got.Get(path).String(); g != w {
			t.Errorf("%s = %q, want %q", path, g, w)
		}
	}
	one := b.must(200, "GET", "/api/cases/CASE-1", nil)
	for _, k := range []string{"case", "messages", "manualActions", "events", "reminders", "version"} {
		if !one.Get(k).Exists() {
			t.Errorf("GET case lacks %q: %s", k, one.Raw)
		}
	}
	if n := len(one.Get("manualActions").Array()); n != 1 {
		t.Errorf("manualActions has %d entries, want the human's create", n)
	}
	b.fails(404, "case CASE-9 not found", "GET", "/api/cases/CASE-9", nil)
}

func TestCreateValidation(t *testing.T) {
	b := newBoard(t)
	b.fails(400, "Field 'title' is required.", "POST", "/api/cases", map[string]any{"title": "  "})
	b.fails(400, "field 'status' must be one of", "POST", "/api/cases", map[string]any{"title": "x", "status": "later"})
	b.fails(400, "field 'domain' must be one of", "POST", "/api/cases", map[string]any{"title": "x", "domain": "play"})
	b.fails(400, "field 'kind' must be one of", "POST", "/api/cases", map[string]any{"title": "x", "kind": "epic"})
	b.fails(400, "field 'dueAt' must be an ISO date", "POST", "/api/cases", map[string]any{"title": "x", "dueAt": "tomorrow"})
	b.fails(400, "unknown label id(s): nope. Valid label ids: at-risk, blocked", "POST", "/api/cases", map[string]any{"title": "x", "labels": []string{"nope"}})
	b.fails(400, "task 1 needs a title", "POST", "/api/cases", map[string]any{"title": "x", "tasks": []map[string]any{{"title": ""}}})
	b.fails(400, `unknown field "titel"`, "POST", "/api/cases", map[string]any{"titel": "x"})
	b.fails(400, "field 'tags' must be an array of strings", "POST", "/api/cases", `{"title":"x","tags":"a"}`)
	b.fails(400, "malformed JSON", "POST", "/api/cases", `{"title":`)
	b.fails(400, "must be a JSON object", "POST", "/api/cases", `null`)
	b.fails(400, "must be a JSON object", "POST", "/api/cases", `[1]`)
	b.fails(400, "must be a JSON object", "POST", "/api/cases", `"x"`)
	b.fails(400, "data after the JSON object", "POST", "/api/cases", `{"title":"x"} {}`)
	b.fails(413, "larger than", "POST", "/api/cases", `{"title":"`+strings.Repeat("x", 1<<20)+`"}`)
	b.fails(400, "workstream CASE-1 needs a parent initiative", "POST", "/api/cases", map[string]any{"title": "x", "kind": "workstream"})
	if n := len(b.must(200, "GET", "/api/cases", nil).Get("cases").Array()); n != 0 {
		t.Fatalf("refused creates left %d cases", n)
	}
	// Ids are never reused: refused writes minted nothing.
	if id := b.must(201, "POST", "/api/cases", map[string]any{"title": "x"}).Get("case.id").String(); id != "CASE-1" {
		t.Errorf("first accepted create minted %s", id)
	}
}

func TestActorAttribution(t *testing.T) {
	b := newBoard(t)
	b.must(201, "POST", "/api/cases", map[string]any{"title": "by header"}, agent...)
	b.must(201, "POST", "/api/cases", map[string]any{"title": "by body", "actor": "agent"})
	b.must(201, "POST", "/api/cases", map[string]any{"title": "human"})
	b.must(201, "POST", "/api/cases", map[string]any{"title": "claims system", "actor": "system"})
	b.must(200, "DELETE", "/api/cases/CASE-3", nil, agent...) // bodyless agent write
	for id, want := range map[string]string{"CASE-1": "agent", "CASE-2": "agent", "CASE-3": "human", "CASE-4": "human"} {
		if got := b.must(200, "GET", "/api/cases/"+id, nil).Get("case.activity.0.actor").String(); got != want {
			t.Errorf("%s created by %s, want %s", id, got, want)
		}
	}
	if got := b.must(200, "GET", "/api/cases/CASE-3", nil).Get("case.activity.1").Raw; !strings.Contains(got, `"actor":"agent"`) || !strings.Contains(got, "archived") {
		t.Errorf("bodyless agent archive logged %s", got)
	}
}

func TestPatchCase(t *testing.T) {
	b := newBoard(t)
	b.must(201, "POST", "/api/cases", map[string]any{"title": "a", "dueAt": "2026-01-01", "labels": []string{"blocked"}})
	v := b.must(200, "GET", "/api/cases", nil).Get("version").Int()
	c := b.must(200, "PATCH", "/api/cases/CASE-1", map[string]any{
		"status": "in_progress", "title": "b", "summary": "s", "eta": "soon", "dueAt": nil, "domain": "life",
		"tags": []string{"t"}, "labels": []string{"at-risk"}, "starred": true, "position": 2.5, "vaultLinks": []string{"v/x"},
		"expectedVersion": v,
	}).Get("case")
	for path, want := range map[string]string{"status": "in_progress", "title": "b", "summary": "s", "eta": "soon", "domain": "life", "tags.0": "t", "labels.0": "at-risk", "starred": "true", "position": "2.5", "vaultLinks.0": "v/x"} {
		if g := c.Get(path).String(); g != want {
			t.Errorf("%s = %q, want %q", path, g, want)
		}
	}
	if c.Get("dueAt").Exists() {
		t.Error("dueAt: null did not clear")
	}
	var verbs []string
	for _, a := range c.Get("activity").Array()[1:] {
		verbs = append(verbs, a.Get("verb").String())
	}
	for _, want := range []string{"title_changed", "status_changed", "domain_changed", "summary_changed", "eta_changed", "due_changed", "tags_changed", "vault_links_changed", "labels_changed", "starred", "position_changed"} {
		if !strings.Contains(strings.Join(verbs, " "), want) {
			t.Errorf("activity lacks %s: %v", want, verbs)
		}
	}
	c = b.must(200, "PATCH", "/api/cases/CASE-1", map[string]any{"starred": false}).Get("case")
	if c.Get("starred").Exists() {
		t.Error("starred:false must clear to absent")
	}
	if last := c.Get("activity.@reverse.0.verb").String(); last != "unstarred" {
		t.Errorf("last verb %s, want unstarred", last)
	}
	b.fails(409, "version conflict", "PATCH", "/api/cases/CASE-1", map[string]any{"title": "c", "expectedVersion": v})
	b.fails(400, "field 'title' cannot be empty", "PATCH", "/api/cases/CASE-1", map[string]any{"title": " "})
	b.fails(400, "field 'status' must be one of", "PATCH", "/api/cases/CASE-1", map[string]any{"status": "nope"})
	b.fails(400, "unknown label id(s): zzz", "PATCH", "/api/cases/CASE-1", map[string]any{"labels": []string{"zzz"}})
	b.fails(404, "case CASE-7 not found", "PATCH", "/api/cases/CASE-7", map[string]any{"title": "c"})
}

func TestHierarchyThroughTheAPI(t *testing.T) {
	b := newBoard(t)
	b.must(201, "POST", "/api/cases", map[string]any{"title": "Init", "kind": "initiative"})                     // 1
	b.must(201, "POST", "/api/cases", map[string]any{"title": "WS", "kind": "workstream", "parentId": "CASE-1"}) // 2
	b.must(201, "POST", "/api/cases", map[string]any{"title": "leaf", "parentId": "CASE-2"})                     // 3
	b.must(201, "POST", "/api/cases", map[string]any{"title": "other"})                                          // 4
	for _, tc := range []struct {
		id    string
		patch map[string]any
		msg   string
	}{
		{"CASE-2", map[string]any{"parentId": nil}, "convert it to an initiative first or move it under another initiative"},
		{"CASE-2", map[string]any{"kind": "case"}, "a case cannot contain other nodes"},
		{"CASE-1", map[string]any{"parentId": "CASE-1"}, "cannot be its own parent"},
		{"CASE-1", map[string]any{"kind": "workstream", "parentId": "CASE-2"}, "cycle"},
		{"CASE-4", map[string]any{"parentId": "CASE-3"}, "parent CASE-3 is a case"},
		{"CASE-4", map[string]any{"parentId": "CASE-99"}, "parent CASE-99 not found"},
		{"CASE-1", map[string]any{"parentId": "CASE-4"}, "parent CASE-4 is a case"},
	} {
		b.fails(400, tc.msg, "PATCH", "/api/cases/"+tc.id, tc.patch)
	}
	c := b.must(200, "PATCH", "/api/cases/CASE-2", map[string]any{"kind": "initiative", "parentId": nil}).Get("case")
	if c.Get("kind").String() != "initiative" || c.Get("parentId").Exists() {
		t.Fatalf("workstream -> initiative with parent cleared: %s", c.Raw)
	}
	acts := c.Get("activity.#.verb").String()
	if !strings.Contains(acts, "kind_changed") || !strings.Contains(acts, "parent_changed") {
		t.Errorf("kind and parent changes not logged: %s", acts)
	}
	// Archived parents are tolerated.
	b.must(200, "DELETE", "/api/cases/CASE-1", nil)
	b.must(200, "PATCH", "/api/cases/CASE-4", map[string]any{"parentId": "CASE-1"})
}

func TestBatchPatchIsAllOrNothing(t *testing.T) {
	b := newBoard(t)
	b.must(201, "POST", "/api/cases", map[string]any{"title": "Init", "kind": "initiative"})
	b.must(201, "POST", "/api/cases", map[string]any{"title": "a"})
	b.must(201, "POST", "/api/cases", map[string]any{"title": "b", "kind": "initiative"})
	b.must(201, "POST", "/api/cases", map[string]any{"title": "c"})
	b.fails(400, "CASE-3", "PATCH", "/api/cases", map[string]any{"ids": []string{"CASE-2", "CASE-3", "CASE-4"}, "patch": map[string]any{"parentId": "CASE-1"}})
	b.fails(404, "case CASE-9 not found", "PATCH", "/api/cases", map[string]any{"ids": []string{"CASE-2", "CASE-9"}, "patch": map[string]any{"status": "done"}})
	b.fails(400, "unknown label id(s): nope", "PATCH", "/api/cases", map[string]any{"ids": []string{"CASE-2", "CASE-4"}, "patch": map[string]any{"labels": []string{"blocked", "nope"}}})
	b.fails(400, "field 'ids'", "PATCH", "/api/cases", map[string]any{"ids": []string{}, "patch": map[string]any{"status": "done"}})
	got := b.must(200, "PATCH", "/api/cases", map[string]any{"ids": []string{"CASE-2", "CASE-4"}, "patch": map[string]any{"parentId": "CASE-1", "status": "urgent"}})
	if diff := cmp.Diff([]string{"CASE-2", "CASE-4"}, ids(got.Get("cases"))); diff != "" {
		t.Fatal(diff)
	}
	kids := b.must(200, "GET", "/api/cases?parentId=CASE-1&status=urgent", nil).Get("cases")
	if diff := cmp.Diff([]string{"CASE-2", "CASE-4"}, ids(kids)); diff != "" {
		t.Errorf("children after batch (-want +got)\n%s", diff)
	}
}

func TestListFilters(t *testing.T) {
	b := newBoard(t)
	b.must(201, "POST", "/api/cases", map[string]any{"title": "I", "kind": "initiative", "domain": "life"})
	b.must(201, "POST", "/api/cases", map[string]any{"title": "a", "status": "done", "labels": []string{"blocked"}, "parentId": "CASE-1", "domain": "work"}) // given, so it does not inherit life
	b.must(201, "POST", "/api/cases", map[string]any{"title": "b", "starred": true})
	b.must(201, "POST", "/api/cases", map[string]any{"title": "gone"})
	b.must(200, "DELETE", "/api/cases/CASE-4", nil)
	for q, want := range map[string][]string{
		"":                       {"CASE-1", "CASE-2", "CASE-3"},
		"?includeArchived=1":     {"CASE-1", "CASE-2", "CASE-3", "CASE-4"},
		"?status=done":           {"CASE-2"},
		"?domain=life":           {"CASE-1"},
		"?kind=initiative":       {"CASE-1"},
		"?parentId=CASE-1":       {"CASE-2"},
		"?parentId=":             {"CASE-1", "CASE-3"},
		"?label=blocked":         {"CASE-2"},
		"?starred=true":          {"CASE-3"},
		"?starred=false":         {"CASE-1", "CASE-2"},
		"?status=todo&kind=case": {"CASE-3"},
	} {
		if diff := cmp.Diff(want, ids(b.must(200, "GET", "/api/cases"+q, nil).Get("cases"))); diff != "" {
			t.Errorf("GET /api/cases%s (-want +got)\n%s", q, diff)
		}
	}
	b.fails(400, "query 'status'", "GET", "/api/cases?status=nope", nil)
}

func TestListIsCachedPerVersion(t *testing.T) {
	b := newBoard(t)
	b.must(201, "POST", "/api/cases", map[string]any{"title": "a"})
	r := b.do("GET", "/api/cases", nil)
	etag := r.Hdr.Get("ETag")
	if etag == "" {
		t.Fatal("no ETag")
	}
	if again := b.do("GET", "/api/cases", nil, "If-None-Match", etag); again.Code != http.StatusNotModified {
		t.Fatalf("unchanged list: status %d, want 304", again.Code)
	}
	b.must(201, "POST", "/api/cases", map[string]any{"title": "b"})
	if after := b.do("GET", "/api/cases", nil, "If-None-Match", etag); after.Code != 200 || len(after.Body.Get("cases").Array()) != 2 {
		t.Fatalf("after a write: status %d body %s", after.Code, after.Raw)
	}
}

func TestArchiveRestoreAndHardDelete(t *testing.T) {
	b := newBoard(t)
	b.must(201, "POST", "/api/cases", map[string]any{"title": "I", "kind": "initiative"})
	b.must(201, "POST", "/api/cases", map[string]any{"title": "W", "kind": "workstream", "parentId": "CASE-1"})
	b.must(201, "POST", "/api/cases", map[string]any{"title": "leaf", "parentId": "CASE-2"})
	b.must(201, "POST", "/api/cases", map[string]any{"title": "direct", "parentId": "CASE-1"})
	b.must(201, "POST", "/api/cases/CASE-3/messages", map[string]any{"subject": "hello", "from": "a@x.org"})
	a := b.must(200, "DELETE", "/api/cases/CASE-2", nil).Get("case")
	if a.Get("archivedAt").String() == "" {
		t.Fatal("archive did not set archivedAt")
	}
	if got := b.must(200, "GET", "/api/cases/CASE-3", nil).Get("case.parentId").String(); got != "CASE-2" {
		t.Errorf("child of an archived container lost its parent: %q", got)
	}
	b.must(200, "POST", "/api/cases/CASE-2/restore", nil)
	if b.must(200, "GET", "/api/cases/CASE-2", nil).Get("case.archivedAt").Exists() {
		t.Error("restore kept archivedAt")
	}
	b.must(200, "PATCH", "/api/cases/CASE-2", map[string]any{"archivedAt": "x"})
	b.must(200, "PATCH", "/api/cases/CASE-2", map[string]any{"archivedAt": nil})
	// Hard delete of the initiative: its workstream becomes an initiative,
	// its direct case is detached.
	b.must(200, "DELETE", "/api/cases/CASE-1?hard=1", nil)
	b.fails(404, "not found", "GET", "/api/cases/CASE-1", nil)
	ws := b.must(200, "GET", "/api/cases/CASE-2", nil).Get("case")
	if ws.Get("kind").String() != "initiative" || ws.Get("parentId").Exists() {
		t.Errorf("orphaned workstream: %s", ws.Raw)
	}
	if b.must(200, "GET", "/api/cases/CASE-4", nil).Get("case.parentId").Exists() {
		t.Error("direct child not detached")
	}
	// Hard delete of a case unlinks its messages.
	b.must(200, "DELETE", "/api/cases/CASE-3?hard=1", nil)
	if m := b.must(200, "GET", "/api/messages", nil).Get("messages.0"); m.Get("id").String() != "M-1" || m.Get("caseId").Exists() {
		t.Errorf("message after hard delete: %s", m.Raw)
	}
	// Ids are never reused after a delete.
	if id := b.must(201, "POST", "/api/cases", map[string]any{"title": "new"}).Get("case.id").String(); id != "CASE-5" {
		t.Errorf("minted %s after deletes, want CASE-5", id)
	}
	b.fails(404, "not found", "DELETE", "/api/cases/CASE-1?hard=1", nil)
	b.fails(404, "not found", "POST", "/api/cases/CASE-1/restore", nil)
}

func TestClean(t *testing.T) {
	b := newBoard(t)
	b.must(201, "POST", "/api/cases", map[string]any{"title": "done one", "status": "done"})
	b.must(201, "POST", "/api/cases", map[string]any{"title": "open"})
	b.must(201, "POST", "/api/cases/CASE-1/messages", map[string]any{"subject": "purged"})
	b.must(201, "POST", "/api/cases/CASE-1/messages", map[string]any{"subject": "kept for a reminder"})
	// A reminder fixture, placed directly: this test is about clean.
	if _, err := b.Store.Update(t.Context(), "human", nil, func(tx *store.Tx) error {
		tx.Reminders().Put(&wire.Reminder{ID: tx.NextID("REM"), Title: "r", Status: "open", CaseID: "CASE-1", CreatedAt: tx.Stamp(), UpdatedAt: tx.Stamp()})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	b.must(200, "PATCH", "/api/messages/M-2", map[string]any{"reminderId": "REM-1"})
	b.fails(400, "CASE-2 is not done", "POST", "/api/cases/clean", map[string]any{"ids": []string{"CASE-1", "CASE-2"}})
	b.fails(404, "case CASE-9 not found", "POST", "/api/cases/clean", map[string]any{"ids": []string{"CASE-9"}})
	snapsBefore := countSnapshots(t, b.Dir)
	r := b.must(200, "POST", "/api/cases/clean", map[string]any{"ids": []string{"CASE-1"}})
	if r.Get("messagesRemoved").Int() != 1 || r.Get("removed.0").String() != "CASE-1" {
		t.Errorf("clean answer %s", r.Raw)
	}
	if countSnapshots(t, b.Dir) <= snapsBefore {
		t.Error("clean took no snapshot first")
	}
	msgs := b.must(200, "GET", "/api/messages", nil).Get("messages")
	if diff := cmp.Diff([]string{"M-2"}, ids(msgs)); diff != "" {
		t.Fatalf("messages after clean (-want +got)\n%s", diff)
	}
	if msgs.Get("0.caseId").Exists() || msgs.Get("0.reminderId").String() != "REM-1" {
		t.Errorf("kept message must be unlinked from the case only: %s", msgs.Get("0").Raw)
	}
	if rem := b.Store.Snapshot().Reminders.At(0); rem.CaseID != "" {
		t.Errorf("reminder still points at the purged case: %+v", rem)
	}
}

func countSnapshots(t *testing.T, dir string) int {
	t.Helper()
	ents, _ := os.ReadDir(filepath.Join(dir, "snapshots"))
	n := 0
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".json.gz") {
			n++
		}
	}
	return n
}

func TestMerge(t *testing.T) {
	b := newBoard(t)
	b.must(201, "POST", "/api/cases", map[string]any{"title": "Source", "kind": "initiative", "tags": []string{"x"}, "labels": []string{"blocked"}}) // 1
	b.must(201, "POST", "/api/cases", map[string]any{"title": "Target", "tasks": []map[string]any{{"title": "t1"}}})                                 // 2
	b.must(201, "POST", "/api/cases", map[string]any{"title": "Other target", "kind": "initiative"})                                                 // 3
	b.must(201, "POST", "/api/cases", map[string]any{"title": "ws", "kind": "workstream", "parentId": "CASE-1"})                                     // 4
	b.must(201, "POST", "/api/cases", map[string]any{"title": "leaf", "parentId": "CASE-1"})                                                         // 5
	b.must(201, "POST", "/api/cases/CASE-1/tasks", map[string]any{"title": "moved task"})
	b.must(201, "POST", "/api/cases/CASE-1/notes", map[string]any{"text": "moved note"})
	b.must(201, "POST", "/api/cases/CASE-1/messages", map[string]any{"subject": "moved mail"})
	b.fails(400, "into itself", "POST", "/api/cases/CASE-1/merge", map[string]any{"targetId": "CASE-1"})
	b.fails(404, "case CASE-9 not found", "POST", "/api/cases/CASE-1/merge", map[string]any{"targetId": "CASE-9"})
	b.fails(400, "field 'targetId' is required", "POST", "/api/cases/CASE-1/merge", map[string]any{})
	// Into a leaf case: children cannot move under it, so they are detached
	// (the workstream becomes an initiative) and noted on the target.
	tgt := b.must(200, "POST", "/api/cases/CASE-1/merge", map[string]any{"targetId": "CASE-2"}, agent...).Get("case")
	if got := tgt.Get("tasks.#.id").String(); got != `["CASE-2-T1","CASE-2-T2"]` {
		t.Errorf("moved task ids %s", got)
	}
	if tgt.Get("tags.0").String() != "x" || tgt.Get("labels.0").String() != "blocked" {
		t.Errorf("tags/labels not moved: %s", tgt.Raw)
	}
	notes := tgt.Get("notes.#.text").String()
	if !strings.Contains(notes, "moved note") || !strings.Contains(notes, "CASE-4") || !strings.Contains(notes, "CASE-5") {
		t.Errorf("target notes %s", notes)
	}
	src := b.must(200, "GET", "/api/cases/CASE-1", nil).Get("case")
	if src.Get("archivedAt").String() == "" || src.Get("mergedInto").String() != "CASE-2" || !strings.Contains(src.Get("notes.0.text").String(), "Merged into CASE-2: use CASE-2") {
		t.Errorf("source after merge: %s", src.Raw)
	}
	if src.Get("activity.@reverse.0.verb").String() != "merged_into" || src.Get("activity.@reverse.0.actor").String() != "agent" {
		t.Errorf("merge not logged as agent: %s", src.Get("activity").Raw)
	}
	if got := b.must(200, "GET", "/api/messages?caseId=CASE-2", nil).Get("messages.0.subject").String(); got != "moved mail" {
		t.Errorf("message not moved: %q", got)
	}
	ws := b.must(200, "GET", "/api/cases/CASE-4", nil).Get("case")
	if ws.Get("kind").String() != "initiative" || ws.Get("parentId").Exists() {
		t.Errorf("detached workstream: %s", ws.Raw)
	}
	// Into a container: children follow.
	b.must(201, "POST", "/api/cases", map[string]any{"title": "S2", "kind": "initiative"})  // 6
	b.must(201, "POST", "/api/cases", map[string]any{"title": "kid", "parentId": "CASE-6"}) // 7
	b.must(200, "POST", "/api/cases/CASE-6/merge", map[string]any{"targetId": "CASE-3"})
	if got := b.must(200, "GET", "/api/cases/CASE-7", nil).Get("case.parentId").String(); got != "CASE-3" {
		t.Errorf("child re-parented to %q, want CASE-3", got)
	}
	b.fails(400, "is archived", "POST", "/api/cases/CASE-3/merge", map[string]any{"targetId": "CASE-6"})
}

func TestTasksNotesAndMessages(t *testing.T) {
	b := newBoard(t)
	b.must(201, "POST", "/api/cases", map[string]any{"title": "c"})
	t1 := b.must(201, "POST", "/api/cases/CASE-1/tasks", map[string]any{"title": "one"}).Get("task")
	b.must(201, "POST", "/api/cases/CASE-1/tasks", map[string]any{"title": "two"})
	if t1.Get("id").String() != "CASE-1-T1" {
		t.Fatalf("task id %s", t1.Get("id"))
	}
	b.must(200, "DELETE", "/api/cases/CASE-1/tasks/CASE-1-T2", nil)
	if id := b.must(201, "POST", "/api/cases/CASE-1/tasks", map[string]any{"title": "three"}).Get("task.id").String(); id != "CASE-1-T2" {
		t.Errorf("after deleting the highest, k continues from the highest existing: got %s", id)
	}
	done := b.must(200, "PATCH", "/api/cases/CASE-1/tasks/CASE-1-T1", map[string]any{"completed": true, "title": "uno", "detail": "d", "dueAt": "2026-02-02", "position": 1}).Get("task")
	if done.Get("completedAt").String() == "" || done.Get("title").String() != "uno" {
		t.Errorf("complete: %s", done.Raw)
	}
	if b.must(200, "PATCH", "/api/cases/CASE-1/tasks/CASE-1-T1", map[string]any{"completed": false}).Get("task.completedAt").Exists() {
		t.Error("completed:false kept completedAt")
	}
	b.fails(404, "task CASE-1-T9 not found", "PATCH", "/api/cases/CASE-1/tasks/CASE-1-T9", map[string]any{"completed": true})
	b.fails(400, "Field 'title' is required.", "POST", "/api/cases/CASE-1/tasks", map[string]any{"title": ""})
	n := b.must(201, "POST", "/api/cases/CASE-1/notes", map[string]any{"text": "hi"}, agent...).Get("note")
	if n.Get("id").String() != "CASE-1-N1" || n.Get("actor").String() != "agent" || n.Get("createdAt").String() == "" {
		t.Errorf("note %s", n.Raw)
	}
	b.fails(400, "Field 'text' is required.", "POST", "/api/cases/CASE-1/notes", map[string]any{"text": " "})
	m := b.must(201, "POST", "/api/cases/CASE-1/messages", map[string]any{
		"source": "gmail", "from": "ann@x.org", "to": []string{"me@x.org"}, "cc": "b@x.org, c@x.org", "subject": "hello",
		"preview": "p", "body": "b", "receivedAt": "2026-01-02T03:04:05Z", "outbound": true, "url": "javascript:alert(1)",
	}).Get("message")
	if m.Get("id").String() != "M-1" || m.Get("caseId").String() != "CASE-1" || m.Get("url").Exists() || m.Get("cc.1").String() != "c@x.org" || !m.Get("outbound").Bool() {
		t.Errorf("message %s", m.Raw)
	}
	b.must(201, "POST", "/api/cases/CASE-1/messages", map[string]any{"subject": "two", "url": "https://mail.example.com/x"})
	if got := b.must(200, "GET", "/api/unread-count", nil).Get("count").Int(); got != 2 {
		t.Errorf("unread %d", got)
	}
	b.must(200, "PATCH", "/api/messages/M-1", map[string]any{"read": true, "url": "https://x.example.com/1"})
	if got := ids(b.must(200, "GET", "/api/messages?unread=1", nil).Get("messages")); !cmp.Equal(got, []string{"M-2"}) {
		t.Errorf("unread filter %v", got)
	}
	b.must(201, "POST", "/api/cases", map[string]any{"title": "c2"})
	b.must(200, "PATCH", "/api/messages/M-1", map[string]any{"caseId": "CASE-2"})
	acts := b.must(200, "GET", "/api/cases/CASE-1", nil).Get("case.activity.#.verb").String()
	if !strings.Contains(acts, "message_unlinked") {
		t.Errorf("relink not logged on the old case: %s", acts)
	}
	b.must(200, "PATCH", "/api/messages/M-1", map[string]any{"caseId": nil})
	b.fails(404, "Reminder REM-4 not found", "PATCH", "/api/messages/M-1", map[string]any{"reminderId": "REM-4"})
	b.fails(404, "case CASE-9 not found", "PATCH", "/api/messages/M-1", map[string]any{"caseId": "CASE-9"})
	b.fails(404, "message M-9 not found", "PATCH", "/api/messages/M-9", map[string]any{"read": true})
}

func TestActivityIsCappedAtFifty(t *testing.T) {
	b := newBoard(t)
	b.must(201, "POST", "/api/cases", map[string]any{"title": "c"})
	for i := 0; i < 60; i++ {
		b.must(200, "PATCH", "/api/cases/CASE-1", map[string]any{"title": fmt.Sprintf("t%d", i)})
	}
	act := b.must(200, "GET", "/api/cases/CASE-1", nil).Get("case.activity").Array()
	if len(act) != 50 {
		t.Fatalf("%d activity entries, want 50", len(act))
	}
	if !strings.Contains(act[49].Get("detail").String(), "t59") {
		t.Errorf("newest entry lost: %s", act[49].Raw)
	}
	feed := b.must(200, "GET", "/api/activity?limit=5&actor=human&category=edit", nil).Get("activity").Array()
	if len(feed) != 5 || feed[0].Get("caseId").String() != "CASE-1" || feed[0].Get("caseTitle").String() != "t59" || !strings.Contains(feed[0].Get("detail").String(), "t59") {
		t.Errorf("feed newest first with case id and title: %v", feed)
	}
}

func TestTreeRollupsOverHTTP(t *testing.T) {
	b := newBoard(t)
	b.must(201, "POST", "/api/cases", map[string]any{"title": "I", "kind": "initiative"})
	b.must(201, "POST", "/api/cases", map[string]any{"title": "W", "kind": "workstream", "parentId": "CASE-1"})
	b.must(201, "POST", "/api/cases", map[string]any{"title": "a", "parentId": "CASE-2", "status": "done", "tasks": []map[string]any{{"title": "x"}}})
	b.must(201, "POST", "/api/cases", map[string]any{"title": "b", "parentId": "CASE-2"})
	b.must(201, "POST", "/api/cases", map[string]any{"title": "life", "domain": "life"})
	b.must(200, "PATCH", "/api/cases/CASE-3/tasks/CASE-3-T1", map[string]any{"completed": true})
	tree := b.must(200, "GET", "/api/tree", nil).Get("tree")
	if got := tree.Get("0.rollup").Raw; got != `{"totalCases":2,"doneCases":1,"totalTasks":1,"doneTasks":1,"ratio":0.5,"childCount":1}` {
		t.Errorf("initiative rollup %s", got)
	}
	if got := tree.Get("0.children.0.children.#.id").String(); got != `["CASE-3","CASE-4"]` {
		t.Errorf("leaves %s", got)
	}
	if got := ids(b.must(200, "GET", "/api/tree?domain=life", nil).Get("tree")); !cmp.Equal(got, []string{"CASE-5"}) {
		t.Errorf("domain filter %v", got)
	}
	if got := ids(b.must(200, "GET", "/api/tree?rootId=CASE-2", nil).Get("tree")); !cmp.Equal(got, []string{"CASE-2"}) {
		t.Errorf("rootId %v", got)
	}
	b.must(200, "DELETE", "/api/cases/CASE-4", nil)
	if got := b.must(200, "GET", "/api/tree", nil).Get("tree.0.rollup.ratio").Float(); got != 1 {
		t.Errorf("archived leaf still counted: ratio %v", got)
	}
	if got := b.must(200, "GET", "/api/tree?includeArchived=1", nil).Get("tree.0.children.0.rollup.childCount").Int(); got != 2 {
		t.Errorf("includeArchived childCount %d", got)
	}
	b.fails(404, "not found", "GET", "/api/tree?rootId=CASE-99", nil)
}

func TestLocalOnlyGuards(t *testing.T) {
	b := newBoard(t)
	port := b.URL[strings.LastIndex(b.URL, ":")+1:]
	b.fails(403, "is not allowed", "GET", "/api/cases", nil, "Host", "evil.example:"+port)
	b.fails(403, "is not allowed", "POST", "/api/cases", map[string]any{"title": "x"}, "Host", "rebind.attacker.test")
	b.fails(403, "may not write", "POST", "/api/cases", map[string]any{"title": "x"}, "Origin", "https://evil.example")
	b.fails(403, "may not write", "POST", "/api/cases", map[string]any{"title": "x"}, "Origin", "http://localhost:1")
	b.fails(403, "may not write", "DELETE", "/api/cases/CASE-1", nil, "Origin", "null")
	b.must(201, "POST", "/api/cases", map[string]any{"title": "own page"}, "Origin", "http://127.0.0.1:"+port)
	b.must(201, "POST", "/api/cases", map[string]any{"title": "localhost page"}, "Origin", "http://localhost:"+port, "Host", "localhost:"+port)
	b.must(200, "GET", "/api/cases", nil, "Origin", "https://evil.example") // reads carry no forged write
	r := b.do("POST", "/api/cases", `{"title":"x"}`, "Content-Type", "text/plain")
	if r.Code != 415 || !strings.Contains(r.Body.Get("error").String(), "application/json") {
		t.Errorf("text/plain write: %d %s", r.Code, r.Raw)
	}
	b.must(200, "DELETE", "/api/cases/CASE-1", nil) // bodyless write needs no content type
	b.fails(404, "no route", "GET", "/api/nope", nil)
}

func TestConcurrentWritesKeepEveryAnswer(t *testing.T) {
	b := newBoard(t)
	var wg sync.WaitGroup
	seen := sync.Map{}
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 10; i++ {
				r := b.do("POST", "/api/cases", map[string]any{"title": "c"})
				if r.Code != 201 {
					t.Errorf("status %d", r.Code)
					return
				}
				if _, dup := seen.LoadOrStore(r.Body.Get("case.id").String(), true); dup {
					t.Errorf("id minted twice: %s", r.Body.Get("case.id"))
				}
			}
		}()
	}
	wg.Wait()
	if n := len(b.must(200, "GET", "/api/cases", nil).Get("cases").Array()); n != 80 {
		t.Fatalf("%d cases, want 80", n)
	}
}
