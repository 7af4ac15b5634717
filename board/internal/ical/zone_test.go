package ical

import (
	"strings"
	"testing"
	"time"

	goical "github.com/emersion/go-ical"
	"github.com/google/go-cmp/cmp"
)

func TestTimezone(t *testing.T) {
	for _, tc := range []struct {
		zone string
		want []string
	}{
		{"America/New_York", []string{"DAYLIGHT 20260308T020000 -0500 -0400 EDT FREQ=YEARLY;BYMONTH=3;BYDAY=2SU", "STANDARD 20261101T020000 -0400 -0500 EST FREQ=YEARLY;BYMONTH=11;BYDAY=1SU"}},
		{"Australia/Sydney", []string{"STANDARD 20260405T030000 +1100 +1000 AEST FREQ=YEARLY;BYMONTH=4;BYDAY=1SU", "DAYLIGHT 20261004T020000 +1000 +1100 AEDT FREQ=YEARLY;BYMONTH=10;BYDAY=1SU"}},
		{"Asia/Tokyo", []string{"STANDARD 19700101T000000 +0900 +0900 JST "}},
		{"Asia/Kolkata", []string{"STANDARD 19700101T000000 +0530 +0530 IST "}},
	} {
		t.Run(tc.zone, func(t *testing.T) {
			loc, err := time.LoadLocation(tc.zone)
			if err != nil {
				t.Skip(err)
			}
			tz := timezone(loc, 2026)
			var got []string
			for _, p := range tz.Children {
				line := []string{p.Name}
				for _, name := range []string{goical.PropDateTimeStart, goical.PropTimezoneOffsetFrom, goical.PropTimezoneOffsetTo, goical.PropTimezoneName, goical.PropRecurrenceRule} {
					v := ""
					if prop := p.Props.Get(name); prop != nil {
						v = prop.Value
					}
					line = append(line, v)
				}
				got = append(got, strings.Join(line, " "))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}
