package render

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/shared/wire"
)

func TestAgenda(t *testing.T) {
	got := Agenda(wire.Agenda{
		Today: "2026-11-24", Timezone: "Europe/Berlin", To: "2026-12-02T00:00:00+01:00",
		Items: []wire.AgendaItem{
			{Kind: "reminder", ID: "REM-1", Title: "Renew passport", DueAt: "2026-11-22", Overdue: true, AllDay: true},
			{Kind: "task", ID: "CASE-1-T1", CaseID: "CASE-1", Title: "Send forms", DueAt: "2026-11-24T09:00:00+01:00", Overdue: true},
			{Kind: "task", ID: "CASE-1-T2", CaseID: "CASE-1", Title: "File", DueAt: "2026-11-24", AllDay: true},
			{Kind: "event", ID: "EVT-2", CaseID: "CASE-1", Title: "Dentist", DueAt: "2026-11-24T15:00:00+01:00"},
			{Kind: "event", ID: "EVT-3", Title: "Offsite", DueAt: "2026-11-25", AllDay: true},
			{Kind: "task", ID: "CASE-2-T1", CaseID: "CASE-2", Title: "Call\nadvisor", DueAt: "2026-11-28T14:30:00Z"},
		},
	})
	want := strings.Join([]string{
		"Today is Tue 2026-11-24 (board time zone Europe/Berlin; dates and times without an offset are in this zone).",
		"Agenda from overdue items until 2026-12-02T00:00:00+01:00: 6 items.",
		"",
		"Overdue",
		"- [reminder] REM-1 - Renew passport - overdue 2 d (due 2026-11-22)",
		"- [task] CASE-1-T1 - Send forms - on CASE-1 - overdue since today 09:00",
		"",
		"Tue 2026-11-24 (today)",
		"- [task] CASE-1-T2 - File - on CASE-1 - today",
		"- [event] EVT-2 - Dentist - case CASE-1 - today 15:00",
		"",
		"Wed 2026-11-25 (tomorrow)",
		"- [event] EVT-3 - Offsite - tomorrow",
		"",
		"Sat 2026-11-28",
		"- [task] CASE-2-T1 - Call advisor - on CASE-2 - in 4 d (Sat 11-28 15:30)",
	}, "\n")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	empty := Agenda(wire.Agenda{Today: "2026-11-24", Timezone: "UTC", From: "2026-12-01T00:00:00Z", To: "2026-12-02T00:00:00Z", Items: []wire.AgendaItem{}})
	if !strings.Contains(empty, "Nothing is due in this range.") || !strings.Contains(empty, "from 2026-12-01T00:00:00Z") {
		t.Errorf("empty agenda:\n%s", empty)
	}
}
