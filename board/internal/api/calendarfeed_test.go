package api_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/emersion/go-ical"
	"github.com/opsboard/opsboard/board/internal/api"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// getICS fetches the events feed, checks every content line is at most 75
// octets and ends with CRLF, and parses it with go-ical.
func getICS(t *testing.T, b *board) (*ical.Calendar, []byte) {
	t.Helper()
	resp, err := http.Get(b.URL + "/api/events.ics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /api/events.ics: %d %s", resp.StatusCode, raw)
	}
	if !bytes.HasSuffix(raw, []byte("\r\n")) {
		t.Errorf("the feed does not end with CRLF")
	}
	for i, line := range bytes.Split(bytes.TrimSuffix(raw, []byte("\r\n")), []byte("\r\n")) {
		if len(line) > 75 {
			t.Errorf("line %d is %d octets, longer than 75: %q", i, len(line), line)
		}
		if bytes.ContainsAny(line, "\n\r") {
			t.Errorf("line %d has a bare line break: %q", i, line)
		}
	}
	cal, err := ical.NewDecoder(bytes.NewReader(raw)).Decode()
	if err != nil {
		t.Fatalf("parse feed: %v\n%s", err, raw)
	}
	return cal, raw
}

func TestEventsICSEmptyBoardIsABareCalendar(t *testing.T) {
	b := newBoard(t)
	cal, raw := getICS(t, b)
	if n := len(cal.Events()); n != 0 {
		t.Errorf("%d events on an empty board", n)
	}
	if v := cal.Props.Get(ical.PropVersion); v == nil || v.Value != "2.0" {
		t.Errorf("VERSION %v", v)
	}
	if cal.Props.Get(ical.PropProductID) == nil {
		t.Errorf("no PRODID in\n%s", raw)
	}
}

// A hand-edited document may hold anything in an event's fields. Line
// breaks and a component line in the id or the title must come back as the
// text they are, not as a second event.
func TestEventsICSHandEditedValuesCannotInjectLines(t *testing.T) {
	const (
		id    = "EVT-9\r\nBEGIN:VEVENT\r\nUID:evil"
		title = "Hi\r\nEND:VEVENT\r\nBEGIN:VEVENT\nSUMMARY:injected\rDTSTART:20000101"
		place = "Room 1;\x00\x1b[31m, floor ☃"
	)
	handEdited := func(s *store.Config, _ *api.Config) {
		doc := map[string]any{
			"schemaVersion": wire.SchemaVersion,
			"version":       3,
			"events": []map[string]any{{
				"id": id, "title": title, "location": place, "domain": "work\nX-EVIL:1",
				"date": "2026-07-10", "startTime": "09:00", "endTime": "10:00",
				"createdAt": "2026-07-01T08:00:00Z", "updatedAt": "2026-07-02T08:00:00Z",
			}},
		}
		raw, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(s.Path, raw, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	b := newBoard(t, handEdited)
	cal, raw := getICS(t, b)
	events := cal.Events()
	if len(events) != 1 {
		t.Fatalf("%d VEVENTs, want 1:\n%s", len(events), raw)
	}
	if n := bytes.Count(raw, []byte("\r\nBEGIN:VEVENT\r\n")); n != 1 {
		t.Errorf("%d BEGIN:VEVENT lines, want 1:\n%s", n, raw)
	}
	for _, p := range []string{"X-EVIL", "DTSTART:20000101"} {
		if bytes.Contains(raw, []byte("\r\n"+p)) {
			t.Errorf("an injected %s line:\n%s", p, raw)
		}
	}
	text := func(name string) string {
		t.Helper()
		p := events[0].Props.Get(name)
		if p == nil {
			t.Fatalf("no %s in\n%s", name, raw)
		}
		s, err := p.Text()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return s
	}
	// Each line break reads back as one newline; other control characters
	// are dropped.
	for _, c := range []struct{ prop, want string }{
		{ical.PropUID, strings.ReplaceAll(id, "\r\n", "\n") + "@opsboard"},
		{ical.PropSummary, "Hi\nEND:VEVENT\nBEGIN:VEVENT\nSUMMARY:injected\nDTSTART:20000101"},
		{ical.PropLocation, "Room 1;[31m, floor ☃"},
		{ical.PropCategories, "work\nX-EVIL:1"},
	} {
		if got := text(c.prop); got != c.want {
			t.Errorf("%s = %q, want %q", c.prop, got, c.want)
		}
	}
	start, err := events[0].DateTimeStart(nil)
	if err != nil || start.Format("2006-01-02 15:04") != "2026-07-10 09:00" {
		t.Errorf("DTSTART %v %v", start, err)
	}
}
