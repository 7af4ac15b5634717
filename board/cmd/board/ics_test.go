package main

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/opsboard/opsboard/shared/wire"
)

// A hand-edited event may hold line breaks and control characters in any
// field, its id included. Every property the feed writes stays on its own
// content line: one VEVENT, no injected property, every line a known
// property or a folded continuation.
func TestCalendarFeedCannotBeInjected(t *testing.T) {
	const inject = "\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nX-INJECTED:1\nATTENDEE:mailto:evil@example.com\r"
	data := filepath.Join(t.TempDir(), "board.json")
	ev := map[string]any{
		"id": "EVT-1" + inject, "title": "t" + inject, "description": "d" + inject, "location": "l" + inject + "\x00\x1b",
		"domain": "work" + inject, "date": "2026-07-10", "startTime": "09:00", "endTime": "10:00" + inject,
		"createdAt": "2026-07-01T08:00:00Z" + inject, "updatedAt": "2026-07-02T08:00:00Z",
	}
	doc, err := json.Marshal(map[string]any{"schemaVersion": wire.SchemaVersion, "version": 3, "events": []any{ev}})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(data, doc, 0o600); err != nil {
		t.Fatal(err)
	}
	d := start(t, data, 0)
	raw := string(d.must(t, http.StatusOK, "GET", "/api/events.ics", ""))
	if !strings.HasSuffix(raw, "\r\n") {
		t.Fatalf("the feed does not end with CRLF:\n%q", raw)
	}
	known := regexp.MustCompile(`^(BEGIN|END|VERSION|PRODID|CALSCALE|X-WR-CALNAME|X-WR-TIMEZONE|UID|DTSTAMP|DTSTART|DTEND|SUMMARY|DESCRIPTION|LOCATION|CATEGORIES|CREATED|LAST-MODIFIED)[;:]`)
	for i, line := range strings.Split(strings.TrimSuffix(raw, "\r\n"), "\r\n") {
		if strings.ContainsAny(line, "\r\n\x00\x1b") {
			t.Errorf("line %d holds a raw control character: %q", i, line)
		}
		if !known.MatchString(line) && !strings.HasPrefix(line, " ") {
			t.Errorf("line %d is not a property the feed writes: %q", i, line)
		}
		if len(line) > 75 {
			t.Errorf("line %d is %d octets long", i, len(line))
		}
	}
	if n := strings.Count(raw, "\r\nBEGIN:VEVENT\r\n"); n != 1 {
		t.Errorf("%d BEGIN:VEVENT, want 1:\n%s", n, raw)
	}
}
