package ical_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	goical "github.com/emersion/go-ical"
	"github.com/opsboard/opsboard/board/internal/ical"
	"github.com/opsboard/opsboard/board/internal/rules/events"
	"github.com/opsboard/opsboard/shared/wire"
)

const stamp = "2026-07-01T08:00:00Z"

func TestFeed(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip(err)
	}
	evil := "\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nX-INJECTED:1\n\x00\x1b"
	all := ical.Filter{Reminders: true, Tasks: true}
	for _, tc := range []struct {
		name         string
		doc          wire.Doc
		filter       ical.Filter
		events       int      // VEVENTs the feed parses into
		want, absent []string // content lines, without CRLF
	}{
		{
			name:   "an empty board is a bare calendar",
			filter: all,
			want:   []string{"BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//opsboard//board dev//EN", "X-WR-TIMEZONE:Europe/Berlin"},
			absent: []string{"BEGIN:VEVENT", "BEGIN:VTIMEZONE"},
		},
		{
			name: "a timed event is written in UTC, an all-day one as dates",
			doc: wire.Doc{Events: wire.ListOf([]*wire.Event{
				{ID: "EVT-1", Title: "Summer", Date: "2026-07-10", StartTime: "09:00", EndTime: "10:30", CreatedAt: stamp, UpdatedAt: stamp},
				{ID: "EVT-2", Title: "Late", Date: "2026-12-31", StartTime: "23:30", EndTime: "00:30", CreatedAt: stamp, UpdatedAt: stamp},
				{ID: "EVT-3", Title: "Holiday", Date: "2026-07-11", AllDay: true, CreatedAt: stamp, UpdatedAt: stamp},
			}...)},
			filter: all,
			events: 3,
			want: []string{"DTSTART:20260710T070000Z", "DTEND:20260710T083000Z", "DTSTART:20261231T223000Z", "DTEND:20261231T233000Z",
				"DTSTART;VALUE=DATE:20260711", "DTEND;VALUE=DATE:20260712"},
			absent: []string{"BEGIN:VTIMEZONE"},
		},
		{
			name: "a repeating timed reminder is on the board's clock, which the feed defines",
			doc: wire.Doc{Reminders: wire.ListOf([]*wire.Reminder{
				{ID: "REM-1", Title: "Water", Status: wire.ReminderOpen, DueAt: "2026-12-03T18:30", Repeat: "FREQ=WEEKLY;BYDAY=TH", CreatedAt: stamp, UpdatedAt: stamp},
				{ID: "REM-2", Title: "Pay rent", Status: wire.ReminderOpen, DueAt: "2026-12-01", CreatedAt: stamp, UpdatedAt: stamp},
				{ID: "REM-3", Title: "Done", Status: wire.ReminderDone, DueAt: "2026-12-01", CreatedAt: stamp, UpdatedAt: stamp},
			}...)},
			filter: all,
			events: 2,
			want: []string{"BEGIN:VTIMEZONE", "TZID:Europe/Berlin", "DTSTART;TZID=Europe/Berlin:20261203T183000", "RRULE:FREQ=WEEKLY;BYDAY=TH",
				"URL:http://board.test/reminders?id=REM-1", "TRIGGER:PT9H", "TRIGGER:PT0S", "TRANSP:TRANSPARENT"},
			absent: []string{"UID:REM-3@opsboard"},
		},
		{
			name: "reminders=0 and the case filter keep the case's tasks only",
			doc: wire.Doc{
				Reminders: wire.ListOf([]*wire.Reminder{{ID: "REM-1", Title: "Water", Status: wire.ReminderOpen, DueAt: "2026-12-03", CaseID: "CASE-1", CreatedAt: stamp, UpdatedAt: stamp}}...),
				Cases: wire.ListOf([]*wire.Case{
					{ID: "CASE-1", Title: "Lease", Status: "todo", Kind: "case", CreatedAt: stamp, UpdatedAt: stamp, Tasks: []wire.Task{{ID: "CASE-1-T1", Title: "Sign", DueAt: "2026-12-02"}}},
					{ID: "CASE-2", Title: "Other", Status: "todo", Kind: "case", CreatedAt: stamp, UpdatedAt: stamp, Tasks: []wire.Task{{ID: "T1", Title: "Call", DueAt: "2026-12-02"}}},
				}...),
			},
			filter: ical.Filter{Filter: events.Filter{CaseID: "CASE-1", CaseGiven: true}, Tasks: true},
			events: 1,
			want:   []string{"UID:CASE-1-T1@opsboard", "URL:http://board.test/board?case=CASE-1"},
			absent: []string{"UID:REM-1@opsboard", "UID:CASE-2-T1@opsboard"},
		},
		{
			name: "hand-edited fields read back as text, never as lines of their own",
			doc: wire.Doc{
				Events: wire.ListOf([]*wire.Event{{ID: "EVT-9" + evil, Title: "Hi" + evil, Location: "Room 1;\x00\x1b[31m", Domain: wire.Domain("work\nX-EVIL:1"),
					Date: "2026-07-10", StartTime: "09:00", EndTime: "10:00", CreatedAt: stamp, UpdatedAt: stamp}}...),
				Reminders: wire.ListOf([]*wire.Reminder{{ID: "REM-9" + evil, Title: "Pay" + evil, Detail: "d" + evil, Status: wire.ReminderOpen, DueAt: "2026-07-10T09:00:00Z", CreatedAt: stamp, UpdatedAt: stamp}}...),
			},
			filter: all,
			events: 2,
			want:   []string{`LOCATION:Room 1\;[31m`},
			absent: []string{"X-INJECTED:1", "X-EVIL:1"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			raw, err := ical.Feed(&tc.doc, tc.filter, "http://board.test", "dev", berlin)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasSuffix(raw, []byte("\r\n")) {
				t.Errorf("the feed does not end with CRLF")
			}
			lines := strings.Split(strings.TrimSuffix(string(raw), "\r\n"), "\r\n")
			for i, line := range lines {
				if len(line) > 75 || strings.ContainsAny(line, "\r\n") {
					t.Errorf("line %d is not one content line of at most 75 octets: %q", i, line)
				}
			}
			unfolded := "\r\n" + strings.ReplaceAll(string(raw), "\r\n ", "")
			for _, w := range tc.want {
				if !strings.Contains(unfolded, "\r\n"+w+"\r\n") {
					t.Errorf("no line %q in\n%s", w, raw)
				}
			}
			for _, a := range tc.absent {
				if strings.Contains(unfolded, "\r\n"+a+"\r\n") {
					t.Errorf("a line %q in\n%s", a, raw)
				}
			}
			cal, err := goical.NewDecoder(bytes.NewReader(raw)).Decode()
			if err != nil {
				t.Fatalf("parse: %v\n%s", err, raw)
			}
			if n := len(cal.Events()); n != tc.events {
				t.Errorf("%d VEVENTs, want %d:\n%s", n, tc.events, raw)
			}
		})
	}
}

// A from/to the events' filter refuses comes back as its error, which the
// route maps to a 400.
func TestFeedBadRange(t *testing.T) {
	if _, err := ical.Feed(&wire.Doc{}, ical.Filter{Filter: events.Filter{From: "soon"}}, "http://board.test", "dev", time.UTC); err == nil {
		t.Error("no error for from=soon")
	}
}
