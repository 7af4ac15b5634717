package api_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/api"
	"github.com/opsboard/opsboard/board/internal/store"
)

// at fixes the API's clock and machine zone.
func at(now time.Time, zone *time.Location) option {
	return func(_ *store.Config, c *api.Config) {
		c.Now = func() time.Time { return now }
		c.Zone = zone
	}
}

func TestAgenda(t *testing.T) {
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 24, 10, 0, 0, 0, tokyo)
	b := newBoard(t, at(now, tokyo))
	id := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Tax return", "domain": "life"}).Get("case.id").String()
	b.must(http.StatusCreated, "POST", "/api/cases/"+id+"/tasks", map[string]any{"title": "send forms", "dueAt": "2026-11-22"})
	b.must(http.StatusCreated, "POST", "/api/cases/"+id+"/tasks", map[string]any{"title": "call advisor", "dueAt": "2026-11-25T15:00"})
	b.must(http.StatusCreated, "POST", "/api/reminders", map[string]any{"title": "renew passport", "dueAt": "2026-11-28", "domain": "work"})
	b.must(http.StatusCreated, "POST", "/api/events", map[string]any{"title": "dentist", "date": "2026-11-24", "startTime": "15:00", "caseId": id})
	b.must(http.StatusCreated, "POST", "/api/events", map[string]any{"title": "next month", "date": "2026-12-24", "allDay": true})

	got := b.must(http.StatusOK, "GET", "/api/agenda", nil)
	if got.Get("today").String() != "2026-11-24" || got.Get("timezone").String() != "Asia/Tokyo" {
		t.Fatalf("today/timezone: %s", got.Raw)
	}
	var lines []string
	for _, it := range got.Get("items").Array() {
		lines = append(lines, it.Get("kind").String()+" "+it.Get("title").String()+" "+it.Get("dueAt").String()+" "+it.Get("overdue").String()+" "+it.Get("allDay").String())
	}
	want := []string{
		"task send forms 2026-11-22 true true",
		"event dentist 2026-11-24T15:00:00+09:00 false false",
		"task call advisor 2026-11-25T15:00:00+09:00 false false",
		"reminder renew passport 2026-11-28 false true",
	}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("default agenda (-want +got)\n%s", diff)
	}
	if c := got.Get(`items.#(kind=="event").caseId`).String(); c != id {
		t.Errorf("event caseId %q, want %q", c, id)
	}

	// A range, a domain, and the board's zone changed through the prefs.
	if n := len(b.must(http.StatusOK, "GET", "/api/agenda?from=2026-12-01&to=2026-12-31", nil).Get("items").Array()); n != 1 {
		t.Errorf("December: %d items, want 1", n)
	}
	if n := len(b.must(http.StatusOK, "GET", "/api/agenda?domain=work", nil).Get("items").Array()); n != 2 {
		t.Errorf("work: %d items, want the reminder and the domainless event", n)
	}
	b.must(http.StatusOK, "PATCH", "/api/prefs", map[string]any{"timezone": "America/New_York"})
	ny := b.must(http.StatusOK, "GET", "/api/agenda", nil)
	if ny.Get("timezone").String() != "America/New_York" || ny.Get("today").String() != "2026-11-23" {
		t.Errorf("after the zone change: %s", ny.Raw)
	}
	if due := ny.Get(`items.#(title=="call advisor").dueAt`).String(); due != "2026-11-25T15:00:00-05:00" {
		t.Errorf("a time without offset is read in the board's zone: %q", due)
	}
}

func TestAgendaRefusesBadRanges(t *testing.T) {
	b := newBoard(t)
	b.fails(http.StatusBadRequest, "'from'", "GET", "/api/agenda?from=monday", nil)
	b.fails(http.StatusBadRequest, "'to'", "GET", "/api/agenda?to=2026-13-01", nil)
	b.fails(http.StatusBadRequest, "'from'", "GET", "/api/agenda?from=2026-12-02&to=2026-12-01", nil)
	b.fails(http.StatusBadRequest, "domain", "GET", "/api/agenda?domain=play", nil)
}

func TestTimezonePreference(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	b := newBoard(t, at(time.Now(), berlin))
	// Unset, the preference stays out of the prefs object (older pages read
	// it whole) and the machine's zone applies.
	if b.must(http.StatusOK, "GET", "/api/prefs", nil).Get("prefs.timezone").Exists() {
		t.Error("an unset timezone is filled into the preferences")
	}
	if tz := b.must(http.StatusOK, "GET", "/api/agenda", nil).Get("timezone").String(); tz != "Europe/Berlin" {
		t.Errorf("default timezone %q, want the machine's zone", tz)
	}
	b.fails(http.StatusBadRequest, "timezone", "PATCH", "/api/prefs", map[string]any{"timezone": "Mars/Olympus"})
	b.fails(http.StatusBadRequest, "timezone", "PATCH", "/api/prefs", map[string]any{"timezone": 3})
	if tz := b.must(http.StatusOK, "PATCH", "/api/prefs", map[string]any{"timezone": "UTC"}).Get("prefs.timezone").String(); tz != "UTC" {
		t.Errorf("timezone %q after the patch", tz)
	}
}

func TestChildInheritsItsParentsDomain(t *testing.T) {
	b := newBoard(t)
	ini := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Home", "kind": "initiative", "domain": "life"}).Get("case.id").String()
	ws := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Garden", "kind": "workstream", "parentId": ini}).Get("case")
	if ws.Get("domain").String() != "life" {
		t.Errorf("a workstream under a life initiative is %s", ws.Get("domain"))
	}
	leaf := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Hedge", "parentId": ws.Get("id").String()}).Get("case.domain").String()
	given := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Invoice", "parentId": ws.Get("id").String(), "domain": "work"}).Get("case.domain").String()
	top := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Loose"}).Get("case.domain").String()
	if leaf != "life" || given != "work" || top != "work" {
		t.Errorf("leaf %s (want life), given %s (want work), top-level %s (want work)", leaf, given, top)
	}
}
