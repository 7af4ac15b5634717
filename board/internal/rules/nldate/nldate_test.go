package nldate_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/rules/nldate"
)

func TestParse(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no zone data:", err)
	}
	// Thursday 26 November 2026, 10:30 in Berlin (09:30 UTC). "next fri"
	// is the coming Friday, as the parser reads it.
	now := time.Date(2026, 11, 26, 9, 30, 0, 0, time.UTC)
	p := nldate.New()
	for _, tc := range []struct {
		text string
		want nldate.Result
	}{
		{"tomorrow 9am", nldate.Result{DueAt: "2026-11-27T09:00:00+01:00", Text: "tomorrow 9am"}},
		{"tomorrow", nldate.Result{DueAt: "2026-11-27", AllDay: true, Text: "tomorrow"}},
		{"next fri", nldate.Result{DueAt: "2026-11-27", AllDay: true, Text: "next fri"}},
		{"friday", nldate.Result{DueAt: "2026-11-27", AllDay: true, Text: "friday"}},
		{"in 3 days", nldate.Result{DueAt: "2026-11-29", AllDay: true, Text: "in 3 days"}},
		{"in 2 hours", nldate.Result{DueAt: "2026-11-26T12:30:00+01:00", Text: "in 2 hours"}},
		{"call Bo tomorrow at 5pm", nldate.Result{DueAt: "2026-11-27T17:00:00+01:00", Text: "tomorrow at 5pm"}},
	} {
		t.Run(tc.text, func(t *testing.T) {
			got, ok := p.Parse(tc.text, now, berlin)
			if !ok {
				t.Fatal("did not parse")
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
	for _, text := range []string{"", "   ", "no date here", "banana"} {
		if got, ok := p.Parse(text, now, berlin); ok {
			t.Errorf("%q parsed as %+v", text, got)
		}
	}
}
