package ical_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/opsboard/opsboard/board/internal/ical"
	"github.com/opsboard/opsboard/shared/wire"
)

// BenchmarkFeedWithDues builds the calendar feed of a board with 1,000
// cases of 5 tasks (half of them open with a due date, a tenth of those
// repeating), 500 open reminders with a due date and 300 events. Figures
// in the board's README.
func BenchmarkFeedWithDues(b *testing.B) {
	d := wire.Doc{SchemaVersion: wire.SchemaVersion, Version: 1}
	stamp := "2026-07-01T08:00:00Z"
	for i := range 1000 {
		c := &wire.Case{ID: fmt.Sprintf("CASE-%d", i+1), Title: fmt.Sprintf("Case %d", i), Status: "todo", Domain: "work", Kind: "case", CreatedAt: stamp, UpdatedAt: stamp}
		for k := range 5 {
			t := wire.Task{ID: fmt.Sprintf("%s-T%d", c.ID, k+1), Title: fmt.Sprintf("Task %d", k), CreatedAt: stamp}
			switch {
			case k%2 == 1:
				t.CompletedAt = stamp
			case k == 0:
				t.DueAt = fmt.Sprintf("2026-%02d-%02dT%02d:30", 1+i%12, 1+i%28, 8+k)
				if i%10 == 0 {
					t.Repeat = "FREQ=WEEKLY;BYDAY=MO"
				}
			default:
				t.DueAt = fmt.Sprintf("2026-%02d-%02d", 1+i%12, 1+(i+k)%28)
			}
			c.Tasks = append(c.Tasks, t)
		}
		d.Cases = d.Cases.Append(c)
	}
	for i := range 500 {
		d.Reminders = d.Reminders.Append(&wire.Reminder{ID: fmt.Sprintf("REM-%d", i+1), Title: fmt.Sprintf("Reminder %d", i), Status: wire.ReminderOpen,
			DueAt: fmt.Sprintf("2026-%02d-%02dT09:00:00Z", 1+i%12, 1+i%28), CreatedAt: stamp, UpdatedAt: stamp})
	}
	for i := range 300 {
		d.Events = d.Events.Append(&wire.Event{ID: fmt.Sprintf("EVT-%d", i+1), Title: fmt.Sprintf("Event %d", i),
			Date: fmt.Sprintf("2026-%02d-%02d", 1+i%12, 1+i%28), StartTime: "10:00", EndTime: "11:00", CreatedAt: stamp, UpdatedAt: stamp})
	}
	loc, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		b.Skip(err)
	}
	f := ical.Filter{Reminders: true, Tasks: true}
	size := 0
	for b.Loop() {
		body, err := ical.Feed(&d, f, "http://127.0.0.1:8080", "dev", loc)
		if err != nil {
			b.Fatal(err)
		}
		size = len(body)
	}
	b.ReportMetric(float64(size), "B/answer")
}
