package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/api"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/tidwall/gjson"
)

// undoneVersions lists an undo answer's writes by version.
func undoneVersions(r gjson.Result) []int64 {
	out := []int64{}
	for _, w := range r.Get("undone").Array() {
		out = append(out, w.Get("version").Int())
	}
	return out
}

func caseNum(t *testing.T, id string) int {
	t.Helper()
	var n int
	if _, err := fmt.Sscanf(id, "CASE-%d", &n); err != nil {
		t.Fatalf("case id %q: %v", id, err)
	}
	return n
}

func TestUndoACreateRemovesItAndIdsStayUsed(t *testing.T) {
	b := newBoard(t)
	made := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Order toner"})
	id, v := made.Get("case.id").String(), made.Get("version").Int()

	out := b.must(http.StatusOK, "POST", "/api/undo", map[string]any{"version": v})
	if diff := cmp.Diff([]int64{v}, undoneVersions(out)); diff != "" {
		t.Errorf("undone (-want +got)\n%s", diff)
	}
	if got := out.Get("version").Int(); got != v+1 {
		t.Errorf("the undo is write %d, want %d: undo never moves the version back", got, v+1)
	}
	if recs := out.Get("undone.0.records").Raw; !strings.Contains(recs, `"id":"`+id+`"`) {
		t.Errorf("undone records %s: want %s", recs, id)
	}
	b.fails(http.StatusNotFound, "not found", "GET", "/api/cases/"+id, nil)

	again := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Order toner"}).Get("case.id").String()
	if caseNum(t, again) <= caseNum(t, id) {
		t.Errorf("a create after the undo got %s: ids continue above %s", again, id)
	}
}

func TestUndoAPatchPutsTheFieldsBack(t *testing.T) {
	b := newBoard(t)
	id := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Desks", "status": "todo"}).Get("case.id").String()
	v := b.must(http.StatusOK, "PATCH", "/api/cases/"+id, map[string]any{"title": "Standing desks", "status": "in_progress"}, agent...).Get("version").Int()

	// The feed names the write behind the agent's row, for its Undo button.
	for _, view := range []string{"", "&view=summary"} {
		row := b.must(http.StatusOK, "GET", "/api/activity?actor=agent"+view, nil).Get("activity.0")
		if row.Get("version").Int() != v {
			t.Errorf("feed%s: agent row %s, want version %d", view, row.Raw, v)
		}
	}

	b.must(http.StatusOK, "POST", "/api/undo", map[string]any{"version": v})
	c := b.must(http.StatusOK, "GET", "/api/cases/"+id, nil).Get("case")
	if c.Get("title").String() != "Desks" || c.Get("status").String() != "todo" {
		t.Errorf("after undo: %s; want the title and status before the patch", c.Raw)
	}
	last := c.Get("activity").Array()
	if n := len(last); n == 0 || last[n-1].Get("verb").String() != "undone" || last[n-1].Get("actor").String() != "human" ||
		!strings.Contains(last[n-1].Get("detail").String(), fmt.Sprintf("write %d by agent", v)) {
		t.Errorf("activity %s: want a last entry by the person saying what was undone", c.Get("activity").Raw)
	}

	// Undoing the undo is a write like any other: the patch comes back.
	undoV := b.Store.Version()
	b.must(http.StatusOK, "POST", "/api/undo", map[string]any{"version": undoV})
	if got := b.must(http.StatusOK, "GET", "/api/cases/"+id, nil).Get("case.title").String(); got != "Standing desks" {
		t.Errorf("after undoing the undo, title %q", got)
	}
}

