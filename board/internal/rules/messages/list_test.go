package messages_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/rules/messages"
	"github.com/opsboard/opsboard/shared/wire"
)

// listDoc holds one message of each kind of link, two of them read.
func listDoc() *wire.Doc {
	return &wire.Doc{Messages: wire.ListOf([]*wire.Message{
		{ID: "MSG-1", CaseID: "CASE-1", Read: true},
		{ID: "MSG-2", ReminderID: "REM-1"},
		{ID: "MSG-3"},
		{ID: "MSG-4", CaseID: "CASE-1", ReminderID: "REM-1", Read: true},
	}...)}
}

func ptr(s string) *string { return &s }

func TestList(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    messages.Filter
		want []string
	}{
		{"no filter keeps all, in stored order", messages.Filter{}, []string{"MSG-1", "MSG-2", "MSG-3", "MSG-4"}},
		{"one case", messages.Filter{CaseID: ptr("CASE-1")}, []string{"MSG-1", "MSG-4"}},
		{"an empty case id means no case", messages.Filter{CaseID: ptr("")}, []string{"MSG-2", "MSG-3"}},
		{"unread", messages.Filter{Unread: true}, []string{"MSG-2", "MSG-3"}},
		{"unlinked", messages.Filter{Unlinked: true}, []string{"MSG-3"}},
		{"on a reminder and on the case", messages.Filter{OnReminder: true, CaseID: ptr("CASE-1")}, []string{"MSG-4"}},
		{"nothing matches: an empty list, not nil", messages.Filter{ReminderID: ptr("REM-9")}, []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := messages.List(listDoc(), tc.f)
			if got == nil {
				t.Fatal("nil list")
			}
			ids := []string{}
			for _, m := range got {
				ids = append(ids, m.ID)
			}
			if diff := cmp.Diff(tc.want, ids); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestGet(t *testing.T) {
	for _, tc := range []struct {
		id, wantErr string
	}{
		{"MSG-2", ""},
		{"MSG-9", "message MSG-9 not found"},
	} {
		t.Run(tc.id, func(t *testing.T) {
			m, err := messages.Get(listDoc(), tc.id)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("got %v, %v; want the error %q", m, err, tc.wantErr)
				}
				return
			}
			if err != nil || m.ID != tc.id {
				t.Errorf("got %v, %v; want %s", m, err, tc.id)
			}
		})
	}
}

func TestUnread(t *testing.T) {
	for _, tc := range []struct {
		name string
		doc  *wire.Doc
		want int
	}{
		{"an empty board", &wire.Doc{}, 0},
		{"two of four unread", listDoc(), 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := messages.Unread(tc.doc); got != tc.want {
				t.Errorf("got %d, want %d", got, tc.want)
			}
		})
	}
}
