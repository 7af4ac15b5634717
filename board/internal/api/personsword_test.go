package api_test

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestPersonsWordOnEveryRecord: the person's change to a priority note, a
// message, a label, a saved view and a template stands against the agent
// as a case's does, and the refusal carries the person's value.
func TestPersonsWordOnEveryRecord(t *testing.T) {
	clk := &clock{t: time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)}
	b := newBoard(t, storeClock(clk))
	c := newCaseID(b, "Lease")
	other := newCaseID(b, "Deposit")
	pr := b.must(http.StatusCreated, "POST", "/api/priorities", map[string]any{"text": "Health first"}).Get("priority.id").String()
	msg := b.must(http.StatusCreated, "POST", "/api/messages", map[string]any{"from": "a@example.com", "subject": "Keys", "body": "hi"}).Get("message.id").String()
	rem := b.must(http.StatusCreated, "POST", "/api/reminders", map[string]any{"title": "Pay", "dueAt": "2026-12-01"}).Get("reminder.id").String()
	lbl := b.must(http.StatusCreated, "POST", "/api/labels", map[string]any{"title": "Hiring", "description": "Ours."}).Get("label.id").String()
	view := b.must(http.StatusCreated, "POST", "/api/views", map[string]any{"name": "Mine", "filters": map[string]any{"q": "x"}}).Get("view.id").String()
	tpl := b.must(http.StatusCreated, "POST", "/api/templates", map[string]any{"name": "Move", "title": "Move"}).Get("template.id").String()

	// The agent may change what the person left alone: creating sets nothing.
	b.must(http.StatusOK, "PATCH", "/api/priorities/"+pr, map[string]any{"text": "Health first, always"}, agent...)

	// The person's changes.
	b.must(http.StatusOK, "PATCH", "/api/priorities/"+pr, map[string]any{"text": "Sleep first", "position": 2})
	b.must(http.StatusOK, "PATCH", "/api/messages/"+msg, map[string]any{"read": true, "caseId": c, "reminderId": rem})
	b.must(http.StatusOK, "PATCH", "/api/labels/"+lbl, map[string]any{"description": "People we hire."})
	b.must(http.StatusOK, "PATCH", "/api/views/"+view, map[string]any{"name": "Mine now"})
	b.must(http.StatusOK, "PATCH", "/api/templates/"+tpl, map[string]any{"summary": "Boxes"})

	refusedRevert(t, b, "PATCH", "/api/priorities/"+pr, map[string]any{"text": "Agent first"}, "text")
	refusedRevert(t, b, "PATCH", "/api/priorities/"+pr, map[string]any{"position": 1}, "position")
	refusedRevert(t, b, "PATCH", "/api/messages/"+msg, map[string]any{"read": false}, "read")
	refusedRevert(t, b, "PATCH", "/api/messages/"+msg, map[string]any{"caseId": other}, "caseId")
	refusedRevert(t, b, "PATCH", "/api/messages/"+msg, map[string]any{"reminderId": nil}, "reminderId")
	refusedRevert(t, b, "PATCH", "/api/labels/"+lbl, map[string]any{"description": "Agent words."}, "description")
	refusedRevert(t, b, "PATCH", "/api/views/"+view, map[string]any{"name": "Agent's"}, "name")
	refusedRevert(t, b, "PATCH", "/api/templates/"+tpl, map[string]any{"summary": nil}, "summary")

	r := b.do("PATCH", "/api/messages/"+msg, map[string]any{"caseId": other}, agent...)
	if got := r.Body.Get("humanChange.value").String(); got != c {
		t.Errorf("humanChange.value %q, want the person's case %s: %s", got, c, r.Raw)
	}
	if msg := r.Body.Get("error").String(); !strings.Contains(msg, "add a note") {
		t.Errorf("the refusal does not say to add a note: %q", msg)
	}

	// Past the default week a new value goes through, a revert never does.
	clk.add(8 * 24 * time.Hour)
	b.must(http.StatusOK, "PATCH", "/api/labels/"+lbl, map[string]any{"description": "Agent words."}, agent...)
	refusedRevert(t, b, "PATCH", "/api/priorities/"+pr, map[string]any{"text": "Health first, always"}, "text")
	refusedRevert(t, b, "PATCH", "/api/messages/"+msg, map[string]any{"read": false}, "read")

	// override is logged on the message's case.
	b.must(http.StatusOK, "PATCH", "/api/messages/"+msg, map[string]any{"read": false, "override": true}, agent...)
	log := b.must(http.StatusOK, "GET", "/api/cases/"+c, nil).Get("case.activity").Array()
	if last := log[len(log)-1]; last.Get("verb").String() != "override" || !strings.Contains(last.Get("detail").String(), msg) {
		t.Errorf("the override is not logged: %s", last.Raw)
	}
}

// TestHumanEditWindowPreference: the window is whole days 0..90; 0 leaves
// only the rule against a revert.
func TestHumanEditWindowPreference(t *testing.T) {
	b := newBoard(t)
	for _, bad := range []any{-1, 91, 1.5, "7", true} {
		b.fails(http.StatusBadRequest, "humanEditWindow", "PATCH", "/api/prefs", map[string]any{"humanEditWindow": bad})
	}
	b.must(http.StatusOK, "PATCH", "/api/prefs", map[string]any{"humanEditWindow": 0})
	c := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Lease", "status": "todo"}).Get("case.id").String()
	b.must(http.StatusOK, "PATCH", "/api/cases/"+c, map[string]any{"status": "waiting_for_input"})
	b.must(http.StatusOK, "PATCH", "/api/cases/"+c, map[string]any{"status": "done"}, agent...)
	b.must(http.StatusOK, "PATCH", "/api/cases/"+c, map[string]any{"status": "todo"})
	refusedRevert(t, b, "PATCH", "/api/cases/"+c, map[string]any{"status": "done"}, "status")
}

