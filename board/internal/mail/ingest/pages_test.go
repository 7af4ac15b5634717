package ingest

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/shared/wire"
)

func TestPageRoutes(t *testing.T) {
	cases := []wire.Case{
		{ID: "CASE-1", Status: wire.LaneTodo, VaultLinks: []string{"V-1", "V-4"}},
		{ID: "CASE-2", Status: wire.LaneInProgress, VaultLinks: []string{"V-2", "V-4"}},
		{ID: "CASE-3", Status: wire.LaneDone, VaultLinks: []string{"V-1", "V-3"}},
		{ID: "CASE-4", Status: wire.LaneTodo, ArchivedAt: "2026-01-01T00:00:00Z", VaultLinks: []string{"V-3"}},
		{ID: "CASE-5", Status: wire.LaneTodo, VaultLinks: []string{"V-5", "V-6", "V-7"}},
	}
	pages := []wire.PageSummary{
		{ID: "V-1", Type: wire.PagePerson, Emails: []string{"Ann@X.example"}},                  // one open case (CASE-3 is done)
		{ID: "V-2", Type: wire.PagePerson, Emails: []string{"bob@x.example", "b@y.example"}},   // one open case, two addresses
		{ID: "V-3", Type: wire.PagePerson, Emails: []string{"cy@x.example"}},                   // only done and archived cases
		{ID: "V-4", Type: wire.PagePerson, Emails: []string{"dee@x.example"}},                  // two open cases
		{ID: "V-5", Type: wire.PageOrganization, Emails: []string{"org@x.example"}},            // not a person
		{ID: "V-6", Type: wire.PagePerson, Emails: []string{"eve@x.example"}, Broken: "bad"},   // broken pages say nothing
		{Type: wire.PagePerson, Emails: []string{"fay@x.example"}},                             // no id: nothing links it
		{ID: "V-7", Type: wire.PagePerson, Emails: []string{"gus@x.example"}},                  // one open case
		{ID: "V-8", Type: wire.PagePerson, Emails: []string{"gus@x.example", "hal@x.example"}}, // unlinked duplicate of gus
		{ID: "V-9", Type: wire.PagePerson, Emails: []string{"ann@x.example"}},                  // a second page for ann, linked from no case
	}
	want := map[string]string{
		"ann@x.example": "CASE-1",
		"bob@x.example": "CASE-2",
		"b@y.example":   "CASE-2",
		"gus@x.example": "CASE-5",
	}
	if diff := cmp.Diff(want, pageRoutes(pages, cases)); diff != "" {
		t.Errorf("pageRoutes (-want +got)\n%s", diff)
	}
}

func TestRouteByPersonPage(t *testing.T) {
	cases := []wire.Case{
		{ID: "CASE-1", Status: wire.LaneTodo},
		{ID: "CASE-2", Status: wire.LaneTodo, VaultLinks: []string{"V-1"}},
	}
	msgs := []wire.Message{
		{ID: "M-1", From: "ann@x.example", MessageID: "a1@x", CaseID: "CASE-1"},
		{ID: "M-2", From: "bob@x.example", CaseID: "CASE-1"},
	}
	pages := []wire.PageSummary{{ID: "V-1", Type: wire.PagePerson, Emails: []string{"ann@x.example", "cat@x.example"}}}
	r := newRouter(cases, nil, msgs)
	r.byPage = pageRoutes(pages, cases)
	for _, tc := range []struct {
		name      string
		inReplyTo string
		from      string
		want      node
	}{
		{"the thread step comes first", "a1@x", "Ann <ann@x.example>", node{caseID: "CASE-1"}},
		{"the person page's case beats the case the sender appears on", "", "Ann <ann@x.example>", node{caseID: "CASE-2"}},
		{"a page address never seen on the board", "", "CAT@x.example", node{caseID: "CASE-2"}},
		{"a sender without a page still routes by appearance", "", "bob@x.example", node{caseID: "CASE-1"}},
		{"a stranger goes to the Inbox", "", "zed@x.example", node{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := r.route(tc.inReplyTo, nil, "", tc.from); got != tc.want {
				t.Errorf("route = %+v, want %+v", got, tc.want)
			}
		})
	}
}
