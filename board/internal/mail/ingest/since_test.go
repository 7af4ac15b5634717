package ingest

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestCutoff(t *testing.T) {
	now := time.Date(2026, 11, 26, 20, 0, 0, 0, time.UTC)
	berlin, _ := time.LoadLocation("Europe/Berlin")
	for _, tc := range []struct {
		name           string
		flag, config   string
		recorded, mark string
		want           string // RFC 3339, "" for no cutoff
		wantSince      string // recorded afterwards
		wantMark       string // the watermark afterwards
	}{
		{"first run: 90 days back, recorded", "", "", "", "", "2026-08-28T00:00:00+02:00", "2026-08-28", ""},
		{"a source read before since existed keeps reading all", "", "", "", "w1", "", "", "w1"},
		{"the recorded since holds", "", "", "2026-08-28", "w1", "2026-08-28T00:00:00+02:00", "2026-08-28", "w1"},
		{"the config's since", "", "2026-03-01", "", "", "2026-03-01T00:00:00+01:00", "2026-03-01", ""},
		{"the flag wins", "2026-05-01", "2026-03-01", "", "w1", "2026-05-01T00:00:00+02:00", "2026-05-01", "w1"},
		{"a later since keeps the watermark", "", "2026-09-01", "2026-08-28", "w1", "2026-09-01T00:00:00+02:00", "2026-09-01", "w1"},
		{"an earlier since rescans", "", "2026-01-01", "2026-08-28", "w1", "2026-01-01T00:00:00+01:00", "2026-01-01", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := &state{Sources: map[string]string{}, Since: map[string]string{}}
			if tc.recorded != "" {
				st.Since["a"] = tc.recorded
			}
			if tc.mark != "" {
				st.Sources["a"] = tc.mark
			}
			got, err := cutoff(tc.flag, SourceConfig{Name: "a", Since: tc.config}, st, now, berlin)
			if err != nil {
				t.Fatal(err)
			}
			gotText := ""
			if !got.IsZero() {
				gotText = got.Format(time.RFC3339)
			}
			if gotText != tc.want || st.Since["a"] != tc.wantSince || st.Sources["a"] != tc.wantMark {
				t.Errorf("cutoff %q since %q watermark %q, want %q %q %q", gotText, st.Since["a"], st.Sources["a"], tc.want, tc.wantSince, tc.wantMark)
			}
		})
	}
	if _, err := cutoff("26/11/2026", SourceConfig{Name: "a"}, &state{Sources: map[string]string{}, Since: map[string]string{}}, now, berlin); err == nil || err.Error() != `source a: since "26/11/2026" is not a date YYYY-MM-DD` {
		t.Errorf("a bad since: %v", err)
	}
}

// A flight keeps the watermark of the last message done without a gap, and
// holds one watermark per run of done messages past a gap, not one each.
func TestFlightKeepsOneWatermarkPerRun(t *testing.T) {
	st := &state{Sources: map[string]string{}, Since: map[string]string{}}
	f := &flight{st: st, name: "a", dry: true, done: map[int]string{}}
	for range 6 {
		f.start()
	}
	for _, seq := range []int{1, 2, 4, 3} { // 0 is still in flight
		f.finish(seq, fmt.Sprintf("w%d", seq), nil)
	}
	if st.Sources["a"] != "" || len(f.done) != 4 {
		t.Fatalf("watermark %q with message 0 in flight, done %v", st.Sources["a"], f.done)
	}
	if kept := f.done[1] + f.done[2] + f.done[3] + f.done[4]; kept != strings.Repeat(superseded, 3)+"w4" {
		t.Errorf("done %v, want only w4 kept", f.done)
	}
	f.finish(0, "w0", nil)
	if st.Sources["a"] != "w4" || len(f.done) != 0 {
		t.Errorf("watermark %q, done %v; want w4 and nothing left", st.Sources["a"], f.done)
	}
	f.finish(5, "w5", nil)
	if st.Sources["a"] != "w5" {
		t.Errorf("watermark %q, want w5", st.Sources["a"])
	}
}
