package main

import (
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opsboard/opsboard/shared/wire"
)

// tasksBody is n checklist rows without ids, as JSON array items.
func tasksBody(n int) string {
	return strings.TrimSuffix(strings.Repeat(`{"title":"a"},`, n), ",")
}

// Writes that mint many child ids (a case's checklist, a merge) answer in
// time linear in their input: a checklist of 60,000 tasks used to hold the
// write lock for 38 s minting ids. The client's
// generous timeout (30 s) is the bound; the ids must be exactly the next
// ones, never reused.
func TestLargeChecklistsAnswer(t *testing.T) {
	d := start(t, filepath.Join(t.TempDir(), "board.json"), 0)
	const n = 60000
	ids := func(r []wire.ReminderTask) []string {
		out := make([]string, len(r))
		for i, t := range r {
			out[i] = t.ID
		}
		return out
	}
	want := func(owner string, from, n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("%s-T%d", owner, from+i)
		}
		return out
	}
	same := func(what string, got, want []string) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s: %d ids, want %d", what, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%s: id %d is %s, want %s", what, i, got[i], want[i])
			}
		}
	}

	// A reminder's checklist is capped (wire.MaxReminderTasks), so its ids
	// are minted for at most that many rows; a case's checklist is not, and
	// carries the linear-time check below.
	d.must(t, http.StatusBadRequest, "POST", "/api/reminders", `{"title":"too many","tasks":[`+tasksBody(wire.MaxReminderTasks+1)+`]}`)
	var created struct {
		Reminder wire.Reminder `json:"reminder"`
	}
	raw := d.must(t, http.StatusCreated, "POST", "/api/reminders", `{"title":"many","tasks":[`+tasksBody(wire.MaxReminderTasks)+`]}`)
	if err := jsonDecode(raw, &created); err != nil {
		t.Fatal(err)
	}
	rem := created.Reminder.ID
	same("create", ids(created.Reminder.Tasks), want(rem, 1, wire.MaxReminderTasks))

	var patched struct {
		Reminder wire.Reminder `json:"reminder"`
	}
	raw = d.must(t, http.StatusOK, "PATCH", "/api/reminders/"+rem, `{"tasks":[`+tasksBody(wire.MaxReminderTasks)+`]}`)
	if err := jsonDecode(raw, &patched); err != nil {
		t.Fatal(err)
	}
	same("replace the checklist", ids(patched.Reminder.Tasks), want(rem, wire.MaxReminderTasks+1, wire.MaxReminderTasks))

	// A merge renumbers the source's tasks on the target.
	var src, dst struct {
		Case wire.Case `json:"case"`
	}
	if err := jsonDecode(d.must(t, http.StatusCreated, "POST", "/api/cases", `{"title":"source","tasks":[`+tasksBody(n)+`]}`), &src); err != nil {
		t.Fatal(err)
	}
	if err := jsonDecode(d.must(t, http.StatusCreated, "POST", "/api/cases", `{"title":"target","tasks":[{"title":"own"}]}`), &dst); err != nil {
		t.Fatal(err)
	}
	var merged struct {
		Case wire.Case `json:"case"`
	}
	raw = d.must(t, http.StatusOK, "POST", "/api/cases/"+src.Case.ID+"/merge", jsonBody(t, map[string]string{"targetId": dst.Case.ID}))
	if err := jsonDecode(raw, &merged); err != nil {
		t.Fatal(err)
	}
	got := make([]string, len(merged.Case.Tasks))
	for i, t := range merged.Case.Tasks {
		got[i] = t.ID
	}
	same("merge", got, want(dst.Case.ID, 1, n+1))
}
