package reminders

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

func TestReminderTasks(t *testing.T) {
	cur := []wire.ReminderTask{{ID: "REM-4-T1", Title: "a"}, {ID: "REM-4-T3", Title: "c", Done: true}}
	for _, tc := range []struct {
		name string
		cur  []wire.ReminderTask
		in   []wire.ReminderTaskInput
		want []wire.ReminderTask
		err  string
	}{
		{"fresh rows are numbered from 1", nil, []wire.ReminderTaskInput{{Title: "x"}, {Title: " y "}},
			[]wire.ReminderTask{{ID: "REM-4-T1", Title: "x"}, {ID: "REM-4-T2", Title: "y"}}, ""},
		{"new rows continue from the highest id", cur, []wire.ReminderTaskInput{{Title: "d"}, {ID: "REM-4-T1", Title: "a", Done: true}},
			[]wire.ReminderTask{{ID: "REM-4-T4", Title: "d"}, {ID: "REM-4-T1", Title: "a", Done: true}}, ""},
		{"dropping the highest still does not reuse its id", cur, []wire.ReminderTaskInput{{ID: "REM-4-T1", Title: "a"}, {Title: "new"}},
			[]wire.ReminderTask{{ID: "REM-4-T1", Title: "a"}, {ID: "REM-4-T4", Title: "new"}}, ""},
		{"empty titles are dropped", cur, []wire.ReminderTaskInput{{Title: "  "}, {ID: "REM-4-T3", Title: ""}}, nil, ""},
		{"empty input is nil", cur, nil, nil, ""},
		{"a foreign id is refused", cur, []wire.ReminderTaskInput{{ID: "REM-5-T1", Title: "x"}}, nil, "task REM-5-T1 is not on REM-4"},
		{"a repeated id is refused", cur, []wire.ReminderTaskInput{{ID: "REM-4-T1", Title: "x"}, {ID: "REM-4-T1", Title: "y"}}, nil, "listed twice"},
	} {
		got, err := reminderTasks("REM-4", tc.cur, tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got)\n%s", tc.name, diff)
		}
	}
}

