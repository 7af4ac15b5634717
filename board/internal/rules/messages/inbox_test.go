package messages

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/shared/wire"
)

func ids(ms []*wire.Message) []string {
	out := []string{}
	for _, m := range ms {
		out = append(out, m.ID)
	}
	return out
}

func TestPage(t *testing.T) {
	empty := ""
	all := []*wire.Message{
		{ID: "M-1", ReceivedAt: "2026-11-01T09:00:00Z", CaseID: "CASE-1", Read: true},
		{ID: "M-2", ReceivedAt: "2026-11-03", ReminderID: "REM-1"},
		{ID: "M-3", ReceivedAt: "2026-11-02T09:00:00Z"},
		{ID: "M-4", ReceivedAt: "2026-11-02T09:00:00Z", Read: true},
		{ID: "M-5", ReceivedAt: "not a date"},
		{ID: "M-10", ReceivedAt: "2026-11-02T09:00:00Z"},
	}
	for _, tc := range []struct {
		name  string
		f     Filter
		limit int
		want  [][]string // the pages, walked with the cursors
	}{
		{"newest first, ties by id, unparseable dates last", Filter{}, 2, [][]string{{"M-2", "M-10"}, {"M-4", "M-3"}, {"M-1", "M-5"}}},
		{"one page when it fits", Filter{}, 50, [][]string{{"M-2", "M-10", "M-4", "M-3", "M-1", "M-5"}}},
		{"unread", Filter{Unread: true}, 3, [][]string{{"M-2", "M-10", "M-3"}, {"M-5"}}},
		{"unlinked", Filter{Unlinked: true}, 10, [][]string{{"M-10", "M-4", "M-3", "M-5"}}},
		{"not linked to a case", Filter{CaseID: &empty}, 10, [][]string{{"M-2", "M-10", "M-4", "M-3", "M-5"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got [][]string
			cursor := ""
			for range 10 {
				page, next, err := Page(all, tc.f, cursor, tc.limit)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, ids(page))
				if next == "" {
					break
				}
				cursor = next
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestPageIsStableUnderInserts(t *testing.T) {
	all := []*wire.Message{
		{ID: "M-1", ReceivedAt: "2026-11-01T09:00:00Z"},
		{ID: "M-2", ReceivedAt: "2026-11-02T09:00:00Z"},
		{ID: "M-3", ReceivedAt: "2026-11-03T09:00:00Z"},
	}
	page, next, err := Page(all, Filter{}, "", 2)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"M-3", "M-2"}, ids(page)); diff != "" {
		t.Fatalf("first page (-want +got)\n%s", diff)
	}
	// A newer message and one older than the cursor arrive between calls.
	all = append(all, &wire.Message{ID: "M-4", ReceivedAt: "2026-11-04T09:00:00Z"}, &wire.Message{ID: "M-5", ReceivedAt: "2026-10-01T09:00:00Z"})
	page, _, err = Page(all, Filter{}, next, 2)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"M-1", "M-5"}, ids(page)); diff != "" {
		t.Errorf("second page (-want +got)\n%s", diff)
	}
}

func TestPageRefusals(t *testing.T) {
	for _, tc := range []struct {
		cursor string
		limit  int
		want   string
	}{
		{"", 0, "query 'limit' must be between 1 and 200"},
		{"", 201, "query 'limit' must be between 1 and 200"},
		{"%%%", 10, "query 'cursor' is not a cursor"},
		{"bm9wZQ", 10, "query 'cursor' is not a cursor"},
	} {
		_, _, err := Page(nil, Filter{}, tc.cursor, tc.limit)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("cursor %q limit %d: error %v, want %q", tc.cursor, tc.limit, err, tc.want)
		}
	}
}
