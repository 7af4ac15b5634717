package api_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

// propose files a proposal as the agent and returns its id.
func propose(b *board, verb string, payload any) string {
	b.t.Helper()
	return b.must(201, "POST", "/api/pending", map[string]any{"verb": verb, "payload": payload, "summary": "agent suggests " + verb}, agent...).Get("proposal.id").String()
}

func proposalIDs(b *board) []string {
	b.t.Helper()
	return strList(b.must(200, "GET", "/api/pending", nil).Get("pending.#.id"))
}

func TestProposalValidation(t *testing.T) {
	b := newBoard(t)
	c := newCaseID(b, "Case")
	b.must(201, "POST", "/api/reminders", map[string]any{"title": "r"})
	for _, tc := range []struct {
		name string
		body map[string]any
		code int
		msg  string
	}{
		{"unknown verb", map[string]any{"verb": "rename", "payload": map[string]any{}, "summary": "s"}, 400, `unknown verb "rename": use one of archive, create_case, delete, merge, restore, set_parent, undo, update_case, update_cases, update_event, update_reminder`},
		{"no verb", map[string]any{"payload": map[string]any{}, "summary": "s"}, 400, "Field 'verb' is required."},
		{"no summary", map[string]any{"verb": "archive", "payload": map[string]any{"id": c}}, 400, "Field 'summary' is required."},
		{"no payload", map[string]any{"verb": "archive", "summary": "s"}, 400, "Field 'payload' is required"},
		{"payload not an object", map[string]any{"verb": "archive", "payload": []string{c}, "summary": "s"}, 400, "field 'payload' must be a JSON object"},
		{"payload null", map[string]any{"verb": "archive", "payload": nil, "summary": "s"}, 400, "field 'payload' must be a JSON object"},
		{"unknown payload field", map[string]any{"verb": "update_case", "payload": map[string]any{"id": c, "colour": "red"}, "summary": "s"}, 400, `payload: unknown field "colour"`},
		{"wrong payload type", map[string]any{"verb": "update_case", "payload": map[string]any{"id": c, "title": 5}, "summary": "s"}, 400, "payload: field 'title' has the wrong type"},
		{"missing id", map[string]any{"verb": "update_case", "payload": map[string]any{"status": "done"}, "summary": "s"}, 400, "payload: field 'id' is required"},
		{"expectedVersion in payload", map[string]any{"verb": "update_case", "payload": map[string]any{"id": c, "status": "done", "expectedVersion": 3}, "summary": "s"}, 400, "expectedVersion does not belong in a proposal"},
		{"invalid change", map[string]any{"verb": "update_case", "payload": map[string]any{"id": c, "status": "later"}, "summary": "s"}, 400, "field 'status' must be one of"},
		{"unknown label", map[string]any{"verb": "update_cases", "payload": map[string]any{"ids": []string{c}, "patch": map[string]any{"labels": []string{"nope"}}}, "summary": "s"}, 400, "unknown label id(s): nope"},
		{"empty batch", map[string]any{"verb": "update_cases", "payload": map[string]any{"ids": []string{}, "patch": map[string]any{}}, "summary": "s"}, 400, "field 'ids' must list at least one case id"},
		{"set_parent with more", map[string]any{"verb": "set_parent", "payload": map[string]any{"id": c, "parentId": nil, "status": "done"}, "summary": "s"}, 400, "payload of set_parent is { id, parentId }"},
		{"merge without target", map[string]any{"verb": "merge", "payload": map[string]any{"id": c}, "summary": "s"}, 400, "payload: field 'targetId' is required"},
		{"create without title", map[string]any{"verb": "create_case", "payload": map[string]any{"kind": "case"}, "summary": "s"}, 400, "Field 'title' is required."},
		{"reminder patch invalid", map[string]any{"verb": "update_reminder", "payload": map[string]any{"id": "REM-1", "dueAt": "soon"}, "summary": "s"}, 400, "field 'dueAt' must be"},
		{"unknown case", map[string]any{"verb": "archive", "payload": map[string]any{"id": "CASE-99"}, "summary": "s"}, 404, "case CASE-99 not found"},
		{"unknown reminder", map[string]any{"verb": "update_reminder", "payload": map[string]any{"id": "REM-9", "title": "x"}, "summary": "s"}, 404, "reminder REM-9 not found"},
		{"unknown event", map[string]any{"verb": "update_event", "payload": map[string]any{"id": "EVT-9", "title": "x"}, "summary": "s"}, 404, "event EVT-9 not found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sub := *b // report on the subtest
			sub.t = t
			sub.fails(tc.code, tc.msg, "POST", "/api/pending", tc.body, agent...)
		})
	}
	// set_parent is the leaf move; a container moves with update_case.
	ini := newCaseID(b, "Initiative", "initiative")
	ws := b.must(201, "POST", "/api/cases", map[string]any{"title": "WS", "kind": "workstream", "parentId": ini}).Get("case.id").String()
	other := newCaseID(b, "Other initiative", "initiative")
	b.fails(400, "set_parent moves leaf cases only", "POST", "/api/pending", map[string]any{"verb": "set_parent", "payload": map[string]any{"id": ws, "parentId": other}, "summary": "s"})
	if got := proposalIDs(b); len(got) != 0 {
		t.Errorf("refused proposals were kept: %v", got)
	}
	b.fails(404, "proposal PROP-1 not found", "POST", "/api/pending/PROP-1/approve", nil)
	b.fails(400, "unknown field", "POST", "/api/pending/PROP-1/approve", map[string]any{"force": true})
	b.fails(404, "proposal PROP-1 not found", "POST", "/api/pending/PROP-1/reject", nil)
}

