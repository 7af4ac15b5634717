package store

import (
	"testing"

	"github.com/opsboard/opsboard/shared/storefile"
)

func TestCoveredBy(t *testing.T) {
	entries := func(vs ...int64) []storefile.Entry {
		out := make([]storefile.Entry, len(vs))
		for i, v := range vs {
			out[i].Version = v
		}
		return out
	}
	for _, tc := range []struct {
		name     string
		entries  []storefile.Entry
		from, to int64
		want     bool
	}{
		{"nothing to cover", nil, 5, 5, true},
		{"an empty journal cannot cover a write", nil, 5, 6, false},
		{"every write after from", entries(6, 7, 8), 5, 8, true},
		{"older entries are skipped", entries(3, 4, 5, 6, 7), 5, 7, true},
		{"trimmed past from", entries(7, 8), 5, 8, false},
		{"a gap in between", entries(6, 8), 5, 8, false},
		{"ends short of to", entries(6, 7), 5, 8, false},
		{"entries past to do not matter", entries(6, 7, 9), 5, 7, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := coveredBy(tc.entries, tc.from, tc.to); got != tc.want {
				t.Errorf("coveredBy(%v, %d, %d) = %v, want %v", tc.entries, tc.from, tc.to, got, tc.want)
			}
		})
	}
}
