package recur_test

import (
	"strings"
	"testing"

	"github.com/opsboard/opsboard/shared/recur"
)

func TestParseCanonical(t *testing.T) {
	for _, tc := range []struct{ in, want, words string }{
		{"FREQ=DAILY", "FREQ=DAILY", "daily"},
		{"rrule:freq=daily;count=5", "FREQ=DAILY;COUNT=5", "daily, 5 times"},
		{"FREQ=DAILY;INTERVAL=3", "FREQ=DAILY;INTERVAL=3", "every 3 days"},
		{"FREQ=WEEKLY;INTERVAL=2;BYDAY=TH,MO", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH", "every 2 weeks on Mon, Thu"},
		{"FREQ=WEEKLY;BYDAY=SU,MO,MO", "FREQ=WEEKLY;BYDAY=MO,SU", "weekly on Mon, Sun"},
		{"FREQ=WEEKLY", "FREQ=WEEKLY", "weekly"},
		{"FREQ=MONTHLY;BYDAY=2TU", "FREQ=MONTHLY;BYDAY=2TU", "monthly on the 2nd Tuesday"},
		{"FREQ=MONTHLY;BYDAY=+1MO", "FREQ=MONTHLY;BYDAY=1MO", "monthly on the 1st Monday"},
		{"FREQ=MONTHLY;BYDAY=-1FR", "FREQ=MONTHLY;BYDAY=-1FR", "monthly on the last Friday"},
		{"FREQ=MONTHLY;BYDAY=-2WE;INTERVAL=3", "FREQ=MONTHLY;INTERVAL=3;BYDAY=-2WE", "every 3 months on the 2nd-to-last Wednesday"},
		{"FREQ=MONTHLY;BYMONTHDAY=15", "FREQ=MONTHLY;BYMONTHDAY=15", "monthly on the 15th"},
		{"FREQ=MONTHLY;BYMONTHDAY=-1,1,22", "FREQ=MONTHLY;BYMONTHDAY=1,22,-1", "monthly on the 1st, 22nd and last day"},
		{"FREQ=MONTHLY;BYMONTHDAY=3;UNTIL=20261231", "FREQ=MONTHLY;BYMONTHDAY=3;UNTIL=20261231", "monthly on the 3rd, until 2026-12-31"},
		{"FREQ=YEARLY;COUNT=1", "FREQ=YEARLY;COUNT=1", "yearly, once"},
		{"FREQ=YEARLY;INTERVAL=2;UNTIL=20300101T120000Z", "FREQ=YEARLY;INTERVAL=2;UNTIL=20300101T120000Z", "every 2 years, until 2030-01-01 12:00 UTC"},
		{"FREQ=DAILY;INTERVAL=1;", "FREQ=DAILY", "daily"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			r, err := recur.Parse(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := r.String(); got != tc.want {
				t.Errorf("String() = %q, want %q", got, tc.want)
			}
			if got := recur.Describe(r); got != tc.words {
				t.Errorf("Describe() = %q, want %q", got, tc.words)
			}
			again, err := recur.Parse(r.String())
			if err != nil || again.String() != tc.want {
				t.Errorf("canonical form does not parse back: %v %q", err, again.String())
			}
		})
	}
}

func TestParseRefuses(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "is empty"},
		{"WEEKLY", "not NAME=VALUE"},
		{"INTERVAL=2", "FREQ is required"},
		{"FREQ=HOURLY", "FREQ=HOURLY is not supported"},
		{"FREQ=SECONDLY", "FREQ=SECONDLY is not supported"},
		{"FREQ=DAILY;BYSETPOS=1", "BYSETPOS is not supported"},
		{"FREQ=YEARLY;BYMONTH=3", "BYMONTH is not supported"},
		{"FREQ=WEEKLY;WKST=SU", "WKST is not supported"},
		{"FREQ=DAILY;FREQ=WEEKLY", "FREQ is given twice"},
		{"FREQ=DAILY;INTERVAL=0", "INTERVAL must be a whole number from 1 to 999"},
		{"FREQ=DAILY;INTERVAL=x", "INTERVAL must be"},
		{"FREQ=DAILY;COUNT=0", "COUNT must be a whole number from 1 to 999"},
		{"FREQ=DAILY;COUNT=3;UNTIL=20260101", "UNTIL and COUNT cannot both be set"},
		{"FREQ=DAILY;UNTIL=2026-01-01", "UNTIL must be a day YYYYMMDD"},
		{"FREQ=DAILY;BYDAY=MO", "BYDAY is not supported with FREQ=DAILY"},
		{"FREQ=YEARLY;BYDAY=MO", "BYDAY is not supported with FREQ=YEARLY"},
		{"FREQ=WEEKLY;BYDAY=2TU", "BYDAY=2TU is not supported with FREQ=WEEKLY"},
		{"FREQ=WEEKLY;BYDAY=XX", `BYDAY entry "XX" is not a day`},
		{"FREQ=WEEKLY;BYMONTHDAY=3", "BYMONTHDAY is not supported with FREQ=WEEKLY"},
		{"FREQ=MONTHLY;BYDAY=TU", "one nth weekday such as 2TU"},
		{"FREQ=MONTHLY;BYDAY=1TU,3TU", "one nth weekday such as 2TU"},
		{"FREQ=MONTHLY;BYDAY=6TU", "weeks 1 to 5 or -1 to -5"},
		{"FREQ=MONTHLY;BYDAY=0TU", "the number before the day must be"},
		{"FREQ=MONTHLY;BYDAY=2TU;BYMONTHDAY=3", "cannot be combined"},
		{"FREQ=MONTHLY;BYMONTHDAY=32", "BYMONTHDAY takes days 1 to 31"},
		{"FREQ=MONTHLY;BYMONTHDAY=0", "BYMONTHDAY takes days 1 to 31"},
		{"FREQ=DAILY;BYMONTHDAY=1", "BYMONTHDAY is not supported with FREQ=DAILY"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			_, err := recur.Parse(tc.in)
			if err == nil {
				t.Fatalf("Parse(%q) accepted", tc.in)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
		})
	}
}

func TestDescribeString(t *testing.T) {
	if got := recur.DescribeString("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH"); got != "every 2 weeks on Mon, Thu" {
		t.Errorf("got %q", got)
	}
	if got := recur.DescribeString("FREQ=HOURLY"); got != "FREQ=HOURLY" {
		t.Errorf("a rule that does not parse shows as written, got %q", got)
	}
	if got := recur.DescribeString(""); got != "" {
		t.Errorf("got %q", got)
	}
}
