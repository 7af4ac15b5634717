package correspondents_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/rules/correspondents"
	"github.com/opsboard/opsboard/shared/wire"
)

func linked(id, caseID, reminderID string, m wire.Message) *wire.Message {
	m.ID, m.CaseID, m.ReminderID = id, caseID, reminderID
	return &m
}

func TestDeriveNodes(t *testing.T) {
	doc := &wire.Doc{Messages: wire.ListOf([]*wire.Message{
		linked("MSG-1", "CASE-1", "", in("ann@x.com", "2026-01-01T10:00:00Z")),
		linked("MSG-2", "CASE-1", "", out("2026-01-01T11:00:00Z", []string{"ann@x.com"}, "bob@y.com")),
		linked("MSG-3", "", "REM-1", out("2026-01-02T09:00:00Z", []string{"cy@z.com"})),
		linked("MSG-4", "CASE-2", "", out("2026-01-03T09:00:00Z", []string{"ann@x.com"})),
		// On CASE-3 the reply is on another node: nothing to trust.
		linked("MSG-5", "CASE-3", "", in("dee@w.com", "2026-01-01T10:00:00Z")),
		linked("MSG-6", "", "REM-2", out("2026-01-01T11:00:00Z", []string{"dee@w.com", "eve@v.com"})),
	}...)}
	for _, tc := range []struct {
		name      string
		principal string
		nodes     []correspondents.Node
		want      []string
	}{
		{"a case's own messages (bob, cc on a reply, is not trusted)", me, []correspondents.Node{{CaseID: "CASE-1"}}, []string{"ann@x.com"}},
		{"a reminder's own messages", me, []correspondents.Node{{ReminderID: "REM-1"}}, []string{"cy@z.com"}},
		{"each node is judged on its own messages", me, []correspondents.Node{{CaseID: "CASE-3"}}, nil},
		{"several nodes: sorted, without repeats", me, []correspondents.Node{{CaseID: "CASE-2"}, {ReminderID: "REM-1"}, {CaseID: "CASE-1"}}, []string{"ann@x.com", "cy@z.com"}},
		{"a node naming both reads the messages of either", me, []correspondents.Node{{CaseID: "CASE-2", ReminderID: "REM-1"}}, []string{"ann@x.com", "cy@z.com"}},
		{"a zero node adds nothing", me, []correspondents.Node{{}}, nil},
		{"no principal trusts no one", "", []correspondents.Node{{CaseID: "CASE-1"}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, correspondents.DeriveNodes(doc, tc.principal, tc.nodes...)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestRelinked(t *testing.T) {
	doc := &wire.Doc{Messages: wire.ListOf([]*wire.Message{
		linked("MSG-1", "CASE-1", "REM-1", wire.Message{}),
	}...)}
	for _, tc := range []struct {
		name string
		id   string
		now  wire.Message
		want []correspondents.Node
	}{
		{"marking read links nothing new", "MSG-1", wire.Message{CaseID: "CASE-1", ReminderID: "REM-1"}, nil},
		{"a new case", "MSG-1", wire.Message{CaseID: "CASE-2", ReminderID: "REM-1"}, []correspondents.Node{{CaseID: "CASE-2"}}},
		{"a new reminder and an unlinked case", "MSG-1", wire.Message{ReminderID: "REM-2"}, []correspondents.Node{{ReminderID: "REM-2"}}},
		{"an unknown message: every link is new", "MSG-9", wire.Message{CaseID: "CASE-1", ReminderID: "REM-1"}, []correspondents.Node{{CaseID: "CASE-1"}, {ReminderID: "REM-1"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := correspondents.Relinked(correspondents.LinkOf(doc, tc.id), tc.now)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}
