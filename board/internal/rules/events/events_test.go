package events

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

func calendar() *wire.Doc {
	return &wire.Doc{
		Cases: wire.ListOf([]*wire.Case{{ID: "CASE-1", Title: "one", Kind: "case"}, {ID: "CASE-2", Title: "two", Kind: "case"}}...),
		Events: wire.ListOf([]*wire.Event{
			{ID: "EVT-1", Title: "late", Date: "2026-03-02", StartTime: "15:00", CaseID: "CASE-1", Domain: "work"},
			{ID: "EVT-2", Title: "all day", Date: "2026-03-02", AllDay: true, StartTime: "23:00", Domain: "life"},
			{ID: "EVT-3", Title: "early", Date: "2026-03-02", StartTime: "08:00", CaseID: "CASE-1", Domain: "work"},
			{ID: "EVT-4", Title: "before", Date: "2026-03-01", StartTime: "20:00", Domain: "work"},
		}...),
		Counters: map[string]int64{"CASE": 2, "EVT": 4},
	}
}

func TestList(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    Filter
		want []string
		err  string
	}{
		{"by day, all-day first, then by start", Filter{}, []string{"EVT-4", "EVT-2", "EVT-3", "EVT-1"}, ""},
		{"from is inclusive, to exclusive", Filter{From: "2026-03-01", To: "2026-03-02"}, []string{"EVT-4"}, ""},
		{"by case", Filter{CaseID: "CASE-1", CaseGiven: true}, []string{"EVT-3", "EVT-1"}, ""},
		{"standalone only", Filter{CaseGiven: true}, []string{"EVT-4", "EVT-2"}, ""},
		{"by domain", Filter{Domain: "life"}, []string{"EVT-2"}, ""},
		{"a bad day", Filter{From: "March"}, nil, `query 'from' must be a day YYYY-MM-DD, not "March"`},
		{"a bad domain", Filter{Domain: "play"}, nil, "query 'domain' must be one of work, life"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := List(calendar(), tc.f)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			var ids []string
			for _, e := range got {
				ids = append(ids, e.ID)
			}
			if diff := cmp.Diff(tc.want, ids); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestPatchTxLogsOnTheLinkedCases(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name  string
		patch wire.EventPatch
		logs  map[string][]string // case id: verb and detail of what it logged
		err   string
	}{
		{"an edit logs event_updated with the fields", wire.EventPatch{Title: wire.Some("later"), StartTime: wire.Some("16:00")},
			map[string][]string{"CASE-1": {"event_updated EVT-1 later: title, startTime"}}, ""},
		{"a relink logs on both cases", wire.EventPatch{CaseID: wire.Some("CASE-2")},
			map[string][]string{"CASE-1": {"event_unlinked EVT-1 late"}, "CASE-2": {"event_linked EVT-1 late"}}, ""},
		{"no change logs nothing", wire.EventPatch{Title: wire.Some("late")}, map[string][]string{}, ""},
		{"a link to no case", wire.EventPatch{CaseID: wire.Some("CASE-9")}, nil, "field 'caseId': case CASE-9 not found"},
		{"a bad clock", wire.EventPatch{EndTime: wire.Some("25:00")}, nil, "field 'endTime' must be a 24-hour time HH:MM"},
		{"an empty title", wire.EventPatch{Title: wire.Null[string]()}, nil, "field 'title' cannot be empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tx := store.Scratch(calendar(), now, wire.ActorHuman)
			_, err := PatchTx(tx, "EVT-1", tc.patch)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := map[string][]string{}
			for _, c := range tx.Doc().Cases.All() {
				for _, a := range c.Activity {
					got[c.ID] = append(got[c.ID], string(a.Verb)+" "+a.Detail)
				}
			}
			if diff := cmp.Diff(tc.logs, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}