func TestApproveCommitsEachVerbAsTheProposer(t *testing.T) {
	b := newBoard(t)
	ini := newCaseID(b, "Initiative", "initiative")
	ws := b.must(201, "POST", "/api/cases", map[string]any{"title": "WS", "kind": "workstream", "parentId": ini}).Get("case.id").String()
	a, c, d, m := newCaseID(b, "A"), newCaseID(b, "B"), newCaseID(b, "D"), newCaseID(b, "Merge me")
	b.must(201, "POST", "/api/reminders", map[string]any{"title": "Remind", "caseId": a})
	b.must(201, "POST", "/api/events", map[string]any{"title": "Meet", "date": "2026-02-02", "caseId": a})
	for _, tc := range []struct {
		verb    string
		payload map[string]any
		check   func(t *testing.T, result gjson.Result)
	}{
		{"update_case", map[string]any{"id": a, "status": "in_progress", "summary": "now"}, func(t *testing.T, r gjson.Result) {
			if r.Get("case.status").String() != "in_progress" || r.Get("case.activity.@reverse.0.actor").String() != "agent" {
				t.Errorf("%s", r.Raw)
			}
		}},
		{"update_cases", map[string]any{"ids": []string{a, c}, "patch": map[string]any{"labels": []string{"blocked"}}}, func(t *testing.T, r gjson.Result) {
			if r.Get("cases.#.labels.0").String() != `["blocked","blocked"]` {
				t.Errorf("%s", r.Raw)
			}
		}},
		{"set_parent", map[string]any{"id": c, "parentId": ws}, func(t *testing.T, r gjson.Result) {
			if r.Get("case.parentId").String() != ws {
				t.Errorf("%s", r.Raw)
			}
		}},
		{"archive", map[string]any{"id": d}, func(t *testing.T, r gjson.Result) {
			if r.Get("case.archivedAt").String() == "" {
				t.Errorf("%s", r.Raw)
			}
		}},
		{"restore", map[string]any{"id": d}, func(t *testing.T, r gjson.Result) {
			if r.Get("case.archivedAt").Exists() {
				t.Errorf("%s", r.Raw)
			}
		}},
		{"merge", map[string]any{"id": m, "targetId": a}, func(t *testing.T, r gjson.Result) {
			if r.Get("case.id").String() != a || r.Get("case.activity.@reverse.0.verb").String() != "merged_from" {
				t.Errorf("%s", r.Raw)
			}
		}},
		{"create_case", map[string]any{"title": "Proposed", "parentId": ini}, func(t *testing.T, r gjson.Result) {
			if r.Get("case.parentId").String() != ini || r.Get("case.activity.0.actor").String() != "agent" {
				t.Errorf("%s", r.Raw)
			}
		}},
		{"update_reminder", map[string]any{"id": "REM-1", "status": "done"}, func(t *testing.T, r gjson.Result) {
			if r.Get("reminder.completedBy").String() != "agent" {
				t.Errorf("%s", r.Raw)
			}
		}},
		{"update_event", map[string]any{"id": "EVT-1", "startTime": "09:00"}, func(t *testing.T, r gjson.Result) {
			if r.Get("event.startTime").String() != "09:00" {
				t.Errorf("%s", r.Raw)
			}
		}},
		{"delete", map[string]any{"id": d}, func(t *testing.T, r gjson.Result) {
			if !r.Get("ok").Bool() || r.Get("deleted").String() != d {
				t.Errorf("%s", r.Raw)
			}
		}},
	} {
		t.Run(tc.verb, func(t *testing.T) {
			id := propose(b, tc.verb, tc.payload)
			v := b.Store.Version()
			res := b.must(200, "POST", "/api/pending/"+id+"/approve", nil) // the human approves
			if res.Get("version").Int() != v+1 || b.Store.Version() != v+1 {
				t.Errorf("approve took versions %d -> %d, want one write", v, b.Store.Version())
			}
			if res.Get("proposal.id").String() != id || res.Get("proposal.verb").String() != tc.verb {
				t.Errorf("approve answer %s", res.Raw)
			}
			tc.check(t, res.Get("result"))
			if got := proposalIDs(b); len(got) != 0 {
				t.Errorf("approved proposal still pending: %v", got)
			}
		})
	}
	// Attribution went to the proposer on every node it touched, the
	// reminder's and event's linked case included.
	got := caseVerbs(b, a)
	if diff := cmp.Diff([]string{"agent reminder_completed", "agent event_updated"}, got[len(got)-2:]); diff != "" {
		t.Errorf("linked case activity (-want +got)\n%s", diff)
	}
	b.fails(404, "case "+d+" not found", "GET", "/api/cases/"+d, nil)
}

