package api_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/api"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/tidwall/gjson"
)

// refs lists an answer's records as kind:id.
func refs(list gjson.Result) []string {
	var out []string
	for _, r := range list.Array() {
		out = append(out, r.Get("kind").String()+":"+r.Get("id").String())
	}
	return out
}

func TestChangesSinceAVersion(t *testing.T) {
	b := newBoard(t)
	start := b.Store.Version()
	id := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Call the bank", "tasks": []map[string]any{{"title": "find the form"}}}, agent...).Get("case.id").String()
	msg := b.must(http.StatusCreated, "POST", "/api/cases/"+id+"/messages", map[string]any{"from": "bank@example.com", "subject": "Your form", "body": "Please fill in the attached form and send it back."}, agent...).Get("message.id").String()
	mid := b.Store.Version()
	b.must(http.StatusOK, "PATCH", "/api/cases/"+id, map[string]any{"status": "in_progress"}, agent...)

	all := b.must(http.StatusOK, "GET", fmt.Sprintf("/api/changes?since=%d", start), nil)
	if all.Get("reset").Bool() || all.Get("version").Int() != b.Store.Version() {
		t.Fatalf("answer %s: want the changes up to version %d", all.Raw, b.Store.Version())
	}
	if diff := cmp.Diff([]string{"message:" + msg, "case:" + id}, refs(all.Get("changed"))); diff != "" {
		t.Errorf("changed since %d (-want +got)\n%s", start, diff)
	}
	for _, r := range all.Get("changed").Array() {
		rec := r.Get("record")
		switch r.Get("kind").String() {
		case "case": // the summary a card shows: counts, no activity
			if rec.Get("status").String() != "in_progress" || rec.Get("taskCount").Int() != 1 || rec.Get("activity").Exists() || rec.Get("tasks").Exists() {
				t.Errorf("case record %s: want the summary as it is now", rec.Raw)
			}
			if by := r.Get("actor").String(); by != "agent" {
				t.Errorf("case changed by %q, want agent: the last write's actor", by)
			}
		case "message": // no body, a preview from it
			if rec.Get("body").Exists() || rec.Get("preview").String() == "" || rec.Get("caseId").String() != id {
				t.Errorf("message record %s: want the summary without its body", rec.Raw)
			}
		}
	}

	later := b.must(http.StatusOK, "GET", fmt.Sprintf("/api/changes?since=%d", mid), nil)
	if diff := cmp.Diff([]string{"case:" + id}, refs(later.Get("changed"))); diff != "" {
		t.Errorf("changed since %d (-want +got)\n%s", mid, diff)
	}
	none := b.must(http.StatusOK, "GET", fmt.Sprintf("/api/changes?since=%d", b.Store.Version()), nil)
	if len(none.Get("changed").Array()) != 0 || len(none.Get("removed").Array()) != 0 || none.Get("reset").Bool() {
		t.Errorf("up to date: %s", none.Raw)
	}

	// A hard delete is a removal; the case's message goes with it.
	before := b.Store.Version()
	b.must(http.StatusOK, "DELETE", "/api/cases/"+id+"?hard=1", nil, agent...)
	gone := b.must(http.StatusOK, "GET", fmt.Sprintf("/api/changes?since=%d", before), nil)
	removed := refs(gone.Get("removed"))
	if !contains(removed, "case:"+id) {
		t.Errorf("removed %v: want case:%s (answer %s)", removed, id, gone.Raw)
	}

	// The person's write after the agent's names the person.
	other := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Renew lease"}, agent...).Get("case.id").String()
	since := b.Store.Version()
	b.must(http.StatusOK, "PATCH", "/api/cases/"+other, map[string]any{"title": "Renew the lease"})
	if by := b.must(http.StatusOK, "GET", fmt.Sprintf("/api/changes?since=%d", since-1), nil).Get("changed.0.actor").String(); by != "human" {
		t.Errorf("case last changed by %q, want human", by)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestChangesOfEveryKind(t *testing.T) {
	b := newBoard(t)
	since := b.Store.Version()
	b.must(http.StatusCreated, "POST", "/api/events", map[string]any{"title": "Dentist", "date": "2026-05-04"}, agent...)
	b.must(http.StatusCreated, "POST", "/api/reminders", map[string]any{"title": "Renew the passport"}, agent...)
	b.must(http.StatusCreated, "POST", "/api/priorities", map[string]any{"text": "Health first"}, agent...)
	b.must(http.StatusOK, "PATCH", "/api/prefs", map[string]any{"view": "strategy"})
	got := b.must(http.StatusOK, "GET", fmt.Sprintf("/api/changes?since=%d", since), nil)
	var kinds []string
	for _, r := range got.Get("changed").Array() {
		if !r.Get("record").IsObject() {
			t.Errorf("%s %s: record %s is not an object", r.Get("kind"), r.Get("id"), r.Get("record").Raw)
		}
		kinds = append(kinds, r.Get("kind").String())
	}
	if diff := cmp.Diff([]string{"event", "reminder", "priority", "prefs"}, kinds); diff != "" {
		t.Errorf("kinds (-want +got)\n%s", diff)
	}
}

func TestChangesRefusesOrResets(t *testing.T) {
	b := newBoard(t, func(s *store.Config, _ *api.Config) { s.RingSize = 3 })
	for _, bad := range []string{"", "abc", "-1", "1.5", "9999999999999999999999"} {
		b.fails(http.StatusBadRequest, "since", "GET", "/api/changes?since="+bad, nil)
	}
	start := b.Store.Version()
	for i := range 5 {
		b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": fmt.Sprintf("case %d", i)}, agent...)
	}
	now := b.Store.Version()
	for _, tc := range []struct {
		name  string
		since int64
	}{
		{"behind the ring", start},
		{"ahead of the board", now + 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := b.must(http.StatusOK, "GET", fmt.Sprintf("/api/changes?since=%d", tc.since), nil)
			if !got.Get("reset").Bool() || got.Get("version").Int() != now || got.Get("changed").Exists() && len(got.Get("changed").Array()) > 0 {
				t.Errorf("since %d: %s, want a reset at version %d", tc.since, got.Raw, now)
			}
		})
	}
	// Within the ring it answers.
	got := b.must(http.StatusOK, "GET", fmt.Sprintf("/api/changes?since=%d", now-3), nil)
	if got.Get("reset").Bool() || len(got.Get("changed").Array()) != 3 {
		t.Errorf("since %d: %s, want the last three cases", now-3, got.Raw)
	}
}

func TestSummaryViews(t *testing.T) {
	b := newBoard(t)
	id := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Lease", "summary": "the flat", "labels": []string{"follow-up"},
		"tasks": []map[string]any{{"title": "read it"}, {"title": "sign it"}}}, agent...).Get("case.id").String()
	b.must(http.StatusCreated, "POST", "/api/cases/"+id+"/notes", map[string]any{"text": "landlord is slow"})
	b.must(http.StatusCreated, "POST", "/api/cases/"+id+"/messages", map[string]any{"from": "a@example.com", "subject": "Lease", "body": "the whole long body of the mail", "cc": "c@example.com"})

	full := b.must(http.StatusOK, "GET", "/api/cases", nil).Get("cases.0")
	if !full.Get("activity").Exists() || !full.Get("notes").Exists() {
		t.Fatalf("without view the case is whole: %s", full.Raw)
	}
	sum := b.must(http.StatusOK, "GET", "/api/cases?view=summary", nil).Get("cases.0")
	for _, heavy := range []string{"activity", "notes", "tasks", "humanEdits", "vaultLinks"} {
		if sum.Get(heavy).Exists() {
			t.Errorf("case summary carries %s: %s", heavy, sum.Raw)
		}
	}
	if sum.Get("taskCount").Int() != 2 || sum.Get("noteCount").Int() != 1 || sum.Get("labels.0").String() != "follow-up" || sum.Get("title").String() != "Lease" {
		t.Errorf("case summary %s: want counts, labels and title", sum.Raw)
	}
	node := b.must(http.StatusOK, "GET", "/api/tree?view=summary", nil).Get("tree.0")
	if node.Get("activity").Exists() || node.Get("taskCount").Int() != 2 || !node.Get("rollup").Exists() || !node.Get("children").IsArray() {
		t.Errorf("tree summary node %s", node.Raw)
	}
	if !b.must(http.StatusOK, "GET", "/api/tree", nil).Get("tree.0.activity").Exists() {
		t.Error("without view the tree's nodes are whole")
	}

	for _, path := range []string{"/api/messages?view=summary", "/api/messages?view=summary&limit=10"} {
		m := b.must(http.StatusOK, "GET", path, nil).Get("messages.0")
		if m.Get("body").Exists() || m.Get("cc").Exists() || m.Get("preview").String() != "the whole long body of the mail" || m.Get("caseId").String() != id {
			t.Errorf("%s: message summary %s", path, m.Raw)
		}
	}
	whole := b.must(http.StatusOK, "GET", "/api/messages", nil).Get("messages.0")
	if whole.Get("body").String() == "" {
		t.Errorf("without view the message is whole: %s", whole.Raw)
	}
	one := b.must(http.StatusOK, "GET", "/api/messages/"+whole.Get("id").String(), nil)
	if one.Get("message.body").String() != "the whole long body of the mail" {
		t.Errorf("GET /api/messages/{id}: %s", one.Raw)
	}
	b.fails(http.StatusNotFound, "M-999", "GET", "/api/messages/M-999", nil)

	feed := b.must(http.StatusOK, "GET", "/api/activity?view=summary&limit=1", nil)
	if len(feed.Get("activity").Array()) != 1 || feed.Get("nextCursor").String() == "" {
		t.Errorf("activity summary page: %s", feed.Raw)
	}
	if b.must(http.StatusOK, "GET", "/api/activity", nil).Get("nextCursor").Exists() {
		t.Error("the unpaged feed carries a cursor")
	}
	for _, path := range []string{"/api/cases?view=tiny", "/api/tree?view=x", "/api/messages?view=summaries", "/api/activity?view=1"} {
		b.fails(http.StatusBadRequest, "view", "GET", path, nil)
	}
	b.fails(http.StatusBadRequest, "cursor", "GET", "/api/activity?cursor=***", nil)
	b.fails(http.StatusBadRequest, "cursor", "GET", "/api/activity?cursor=bm9wZQ", nil)
}

func TestActivityPagesCoverTheFeed(t *testing.T) {
	b := newBoard(t)
	id := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Busy case"}, agent...).Get("case.id").String()
	for i := range 12 {
		b.must(http.StatusCreated, "POST", "/api/cases/"+id+"/notes", map[string]any{"text": fmt.Sprintf("note %d", i)})
	}
	want := map[string]bool{}
	for _, r := range b.must(http.StatusOK, "GET", "/api/activity?limit=5000", nil).Get("activity").Array() {
		want[r.Raw] = true
	}
	got := map[string]bool{}
	cursor, pages := "", 0
	for {
		page := b.must(http.StatusOK, "GET", "/api/activity?limit=5&cursor="+cursor, nil)
		for _, r := range page.Get("activity").Array() {
			if got[r.Raw] {
				t.Errorf("row %s on two pages", r.Raw)
			}
			got[r.Raw] = true
		}
		pages++
		if cursor = page.Get("nextCursor").String(); cursor == "" || pages > 10 {
			break
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pages together (-whole feed +pages)\n%s", diff)
	}
}
