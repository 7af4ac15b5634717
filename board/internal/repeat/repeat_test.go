package repeat_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/repeat"
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
			r, err := repeat.Parse(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := r.String(); got != tc.want {
				t.Errorf("String() = %q, want %q", got, tc.want)
			}
			if got := repeat.Describe(r); got != tc.words {
				t.Errorf("Describe() = %q, want %q", got, tc.words)
			}
			again, err := repeat.Parse(r.String())
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
			_, err := repeat.Parse(tc.in)
			if err == nil {
				t.Fatalf("Parse(%q) accepted", tc.in)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
		})
	}
}

func mustParse(t *testing.T, s string) repeat.Rule {
	t.Helper()
	r, err := repeat.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func day(s string) time.Time {
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		panic(err)
	}
	return t
}

func days(ts []time.Time) []string {
	out := []string{}
	for _, t := range ts {
		out = append(out, t.Format("2006-01-02 Mon"))
	}
	return out
}

func TestBetween(t *testing.T) {
	for _, tc := range []struct {
		name, rule, start, from, to string
		want                        []string
	}{
		{"daily", "FREQ=DAILY", "2026-03-01", "2026-03-03", "2026-03-06", []string{"2026-03-03 Tue", "2026-03-04 Wed", "2026-03-05 Thu"}},
		{"every 3 days", "FREQ=DAILY;INTERVAL=3", "2026-03-01", "2026-03-01", "2026-03-11", []string{"2026-03-01 Sun", "2026-03-04 Wed", "2026-03-07 Sat", "2026-03-10 Tue"}},
		{"every 2 weeks on Mon, Thu", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH", "2026-03-02", "2026-03-01", "2026-04-01",
			[]string{"2026-03-02 Mon", "2026-03-05 Thu", "2026-03-16 Mon", "2026-03-19 Thu", "2026-03-30 Mon"}},
		{"weekly from an off day counts the start first", "FREQ=WEEKLY;BYDAY=MO;COUNT=3", "2026-03-04", "2026-01-01", "2027-01-01",
			[]string{"2026-03-04 Wed", "2026-03-09 Mon", "2026-03-16 Mon"}},
		{"weekly on the start's day", "FREQ=WEEKLY", "2026-03-04", "2026-03-01", "2026-03-20", []string{"2026-03-04 Wed", "2026-03-11 Wed", "2026-03-18 Wed"}},
		{"monthly on the 2nd Tuesday", "FREQ=MONTHLY;BYDAY=2TU", "2026-01-13", "2026-01-01", "2026-05-01",
			[]string{"2026-01-13 Tue", "2026-02-10 Tue", "2026-03-10 Tue", "2026-04-14 Tue"}},
		{"monthly on the last Friday", "FREQ=MONTHLY;BYDAY=-1FR", "2026-01-30", "2026-01-01", "2026-05-01",
			[]string{"2026-01-30 Fri", "2026-02-27 Fri", "2026-03-27 Fri", "2026-04-24 Fri"}},
		{"monthly on the 31st skips short months", "FREQ=MONTHLY;BYMONTHDAY=31", "2026-01-31", "2026-01-01", "2026-06-01",
			[]string{"2026-01-31 Sat", "2026-03-31 Tue", "2026-05-31 Sun"}},
		{"monthly on the last day", "FREQ=MONTHLY;BYMONTHDAY=-1", "2026-01-31", "2026-01-01", "2026-05-01",
			[]string{"2026-01-31 Sat", "2026-02-28 Sat", "2026-03-31 Tue", "2026-04-30 Thu"}},
		{"every 2 months on the 15th", "FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=15", "2026-01-15", "2026-02-01", "2026-08-01",
			[]string{"2026-03-15 Sun", "2026-05-15 Fri", "2026-07-15 Wed"}},
		{"yearly", "FREQ=YEARLY", "2024-02-10", "2025-01-01", "2028-01-01", []string{"2025-02-10 Mon", "2026-02-10 Tue", "2027-02-10 Wed"}},
		{"yearly on the 29th of February", "FREQ=YEARLY", "2024-02-29", "2024-01-01", "2033-01-01", []string{"2024-02-29 Thu", "2028-02-29 Tue", "2032-02-29 Sun"}},
		{"until a day, inclusive", "FREQ=DAILY;UNTIL=20260305", "2026-03-01", "2026-03-03", "2026-04-01", []string{"2026-03-03 Tue", "2026-03-04 Wed", "2026-03-05 Thu"}},
		{"count", "FREQ=DAILY;COUNT=5", "2026-03-01", "2026-03-03", "2026-04-01", []string{"2026-03-03 Tue", "2026-03-04 Wed", "2026-03-05 Thu"}},
		{"nothing before the start", "FREQ=DAILY", "2026-03-10", "2026-03-01", "2026-03-11", []string{"2026-03-10 Tue"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := days(repeat.Between(mustParse(t, tc.rule), day(tc.start), day(tc.from), day(tc.to), 0))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestBetweenLimit(t *testing.T) {
	got := repeat.Between(mustParse(t, "FREQ=DAILY"), day("2026-01-01"), day("2026-01-01"), day("2027-01-01"), 10)
	if len(got) != 10 {
		t.Fatalf("got %d occurrences, want the limit of 10", len(got))
	}
}

func TestNext(t *testing.T) {
	r := mustParse(t, "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH")
	at, ok := repeat.Next(r, day("2026-03-02"), day("2026-03-10"))
	if !ok || at.Format("2006-01-02") != "2026-03-16" {
		t.Fatalf("Next = %v %v, want 2026-03-16", at, ok)
	}
	if _, ok := repeat.Next(mustParse(t, "FREQ=DAILY;COUNT=2"), day("2026-03-02"), day("2026-03-03")); ok {
		t.Fatal("a series of 2 has no occurrence after its second")
	}
}

func TestNextDue(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, rule, due string
		loc             *time.Location
		want, rest      string // want "" means the series ends
	}{
		{"daily, a day", "FREQ=DAILY", "2026-03-01", berlin, "2026-03-02", "FREQ=DAILY"},
		{"every 2 weeks on Mon, Thu: Mon to Thu", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH", "2026-03-02", berlin, "2026-03-05", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH"},
		{"every 2 weeks on Mon, Thu: Thu skips a week", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH", "2026-03-05", berlin, "2026-03-16", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH"},
		{"monthly on the 2nd Tuesday", "FREQ=MONTHLY;BYDAY=2TU", "2026-03-10T09:00", berlin, "2026-04-14T09:00", "FREQ=MONTHLY;BYDAY=2TU"},
		{"monthly on the 31st from January", "FREQ=MONTHLY;BYMONTHDAY=31", "2026-01-31", berlin, "2026-03-31", "FREQ=MONTHLY;BYMONTHDAY=31"},
		{"yearly", "FREQ=YEARLY", "2026-11-26", berlin, "2027-11-26", "FREQ=YEARLY"},
		{"count counts down", "FREQ=DAILY;COUNT=3", "2026-03-01", berlin, "2026-03-02", "FREQ=DAILY;COUNT=2"},
		{"count of one ends", "FREQ=DAILY;COUNT=1", "2026-03-01", berlin, "", ""},
		{"until stops", "FREQ=WEEKLY;UNTIL=20260310", "2026-03-04", berlin, "", ""},
		{"until includes its day", "FREQ=WEEKLY;UNTIL=20260311", "2026-03-04", berlin, "2026-03-11", "FREQ=WEEKLY;UNTIL=20260311"},
		// Berlin moves to summer time on 2026-03-29: 09:00 stays 09:00.
		{"offset across spring forward", "FREQ=WEEKLY", "2026-03-23T09:00:00+01:00", berlin, "2026-03-30T09:00:00+02:00", "FREQ=WEEKLY"},
		{"offset across fall back", "FREQ=DAILY", "2026-10-24T09:00:00+02:00", berlin, "2026-10-25T09:00:00+01:00", "FREQ=DAILY"},
		{"UTC keeps the zone's wall clock", "FREQ=WEEKLY", "2026-03-23T08:00:00Z", berlin, "2026-03-30T07:00:00Z", "FREQ=WEEKLY"},
		{"wall clock without offset", "FREQ=DAILY", "2026-03-28T09:30", berlin, "2026-03-29T09:30", "FREQ=DAILY"},
		{"wall clock in a gap moves past it", "FREQ=DAILY", "2026-03-28T02:30:00", berlin, "2026-03-29T03:30:00", "FREQ=DAILY"},
		{"New York spring forward", "FREQ=DAILY", "2026-03-07T18:00:00-05:00", ny, "2026-03-08T18:00:00-04:00", "FREQ=DAILY"},
		{"minutes form with offset", "FREQ=DAILY", "2026-03-28T09:00+01:00", berlin, "2026-03-29T09:00+02:00", "FREQ=DAILY"},
		{"unparseable due", "FREQ=DAILY", "soon", berlin, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			next, rest, ok := repeat.NextDue(mustParse(t, tc.rule), tc.due, tc.loc)
			if tc.want == "" {
				if ok {
					t.Fatalf("NextDue = %q, want the series to end", next)
				}
				return
			}
			if !ok || next != tc.want || rest.String() != tc.rest {
				t.Fatalf("NextDue = %q %q %v, want %q %q", next, rest.String(), ok, tc.want, tc.rest)
			}
		})
	}
}

func TestDescribeString(t *testing.T) {
	if got := repeat.DescribeString("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH"); got != "every 2 weeks on Mon, Thu" {
		t.Errorf("got %q", got)
	}
	if got := repeat.DescribeString("FREQ=HOURLY"); got != "FREQ=HOURLY" {
		t.Errorf("a rule that does not parse shows as written, got %q", got)
	}
	if got := repeat.DescribeString(""); got != "" {
		t.Errorf("got %q", got)
	}
}