func TestUndoADeleteRecreatesWithItsID(t *testing.T) {
	b := newBoard(t)
	id := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Renew the lease", "tasks": []map[string]any{{"title": "call the landlord"}}}).Get("case.id").String()
	b.must(http.StatusCreated, "POST", "/api/cases/"+id+"/messages", map[string]any{"from": "landlord@example.com", "subject": "Lease", "body": "The lease ends in March."})
	before := b.Store.Version()
	b.must(http.StatusOK, "DELETE", "/api/cases/"+id+"?hard=1", nil)
	v := b.Store.Version()
	if v != before+1 {
		t.Fatalf("the delete made versions %d..%d, want one write", before+1, v)
	}

	b.must(http.StatusOK, "POST", "/api/undo", map[string]any{"version": v})
	c := b.must(http.StatusOK, "GET", "/api/cases/"+id, nil).Get("case")
	if c.Get("title").String() != "Renew the lease" || c.Get("tasks.0.title").String() != "call the landlord" {
		t.Errorf("re-created case %s: want it whole with its id", c.Raw)
	}
	msgs := b.must(http.StatusOK, "GET", "/api/messages?caseId="+id, nil).Get("messages").Array()
	if len(msgs) != 1 {
		t.Errorf("the case's message: %d back, want 1", len(msgs))
	}
	next := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Another"}).Get("case.id").String()
	if caseNum(t, next) <= caseNum(t, id) {
		t.Errorf("a create after the undo got %s: ids continue above %s", next, id)
	}
}

func TestUndoRefusedWhenALaterWriteTouchedTheRecord(t *testing.T) {
	b := newBoard(t)
	made := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Book the venue"}, agent...)
	id, v := made.Get("case.id").String(), made.Get("version").Int()
	later := b.must(http.StatusOK, "PATCH", "/api/cases/"+id, map[string]any{"status": "in_progress"}).Get("version").Int()

	before := b.Store.Version()
	r := b.do("POST", "/api/undo", map[string]any{"version": v})
	if r.Code != http.StatusBadRequest {
		t.Fatalf("status %d, want 400: %s", r.Code, r.Raw)
	}
	want := fmt.Sprintf(`[{"id":%q,"kind":"case","version":%d}]`, id, later)
	if diff := cmp.Diff(want, r.Body.Get("conflicts").Raw); diff != "" {
		t.Errorf("conflicts (-want +got)\n%s", diff)
	}
	if !strings.Contains(r.Body.Get("error").String(), "through") {
		t.Errorf("error %q: want it to say how to go on", r.Body.Get("error").String())
	}
	if b.Store.Version() != before {
		t.Errorf("a refused undo moved the version")
	}
	b.must(http.StatusOK, "GET", "/api/cases/"+id, nil)

	// Through: a dry run lists both writes, newest first, and writes nothing.
	dry := b.must(http.StatusOK, "POST", "/api/undo", map[string]any{"version": v, "through": true, "dryRun": true})
	if diff := cmp.Diff([]int64{later, v}, undoneVersions(dry)); diff != "" {
		t.Errorf("dry run (-want +got)\n%s", diff)
	}
	if !dry.Get("dryRun").Bool() || dry.Get("undone.1.actor").String() != "agent" || dry.Get("undone.0.actor").String() != "human" || dry.Get("undone.0.at").String() == "" {
		t.Errorf("dry run %s: want each write with its actor and time", dry.Raw)
	}
	if b.Store.Version() != before {
		t.Errorf("a dry run moved the version")
	}
	done := b.must(http.StatusOK, "POST", "/api/undo", map[string]any{"version": v, "through": true})
	if diff := cmp.Diff([]int64{later, v}, undoneVersions(done)); diff != "" {
		t.Errorf("applied (-want +got)\n%s", diff)
	}
	b.fails(http.StatusNotFound, "not found", "GET", "/api/cases/"+id, nil)
}

