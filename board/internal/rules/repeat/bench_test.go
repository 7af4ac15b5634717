package repeat_test

import (
	"testing"
	"time"

	"github.com/opsboard/opsboard/board/internal/rules/repeat"
)

// BenchmarkBetween expands what a calendar month view asks of a series
// (six weeks) for a weekly rule started ten years earlier: the expansion
// skips ahead by whole intervals rather than walking from the start.
func BenchmarkBetween(b *testing.B) {
	r, _ := repeat.Parse("FREQ=WEEKLY;BYDAY=MO,TH")
	start := time.Date(2016, 3, 7, 9, 0, 0, 0, time.UTC)
	from, to := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 4, 12, 0, 0, 0, 0, time.UTC)
	for b.Loop() {
		if got := repeat.Between(r, start, from, to, 0); len(got) != 12 {
			b.Fatalf("%d occurrences", len(got))
		}
	}
}

// BenchmarkNextDue is the rule work of one completion.
func BenchmarkNextDue(b *testing.B) {
	r, _ := repeat.Parse("FREQ=MONTHLY;BYDAY=-1FR;COUNT=12")
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		b.Skip(err)
	}
	for b.Loop() {
		if _, _, ok := repeat.NextDue(r, "2026-03-27T09:00:00+01:00", berlin); !ok {
			b.Fatal("no next")
		}
	}
}