func TestProposalAttributionFromPayloadActor(t *testing.T) {
	b := newBoard(t)
	c := newCaseID(b, "x")
	id := b.must(201, "POST", "/api/pending", map[string]any{"verb": "update_case", "payload": map[string]any{"id": c, "status": "done", "actor": "agent"}, "summary": "close it"}).Get("proposal")
	if id.Get("actor").String() != "agent" {
		t.Errorf("proposal actor %s", id.Raw)
	}
	b.must(200, "POST", "/api/pending/"+id.Get("id").String()+"/approve", map[string]any{})
	if got := caseVerbs(b, c); got[len(got)-1] != "agent status_changed" {
		t.Errorf("activity %v", got)
	}
}

func TestProposalsShowWhatChangedSince(t *testing.T) {
	b := newBoard(t)
	c := newCaseID(b, "Quarterly report")
	id := propose(b, "update_case", map[string]any{"id": c, "status": "done", "title": "Quarterly report (sent)"})
	p := b.must(200, "GET", "/api/pending", nil).Get("pending.0")
	if p.Get("target").String() != c || p.Get("targetUpdatedAt").String() == "" || p.Get("before").Raw != `{"status":"todo","title":"Quarterly report"}` {
		t.Errorf("recorded before %s", p.Raw)
	}
	if p.Get("changedSince").Bool() || p.Get("targets.0.changedFields").Exists() || p.Get("actor").String() != "agent" || p.Get("summary").String() != "agent suggests update_case" {
		t.Errorf("fresh proposal %s", p.Raw)
	}
	// The human moves the case meanwhile.
	b.must(200, "PATCH", "/api/cases/"+c, map[string]any{"status": "waiting_for_input"})
	p = b.must(200, "GET", "/api/pending", nil).Get("pending.0")
	if !p.Get("changedSince").Bool() || p.Get("targets.0.current.status").String() != "waiting_for_input" || p.Get("targets.0.changedFields").Raw != `["status"]` {
		t.Errorf("after the human's change %s", p.Raw)
	}
	// A stale approval is refused and changes nothing.
	b.fails(409, "version conflict", "POST", "/api/pending/"+id+"/approve", map[string]any{"expectedVersion": b.Store.Version() - 1})
	// Rejecting discards it and commits nothing.
	b.fails(409, "version conflict", "POST", "/api/pending/"+id+"/reject", map[string]any{"expectedVersion": 1})
	res := b.must(200, "POST", "/api/pending/"+id+"/reject", nil)
	if !res.Get("ok").Bool() || res.Get("proposal.id").String() != id || res.Get("version").Int() != b.Store.Version() {
		t.Errorf("reject answer %s", res.Raw)
	}
	if got := b.must(200, "GET", "/api/cases/"+c, nil).Get("case.status").String(); got != "waiting_for_input" {
		t.Errorf("reject committed something: status %s", got)
	}
	if len(proposalIDs(b)) != 0 {
		t.Error("rejected proposal still pending")
	}
}

func TestApproveVanishedTargetKeepsProposal(t *testing.T) {
	b := newBoard(t)
	src, dst := newCaseID(b, "src"), newCaseID(b, "dst")
	merge := propose(b, "merge", map[string]any{"id": src, "targetId": dst})
	edit := propose(b, "update_case", map[string]any{"id": src, "labels": []string{"follow-up"}})
	b.must(200, "DELETE", "/api/cases/"+dst+"?hard=1", nil)
	b.fails(404, "case "+dst+" not found", "POST", "/api/pending/"+merge+"/approve", nil)
	p := b.must(200, "GET", "/api/pending", nil).Get("pending.0")
	if p.Get("id").String() != merge || !p.Get("targetGone").Bool() || !p.Get("targets.1.gone").Bool() || p.Get("targets.0.gone").Bool() {
		t.Errorf("after the target vanished %s", p.Raw)
	}
	// A proposal that no longer validates stays pending too.
	b.must(200, "DELETE", "/api/labels/follow-up", nil)
	b.fails(400, "unknown label id(s): follow-up", "POST", "/api/pending/"+edit+"/approve", nil)
	if diff := cmp.Diff([]string{merge, edit}, proposalIDs(b)); diff != "" {
		t.Errorf("pending (-want +got)\n%s", diff)
	}
	// A create whose exact match appeared meanwhile answers with it and
	// still leaves the queue.
	create := propose(b, "create_case", map[string]any{"title": "Hire designer", "dedupe": true})
	existing := newCaseID(b, "hire  designer")
	res := b.must(200, "POST", "/api/pending/"+create+"/approve", nil)
	if res.Get("result.case.id").String() != existing || !res.Get("result.existing").Bool() {
		t.Errorf("dedupe on approval %s", res.Raw)
	}
	if diff := cmp.Diff([]string{merge, edit}, proposalIDs(b)); diff != "" {
		t.Errorf("pending after the create (-want +got)\n%s", diff)
	}
}