func TestUndoEverythingTheAgentDidSinceATime(t *testing.T) {
	b := newBoard(t)
	mine := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Quarterly report"}).Get("case.id").String()
	since := time.Now().UTC().Add(-time.Second).Format(time.RFC3339)
	b.must(http.StatusOK, "PATCH", "/api/cases/"+mine, map[string]any{"title": "Report (agent)"}, agent...)
	theirs := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Agent's idea"}, agent...).Get("case.id").String()
	other := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "My own"}).Get("case.id").String()

	dry := b.must(http.StatusOK, "POST", "/api/undo", map[string]any{"writesBy": "agent", "since": since, "dryRun": true})
	if n := len(dry.Get("undone").Array()); n != 2 {
		t.Fatalf("dry run %s: want the agent's 2 writes", dry.Raw)
	}
	for _, w := range dry.Get("undone").Array() {
		if w.Get("actor").String() != "agent" {
			t.Errorf("dry run lists %s: only the agent's writes", w.Raw)
		}
	}
	b.must(http.StatusOK, "POST", "/api/undo", map[string]any{"writesBy": "agent", "since": since})
	if got := b.must(http.StatusOK, "GET", "/api/cases/"+mine, nil).Get("case.title").String(); got != "Quarterly report" {
		t.Errorf("the person's case is titled %q after the undo", got)
	}
	b.fails(http.StatusNotFound, "not found", "GET", "/api/cases/"+theirs, nil)
	b.must(http.StatusOK, "GET", "/api/cases/"+other, nil)

	// Nothing left to undo: an empty answer and no write.
	v := b.Store.Version()
	none := b.must(http.StatusOK, "POST", "/api/undo", map[string]any{"writesBy": "agent", "since": since})
	if len(none.Get("undone").Array()) != 0 || b.Store.Version() != v {
		t.Errorf("nothing to undo: %s, version %d -> %d", none.Raw, v, b.Store.Version())
	}

	// A later write by the person on the agent's case refuses the undo,
	// unless through, which undoes the person's write too.
	idea := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Another idea"}, agent...)
	conflict := b.must(http.StatusOK, "PATCH", "/api/cases/"+idea.Get("case.id").String(), map[string]any{"status": "in_progress"}).Get("version").Int()
	r := b.do("POST", "/api/undo", map[string]any{"writesBy": "agent", "since": since})
	if r.Code != http.StatusBadRequest || r.Body.Get("conflicts.0.version").Int() != conflict || r.Body.Get("conflicts.0.id").String() != idea.Get("case.id").String() {
		t.Fatalf("status %d %s: want 400 naming write %d", r.Code, r.Raw, conflict)
	}
	through := b.must(http.StatusOK, "POST", "/api/undo", map[string]any{"writesBy": "agent", "since": since, "through": true, "dryRun": true})
	if diff := cmp.Diff([]int64{conflict, idea.Get("version").Int()}, undoneVersions(through)); diff != "" {
		t.Errorf("through (-want +got)\n%s", diff)
	}
}

func TestUndoProposedByTheAgentAndApproved(t *testing.T) {
	b := newBoard(t)
	made := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Duplicate by mistake"}, agent...)
	id, v := made.Get("case.id").String(), made.Get("version").Int()
	prop := b.must(http.StatusCreated, "POST", "/api/pending", map[string]any{"verb": "undo", "summary": "Undo my duplicate case", "payload": map[string]any{"version": v}}, agent...).Get("proposal.id").String()
	b.must(http.StatusOK, "GET", "/api/cases/"+id, nil) // nothing happens before approval

	b.must(http.StatusOK, "POST", "/api/pending/"+prop+"/approve", map[string]any{})
	b.fails(http.StatusNotFound, "not found", "GET", "/api/cases/"+id, nil)
	if n := len(b.must(http.StatusOK, "GET", "/api/pending", nil).Get("pending").Array()); n != 0 {
		t.Errorf("%d proposals left, want the approved one gone", n)
	}

	// A proposal to undo what undo cannot reach is refused when filed.
	b.fails(http.StatusBadRequest, "out of reach", "POST", "/api/pending", map[string]any{"verb": "undo", "summary": "Undo the future", "payload": map[string]any{"version": v + 100}}, agent...)
	b.fails(http.StatusBadRequest, "version", "POST", "/api/pending", map[string]any{"verb": "undo", "summary": "Undo what", "payload": map[string]any{"through": true}}, agent...)
}

func TestUndoOutsideTheRing(t *testing.T) {
	b := newBoard(t, func(s *store.Config, _ *api.Config) { s.RingSize = 3 })
	first := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "One"}).Get("version").Int()
	for _, title := range []string{"Two", "Three", "Four"} {
		b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": title})
	}
	b.fails(http.StatusBadRequest, fmt.Sprintf("undo reaches back to write %d", first+1), "POST", "/api/undo", map[string]any{"version": first})
	b.fails(http.StatusBadRequest, "out of reach", "POST", "/api/undo", map[string]any{"version": b.Store.Version() + 1})
	b.must(http.StatusOK, "POST", "/api/undo", map[string]any{"version": first + 1})
}