func TestReminderMessagesOrder(t *testing.T) {
	d := &wire.Doc{Messages: wire.ListOf([]*wire.Message{
		{ID: "M-1", ReminderID: "REM-1", ReceivedAt: "garbage"},
		{ID: "M-2", ReminderID: "REM-1", ReceivedAt: "2026-01-01"},
		{ID: "M-3", ReminderID: "REM-2", ReceivedAt: "2027-01-01"},
		{ID: "M-4", ReminderID: "REM-1", ReceivedAt: "2026-01-01T12:00:00+02:00"}, // 10:00 UTC, after M-2
		{ID: "M-5", ReminderID: "REM-1", ReceivedAt: ""},
		{ID: "M-6", ReminderID: "REM-1", ReceivedAt: "Thu, 01 Jan 2026 11:00:00 +0000"},
	}...)}
	var got []string
	for _, m := range Messages(d, "REM-1") {
		got = append(got, m.ID)
	}
	if diff := cmp.Diff([]string{"M-6", "M-4", "M-2", "M-1", "M-5"}, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestPatchTxStatus(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	doc := func(status wire.ReminderStatus) *wire.Doc {
		r := &wire.Reminder{ID: "REM-1", Title: "chase", Status: status, CaseID: "CASE-1", UpdatedAt: "then"}
		if status == "done" {
			r.CompletedAt, r.CompletedBy = "then", wire.ActorHuman
		}
		return &wire.Doc{Cases: wire.ListOf([]*wire.Case{{ID: "CASE-1", Kind: "case"}}...), Reminders: wire.ListOf([]*wire.Reminder{r}...)}
	}
	for _, tc := range []struct {
		name      string
		from, to  wire.ReminderStatus
		completed string
		by        wire.Actor
		log, err  string
	}{
		{"done stamps completion", "open", "done", "2026-03-01T12:00:00Z", wire.ActorAgent, "reminder_completed REM-1 chase", ""},
		{"leaving done clears it", "done", "open", "", "", "reminder_updated REM-1 chase", ""},
		{"dismissed is a status", "open", "dismissed", "", "", "reminder_updated REM-1 chase", ""},
		{"unknown status", "open", "snoozed", "", "", "", "field 'status' must be one of open, done, dismissed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tx := store.Scratch(doc(tc.from), now, wire.ActorAgent)
			r, err := PatchTx(tx, "REM-1", wire.ReminderPatch{Status: wire.Some(string(tc.to))})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.CompletedAt != tc.completed || r.CompletedBy != tc.by || r.UpdatedAt != "2026-03-01T12:00:00Z" {
				t.Errorf("got completed %q by %q updated %q", r.CompletedAt, r.CompletedBy, r.UpdatedAt)
			}
			c := tx.Doc().Cases.At(0)
			if len(c.Activity) != 1 || string(c.Activity[0].Verb)+" "+c.Activity[0].Detail != tc.log {
				t.Errorf("case log %+v, want %q", c.Activity, tc.log)
			}
		})
	}
}

func TestChecklistCap(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	rows := func(n int) []wire.ReminderTaskInput {
		in := make([]wire.ReminderTaskInput, n)
		for i := range in {
			in[i].Title = fmt.Sprintf("row %d", i+1)
		}
		return in
	}
	stored := func(n int) []wire.ReminderTask {
		ts := make([]wire.ReminderTask, n)
		for i := range ts {
			ts[i] = wire.ReminderTask{ID: fmt.Sprintf("REM-1-T%d", i+1), Title: "old"}
		}
		return ts
	}
	const refused = "field 'tasks' holds at most 100 tasks"
	for _, tc := range []struct {
		name   string
		stored int // rows of the stored REM-1
		write  func(tx *store.Tx) (*wire.Reminder, error)
		rows   int // rows of the reminder written
		err    string
	}{
		{"a create at the cap", 0, func(tx *store.Tx) (*wire.Reminder, error) {
			r, _, err := CreateTx(tx, wire.ReminderCreate{Title: "new", Tasks: rows(wire.MaxReminderTasks)})
			return r, err
		}, 100, ""},
		{"a create over the cap", 0, func(tx *store.Tx) (*wire.Reminder, error) {
			r, _, err := CreateTx(tx, wire.ReminderCreate{Title: "new", Tasks: rows(wire.MaxReminderTasks + 1)})
			return r, err
		}, 0, refused},
		{"a dedupe over the cap is refused too", 0, func(tx *store.Tx) (*wire.Reminder, error) {
			r, _, err := CreateTx(tx, wire.ReminderCreate{Title: "chase", Tasks: rows(wire.MaxReminderTasks + 1), Dedupe: true})
			return r, err
		}, 0, refused},
		{"a patch at the cap", 3, func(tx *store.Tx) (*wire.Reminder, error) {
			return PatchTx(tx, "REM-1", wire.ReminderPatch{Tasks: wire.Some(rows(wire.MaxReminderTasks))})
		}, 100, ""},
		{"a patch over the cap", 3, func(tx *store.Tx) (*wire.Reminder, error) {
			return PatchTx(tx, "REM-1", wire.ReminderPatch{Tasks: wire.Some(rows(wire.MaxReminderTasks + 1))})
		}, 0, refused},
		{"a stored list over the cap is kept by a patch that leaves it", 150, func(tx *store.Tx) (*wire.Reminder, error) {
			return PatchTx(tx, "REM-1", wire.ReminderPatch{Title: wire.Some("chase harder")})
		}, 150, ""},
		{"a stored list over the cap may be cleared", 150, func(tx *store.Tx) (*wire.Reminder, error) {
			return PatchTx(tx, "REM-1", wire.ReminderPatch{Tasks: wire.Null[[]wire.ReminderTaskInput]()})
		}, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := &wire.Doc{Reminders: wire.ListOf([]*wire.Reminder{{ID: "REM-1", Title: "chase", Status: wire.ReminderOpen, Tasks: stored(tc.stored)}}...)}
			r, err := tc.write(store.Scratch(d, now, wire.ActorHuman))
			got := struct {
				Rows int
				Err  string
			}{}
			if err != nil {
				got.Err = err.Error()
				var bad *errs.BadRequestError
				if !errors.As(err, &bad) {
					t.Errorf("%T is not a bad request", err)
				}
			} else {
				got.Rows = len(r.Tasks)
			}
			if diff := cmp.Diff(struct {
				Rows int
				Err  string
			}{tc.rows, tc.err}, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}
