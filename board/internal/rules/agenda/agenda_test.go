package agenda_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/rules/agenda"
	"github.com/opsboard/opsboard/shared/wire"
)

func TestBuild(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	// 2026-11-24 10:30 in Berlin.
	now := time.Date(2026, 11, 24, 10, 30, 0, 0, berlin)
	doc := &wire.Doc{
		Cases: wire.ListOf([]*wire.Case{
			{ID: "CASE-1", Domain: wire.DomainWork, Tasks: []wire.Task{
				{ID: "CASE-1-T1", Title: "overdue by day", DueAt: "2026-11-22"},
				{ID: "CASE-1-T2", Title: "today all day", DueAt: "2026-11-24"},
				{ID: "CASE-1-T3", Title: "this morning", DueAt: "2026-11-24T09:00"},
				{ID: "CASE-1-T4", Title: "done", DueAt: "2026-11-20", CompletedAt: "2026-11-21T00:00:00Z"},
				{ID: "CASE-1-T5", Title: "no date"},
				{ID: "CASE-1-T6", Title: "far", DueAt: "2026-12-24"},
				{ID: "CASE-1-T7", Title: "utc afternoon", DueAt: "2026-11-25T14:00:00Z"},
				{ID: "CASE-1-T8", Title: "garbage", DueAt: "soon"},
			}},
			{ID: "CASE-2", Domain: wire.DomainLife, Tasks: []wire.Task{{ID: "CASE-2-T1", Title: "life task", DueAt: "2026-11-26"}}},
			{ID: "CASE-3", ArchivedAt: "2026-11-01T00:00:00Z", Tasks: []wire.Task{{ID: "CASE-3-T1", Title: "archived", DueAt: "2026-11-25"}}},
		}...),
		Reminders: wire.ListOf([]*wire.Reminder{
			{ID: "REM-1", Title: "open, last week", Status: wire.ReminderOpen, DueAt: "2026-11-17"},
			{ID: "REM-2", Title: "dismissed", Status: wire.ReminderDismissed, DueAt: "2026-11-25"},
			{ID: "REM-3", Title: "domainless at 15:00", Status: wire.ReminderOpen, DueAt: "2026-11-24T15:00", CaseID: "CASE-1"},
		}...),
		Events: wire.ListOf([]*wire.Event{
			{ID: "EVT-1", Title: "yesterday", Date: "2026-11-23", AllDay: true},
			{ID: "EVT-2", Title: "standup", Date: "2026-11-24", StartTime: "09:30", CaseID: "CASE-1"},
			{ID: "EVT-3", Title: "offsite", Date: "2026-11-27", AllDay: true, Domain: wire.DomainWork},
			{ID: "EVT-4", Title: "next week", Date: "2026-12-02", StartTime: "10:00"},
		}...),
	}
	def := agenda.Default(now, berlin)
	day := func(s string) time.Time { t, _ := time.ParseInLocation("2006-01-02", s, berlin); return t }
	for _, tc := range []struct {
		name   string
		rng    agenda.Range
		domain wire.Domain
		want   []string // kind:id:dueAt:overdue
	}{
		{"default: overdue, then today and the next seven days", def, "", []string{
			"reminder:REM-1:2026-11-17:true",
			"task:CASE-1-T1:2026-11-22:true",
			"task:CASE-1-T2:2026-11-24:false",
			"task:CASE-1-T3:2026-11-24T09:00:00+01:00:true",
			"event:EVT-2:2026-11-24T09:30:00+01:00:false",
			"reminder:REM-3:2026-11-24T15:00:00+01:00:false",
			"task:CASE-1-T7:2026-11-25T15:00:00+01:00:false",
			"task:CASE-2-T1:2026-11-26:false",
			"event:EVT-3:2026-11-27:false",
		}},
		{"life keeps life tasks and domainless reminders and events", def, wire.DomainLife, []string{
			"reminder:REM-1:2026-11-17:true",
			"event:EVT-2:2026-11-24T09:30:00+01:00:false",
			"reminder:REM-3:2026-11-24T15:00:00+01:00:false",
			"task:CASE-2-T1:2026-11-26:false",
		}},
		{"an explicit range leaves out what is overdue before it", agenda.Range{From: day("2026-11-23"), To: day("2026-11-25")}, "", []string{
			"event:EVT-1:2026-11-23:false",
			"task:CASE-1-T2:2026-11-24:false",
			"task:CASE-1-T3:2026-11-24T09:00:00+01:00:true",
			"event:EVT-2:2026-11-24T09:30:00+01:00:false",
			"reminder:REM-3:2026-11-24T15:00:00+01:00:false",
		}},
		{"a range in the future", agenda.Range{From: day("2026-12-01"), To: day("2027-01-01")}, "", []string{
			"event:EVT-4:2026-12-02T10:00:00+01:00:false",
			"task:CASE-1-T6:2026-12-24:false",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, it := range agenda.Build(doc, agenda.Query{Now: now, Loc: berlin, Range: tc.rng, Domain: tc.domain}) {
				ov := "false"
				if it.Overdue {
					ov = "true"
				}
				got = append(got, it.Kind+":"+it.ID+":"+it.DueAt+":"+ov)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestWhen(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		in     string
		want   string
		allDay bool
		ok     bool
	}{
		{"2026-03-08", "2026-03-08T00:00:00-05:00", true, true},
		{"2026-07-01T09:15", "2026-07-01T09:15:00-04:00", false, true},
		{"2026-07-01T09:15:30", "2026-07-01T09:15:30-04:00", false, true},
		{"2026-07-01T09:15:00Z", "2026-07-01T05:15:00-04:00", false, true},
		{"2026-07-01T09:15:00+02:00", "2026-07-01T03:15:00-04:00", false, true},
		{"2026-02-30", "", false, false},
		{"tomorrow", "", false, false},
	} {
		t.Run(tc.in, func(t *testing.T) {
			at, allDay, ok := agenda.When(tc.in, ny)
			got := ""
			if ok {
				got = at.In(ny).Format(time.RFC3339)
			}
			if diff := cmp.Diff([]any{tc.want, tc.allDay, tc.ok}, []any{got, allDay, ok}); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}
