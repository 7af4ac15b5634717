package field

import "testing"

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
