package field

import (
	"errors"
	"strings"
	"testing"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/shared/wire"
)

func TestDayAndClockChecks(t *testing.T) {
	for _, tc := range []struct {
		day string
		ok  bool
	}{
		{"2026-02-28", true}, {"2024-02-29", true}, {"2026-02-29", false}, {"2026-13-01", false},
		{"2026-1-01", false}, {"26-01-01", false}, {"2026-01-01T00:00", false}, {"", false},
	} {
		if got := CheckDay("date", tc.day) == nil; got != tc.ok {
			t.Errorf("day %q accepted=%v, want %v", tc.day, got, tc.ok)
		}
	}
	for _, tc := range []struct {
		clock string
		ok    bool
	}{
		{"00:00", true}, {"23:59", true}, {"", true}, {"24:00", false}, {"9:00", false}, {"09:60", false}, {"09:00:00", false}, {"0900", false},
	} {
		if got := CheckClock("startTime", tc.clock) == nil; got != tc.ok {
			t.Errorf("clock %q accepted=%v, want %v", tc.clock, got, tc.ok)
		}
	}
}

func TestNormalisations(t *testing.T) {
	for _, tc := range []struct{ name, got, want string }{
		{"an https URL is kept", SafeURL(" https://mail.example.com/m/1 "), "https://mail.example.com/m/1"},
		{"a script URL is dropped", SafeURL("javascript:alert(1)"), ""},
		{"a relative URL is dropped", SafeURL("/m/1"), ""},
		{"titles compare without case or spacing", NormTitle("  Renew  the LEASE "), "renew the lease"},
		{"child ids continue from the highest", NextChildID("CASE-3", "T", []string{"CASE-3-T1", "CASE-3-T7", "CASE-3-N9"}), "CASE-3-T8"},
		{"the first child id is 1", NextChildID("REM-2", "T", nil), "REM-2-T1"},
		{"a list is trimmed and deduped", strings.Join(CleanList([]string{" a", "", "b ", "a"}), ","), "a,b"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, tc.got, tc.want)
		}
	}
}

func TestChecks(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want string // "" means accepted
	}{
		{"a lane", OneOf("status", "done", wire.Lanes()), ""},
		{"not a lane", OneOf("status", "later", wire.Lanes()), `field 'status' must be one of urgent, todo, in_progress, waiting_for_input, done, not "later"`},
		{"a date", CheckDate("dueAt", "2026-02-28"), ""},
		{"a datetime without seconds", CheckDate("dueAt", "2026-02-28T09:30"), ""},
		{"no date", CheckDate("dueAt", ""), ""},
		{"not a date", CheckDate("dueAt", "friday"), `field 'dueAt' must be an ISO date (YYYY-MM-DD) or datetime, not "friday"`},
		{"a domain", CheckDomain(wire.DomainLife), ""},
		{"not a domain", CheckDomain("play"), `field 'domain' must be one of work, life, not "play"`},
	} {
		got := ""
		if tc.err != nil {
			got = tc.err.Error()
		}
		if got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestDepthNamesTheDeepestField(t *testing.T) {
	for _, tc := range []struct {
		raw   string
		depth int
		key   string
	}{
		{`1`, 0, ""},
		{`{}`, 1, ""},
		{`{"a":1,"b":[[2]],"c":{"d":{}}}`, 3, "b"},
		{`{"a":"{[{[","b":{"c":"\"{"}}`, 2, "b"},
		{`{"k\"ey":{"x":[]}}`, 3, `k\"ey`},
		{`[[[["a"]]]]`, 4, ""},
	} {
		depth, key := Depth([]byte(tc.raw))
		if depth != tc.depth || key != tc.key {
			t.Errorf("Depth(%s) = %d, %q; want %d, %q", tc.raw, depth, key, tc.depth, tc.key)
		}
	}
}

func TestFreeFormLimits(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	if err := FreeForm("filters", []byte(deep(MaxFreeFormDepth))); err != nil {
		t.Errorf("at the depth limit: %v", err)
	}
	var bad *errs.BadRequestError
	if err := FreeForm("filters", []byte(deep(MaxFreeFormDepth+1))); !errors.As(err, &bad) || !strings.Contains(err.Error(), "'filters'") {
		t.Errorf("one level too deep: %v", err)
	}
	var big *errs.TooLargeError
	if err := FreeForm("layout", []byte(`"`+strings.Repeat("x", MaxFreeFormBytes)+`"`)); !errors.As(err, &big) || !strings.Contains(err.Error(), "'layout'") {
		t.Errorf("over 64 KB: %v", err)
	}
}

func TestAddedAndChildIDs(t *testing.T) {
	if got := Added([]string{"a", "b", "c", "a"}, []string{"b"}); strings.Join(got, ",") != "a,c,a" {
		t.Errorf("Added = %v", got)
	}
	m := ChildIDsAfter("REM-2", "T", []string{"REM-2-T4", "REM-2-T10", "REM-2-Tx", "REM-3-T99", "REM-2-N50"})
	m.Saw("REM-2-T12")
	if a, b := m.Next(), m.Next(); a != "REM-2-T13" || b != "REM-2-T14" {
		t.Errorf("minted %s, %s", a, b)
	}
}
