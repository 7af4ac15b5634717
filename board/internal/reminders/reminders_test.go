package reminders

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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
	d := &wire.Doc{Messages: []*wire.Message{
		{ID: "M-1", ReminderID: "REM-1", ReceivedAt: "garbage"},
		{ID: "M-2", ReminderID: "REM-1", ReceivedAt: "2026-01-01"},
		{ID: "M-3", ReminderID: "REM-2", ReceivedAt: "2027-01-01"},
		{ID: "M-4", ReminderID: "REM-1", ReceivedAt: "2026-01-01T12:00:00+02:00"}, // 10:00 UTC, after M-2
		{ID: "M-5", ReminderID: "REM-1", ReceivedAt: ""},
		{ID: "M-6", ReminderID: "REM-1", ReceivedAt: "Thu, 01 Jan 2026 11:00:00 +0000"},
	}}
	var got []string
	for _, m := range Messages(d, "REM-1") {
		got = append(got, m.ID)
	}
	if diff := cmp.Diff([]string{"M-6", "M-4", "M-2", "M-1", "M-5"}, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}
