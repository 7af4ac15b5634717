package api_test

import (
	"strings"
	"testing"
)

// TestApprovalNamesProposerAndApprover: the approve route refuses no actor
// (identity is attribution, not access control), and the change's entry
// stays the proposer's while naming the proposal and who approved it. A
// proposal in the tools' spelling (merge's sourceId) approves too.
func TestApprovalNamesProposerAndApprover(t *testing.T) {
	b := newBoard(t)
	c := newCaseID(b, "Desks")
	id := propose(b, "update_case", map[string]any{"id": c, "status": "done"})
	b.must(200, "POST", "/api/pending/"+id+"/approve", nil, agent...)
	entries := b.must(200, "GET", "/api/cases/"+c, nil).Get("case.activity").Array()
	last := entries[len(entries)-1]
	if last.Get("actor").String() != "agent" || last.Get("verb").String() != "status_changed" ||
		!strings.Contains(last.Get("detail").String(), id+" update_case: proposed by agent, approved by agent") {
		t.Errorf("agent-approved entry %s", last.Raw)
	}

	src, dst := newCaseID(b, "Movers (dup)"), newCaseID(b, "Movers")
	merge := propose(b, "merge", map[string]any{"sourceId": src, "targetId": dst})
	b.must(200, "POST", "/api/pending/"+merge+"/approve", nil)
	if got := b.must(200, "GET", "/api/cases/"+src, nil).Get("case.mergedInto").String(); got != dst {
		t.Errorf("%s merged into %q, want %s", src, got, dst)
	}
	var named bool
	for _, e := range b.must(200, "GET", "/api/cases/"+dst, nil).Get("case.activity").Array() {
		named = named || strings.Contains(e.Get("detail").String(), merge+" merge: proposed by agent, approved by human")
	}
	if !named {
		t.Errorf("the merge target does not name the approval")
	}
}
