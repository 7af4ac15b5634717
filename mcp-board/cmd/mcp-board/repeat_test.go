package main

import (
	"strings"
	"testing"

	"github.com/opsboard/opsboard/shared/client/clienttest"
	"github.com/opsboard/opsboard/shared/wire"
)

// The reminder and task tools take a repeat rule, say it in plain words,
// and completing through them answers with the next occurrence; a rule the
// board refuses comes back in the board's words.
func TestRepeatThroughTools(t *testing.T) {
	board := clienttest.StartBoard(t)
	bin := clienttest.Build(t, ".", ".")
	s := clienttest.StartSessionWith(t, bin, []string{"CRM_BASE_URL=" + board.URL}, server)

	out := s.OK(t, "create_reminder", map[string]any{"title": "Team sync notes", "dueAt": "2026-03-05", "repeat": "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH", "tasks": []any{map[string]any{"title": "send notes"}}},
		"repeats every 2 weeks on Mon, Thu")
	id := strings.Fields(strings.TrimPrefix(out, "Created "))[0]
	s.OK(t, "update_reminder", map[string]any{"id": id, "tasks": []any{map[string]any{"id": id + "-T1", "title": "send notes", "done": true}}}, "tasks 1/1")
	done := s.OK(t, "complete_reminder", map[string]any{"id": id}, "[done]", "\nNext: ", "due 2026-03-16", "repeats every 2 weeks on Mon, Thu", "tasks 0/1")
	next := strings.Fields(done[strings.Index(done, "Next: ")+len("Next: "):])[0]
	var rd wire.ReminderDetail
	board.Get(t, "/api/reminders/"+next, &rd)
	if rd.Reminder.Repeat != "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH" || rd.Reminder.DueAt != "2026-03-16" || len(rd.Reminder.Tasks) != 1 || rd.Reminder.Tasks[0].Done {
		t.Errorf("next occurrence on the board: %+v", rd.Reminder)
	}
	s.OK(t, "update_reminder", map[string]any{"id": next, "repeat": "FREQ=MONTHLY;BYDAY=2TU;COUNT=3"}, "repeats monthly on the 2nd Tuesday, 3 times")
	s.Refused(t, "update_reminder", map[string]any{"id": next, "repeat": "FREQ=HOURLY"}, "repeat: FREQ=HOURLY is not supported")
	s.Refused(t, "create_reminder", map[string]any{"title": "No date", "repeat": "FREQ=DAILY"}, "repeat: an item repeats from its due date")

	caseOut := s.OK(t, "create_case", map[string]any{"title": "Payroll"})
	caseID := strings.Fields(strings.TrimPrefix(caseOut, "Created "))[0]
	s.OK(t, "add_task", map[string]any{"caseId": caseID, "title": "Run payroll", "dueAt": "2026-01-30", "repeat": "FREQ=MONTHLY;BYDAY=-1FR"}, "(repeats monthly on the last Friday)")
	s.OK(t, "complete_task", map[string]any{"caseId": caseID, "taskId": caseID + "-T1"}, "[x] Run payroll", "Next: "+caseID+"-T2 [ ] Run payroll (due 2026-02-27) (repeats monthly on the last Friday)")
	if out := s.OK(t, "update_task", map[string]any{"caseId": caseID, "taskId": caseID + "-T2", "repeat": ""}, caseID+"-T2 [ ] Run payroll (due 2026-02-27)"); strings.Contains(out, "repeats") {
		t.Errorf("\"\" did not stop the task repeating: %s", out)
	}
}
