package ingest

import (
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