func TestUndoBadRequests(t *testing.T) {
	b := newBoard(t)
	for _, tc := range []struct {
		name, msg string
		body      any
	}{
		{"empty", "field 'version' is required", map[string]any{}},
		{"both ways", "not both", map[string]any{"version": 1, "writesBy": "agent", "since": "2026-11-26T14:00:00Z"}},
		{"since without whose", "'writesBy' is required", map[string]any{"since": "2026-11-26T14:00:00Z"}},
		{"whose without since", "'since' is required", map[string]any{"writesBy": "agent"}},
		{"a bad time", "RFC 3339", map[string]any{"writesBy": "agent", "since": "14:00"}},
		{"an unknown field", "unknown", map[string]any{"version": 1, "all": true}},
		{"a negative version", "positive", map[string]any{"version": -3}},
		{"not an object", "JSON object", "[1]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b.fails(http.StatusBadRequest, tc.msg, "POST", "/api/undo", tc.body)
		})
	}
}

// The agent rarely knows a write's version; it knows when it started. It
// may propose undoing its own writes since a time, which the person approves.
func TestUndoOfTheAgentSinceATimeProposedAndApproved(t *testing.T) {
	b := newBoard(t)
	mine := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Budget"}).Get("case.id").String()
	since := time.Now().UTC().Add(-time.Second).Format(time.RFC3339)
	b.must(http.StatusOK, "PATCH", "/api/cases/"+mine, map[string]any{"title": "Budget (renamed by the agent)"}, agent...)
	theirs := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Agent's guess"}, agent...).Get("case.id").String()

	prop := b.must(http.StatusCreated, "POST", "/api/pending", map[string]any{"verb": "undo", "summary": "Undo what I did this morning",
		"payload": map[string]any{"writesBy": "agent", "since": since}}, agent...).Get("proposal.id").String()
	if got := b.must(http.StatusOK, "GET", "/api/cases/"+mine, nil).Get("case.title").String(); got != "Budget (renamed by the agent)" {
		t.Fatalf("filing the proposal changed the case: %q", got)
	}
	b.must(http.StatusOK, "POST", "/api/pending/"+prop+"/approve", map[string]any{})
	if got := b.must(http.StatusOK, "GET", "/api/cases/"+mine, nil).Get("case.title").String(); got != "Budget" {
		t.Errorf("after approval the case is titled %q, want Budget", got)
	}
	b.fails(http.StatusNotFound, "not found", "GET", "/api/cases/"+theirs, nil)
	b.fails(http.StatusBadRequest, "since", "POST", "/api/pending", map[string]any{"verb": "undo", "summary": "Undo",
		"payload": map[string]any{"writesBy": "agent", "since": "this morning"}}, agent...)
}

// "Undo the agent since" is shown as a dry run first; what the person then
// applies is what they saw, not also what the agent wrote in between.
func TestUndoOfTheAgentSinceAppliesWhatTheDryRunListed(t *testing.T) {
	b := newBoard(t)
	since := time.Now().UTC().Add(-time.Second).Format(time.RFC3339)
	seen := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Listed in the dry run"}, agent...).Get("case.id").String()
	dry := b.must(http.StatusOK, "POST", "/api/undo", map[string]any{"writesBy": "agent", "since": since, "dryRun": true})
	later := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Written after the dry run"}, agent...).Get("case.id").String()

	b.must(http.StatusOK, "POST", "/api/undo", map[string]any{"writesBy": "agent", "since": since, "until": dry.Get("version").Int()})
	b.fails(http.StatusNotFound, "not found", "GET", "/api/cases/"+seen, nil)
	b.must(http.StatusOK, "GET", "/api/cases/"+later, nil)
	b.fails(http.StatusBadRequest, "until", "POST", "/api/undo", map[string]any{"version": 3, "until": 5})
}