// TestApprovedProposalIsThePersonsWord: an approved proposal goes through
// whatever the person changed, stays the proposer's in the log, and what
// it sets then stands against the agent.
func TestApprovedProposalIsThePersonsWord(t *testing.T) {
	b := newBoard(t)
	c := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Lease", "status": "todo"}).Get("case.id").String()
	b.must(http.StatusOK, "PATCH", "/api/cases/"+c, map[string]any{"status": "waiting_for_input"})
	id := propose(b, "update_case", map[string]any{"id": c, "status": "todo"})
	b.must(http.StatusOK, "POST", "/api/pending/"+id+"/approve", nil)
	got := b.must(http.StatusOK, "GET", "/api/cases/"+c, nil)
	if got.Get("case.status").String() != "todo" || got.Get("case.humanEdits.status.was").String() != "waiting_for_input" {
		t.Errorf("after the approval: status %s, humanEdits %s", got.Get("case.status"), got.Get("case.humanEdits").Raw)
	}
	log := got.Get("case.activity").Array()
	if last := log[len(log)-1]; last.Get("actor").String() != "agent" {
		t.Errorf("the approved change is not the proposer's: %s", last.Raw)
	}
	refusedRevert(t, b, "PATCH", "/api/cases/"+c, map[string]any{"status": "waiting_for_input"}, "status")
}

// TestAgentMayNotDeleteThePersonsRecentWork: a delete undoes every change
// at once, so the agent may not delete what the person changed within the
// window; past it, it may.
func TestAgentMayNotDeleteThePersonsRecentWork(t *testing.T) {
	clk := &clock{t: time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)}
	b := newBoard(t, storeClock(clk))
	c := newCaseID(b, "Lease")
	pr := b.must(http.StatusCreated, "POST", "/api/priorities", map[string]any{"text": "Health first"}).Get("priority.id").String()
	evt := b.must(http.StatusCreated, "POST", "/api/events", map[string]any{"title": "Visit", "date": "2026-12-02"}).Get("event.id").String()
	fresh := newCaseID(b, "Untouched")
	b.must(http.StatusOK, "PATCH", "/api/cases/"+c, map[string]any{"summary": "mine"})
	b.must(http.StatusOK, "PATCH", "/api/priorities/"+pr, map[string]any{"text": "Sleep first"})
	b.must(http.StatusOK, "PATCH", "/api/events/"+evt, map[string]any{"location": "Office"})

	refusedRevert(t, b, "DELETE", "/api/cases/"+c+"?hard=true", nil, "summary")
	refusedRevert(t, b, "DELETE", "/api/priorities/"+pr, nil, "text")
	refusedRevert(t, b, "DELETE", "/api/events/"+evt, nil, "location")
	b.must(http.StatusOK, "DELETE", "/api/cases/"+fresh+"?hard=true", nil, agent...)

	clk.add(8 * 24 * time.Hour)
	b.must(http.StatusOK, "DELETE", "/api/priorities/"+pr, nil, agent...)
	b.must(http.StatusOK, "DELETE", "/api/events/"+evt, nil, agent...)
}

// TestOverrideOfACaselessRecordIsLogged: a priority note, a label, a view
// and a template belong to no case, and their overrides still show in
// Activity, as the agent's, naming the record.
func TestOverrideOfACaselessRecordIsLogged(t *testing.T) {
	b := newBoard(t)
	pr := b.must(http.StatusCreated, "POST", "/api/priorities", map[string]any{"text": "Health first"}).Get("priority.id").String()
	lbl := b.must(http.StatusCreated, "POST", "/api/labels", map[string]any{"title": "Hiring", "description": "Ours."}).Get("label.id").String()
	view := b.must(http.StatusCreated, "POST", "/api/views", map[string]any{"name": "Mine", "filters": map[string]any{"q": "x"}}).Get("view.id").String()
	tpl := b.must(http.StatusCreated, "POST", "/api/templates", map[string]any{"name": "Move", "title": "Move"}).Get("template.id").String()
	b.must(http.StatusOK, "PATCH", "/api/priorities/"+pr, map[string]any{"text": "Sleep first"})
	b.must(http.StatusOK, "PATCH", "/api/labels/"+lbl, map[string]any{"description": "People we hire."})
	b.must(http.StatusOK, "PATCH", "/api/views/"+view, map[string]any{"name": "Mine now"})
	b.must(http.StatusOK, "PATCH", "/api/templates/"+tpl, map[string]any{"summary": "Boxes"})

	b.must(http.StatusOK, "PATCH", "/api/priorities/"+pr, map[string]any{"text": "Agent first", "override": true}, agent...)
	b.must(http.StatusOK, "PATCH", "/api/labels/"+lbl, map[string]any{"description": "Agent words.", "override": true}, agent...)
	b.must(http.StatusOK, "PATCH", "/api/views/"+view, map[string]any{"name": "Agent's", "override": true}, agent...)
	b.must(http.StatusOK, "PATCH", "/api/templates/"+tpl, map[string]any{"summary": nil, "override": true}, agent...)

	logged := map[string]bool{}
	for _, row := range b.must(http.StatusOK, "GET", "/api/activity?actor=agent", nil).Get("activity").Array() {
		if row.Get("verb").String() == "override" {
			id, _, _ := strings.Cut(row.Get("detail").String(), " ")
			logged[id] = true
		}
	}
	for _, id := range []string{pr, lbl, view, tpl} {
		if !logged[id] {
			t.Errorf("the override of %s is not in Activity: %v", id, logged)
		}
	}
}
