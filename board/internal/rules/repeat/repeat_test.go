package repeat_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/rules/repeat"
)

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

// A range far from a series' start is expanded from a later anchor; it must
// give exactly what walking from the start gives, for every kind of rule,
// interval, awkward start (the 31st, the 29th of February, a time a
// daylight saving change skips) and range.
func TestBetweenSkipsAheadFaithfully(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	rules := []string{
		"FREQ=DAILY", "FREQ=DAILY;INTERVAL=3", "FREQ=WEEKLY", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH", "FREQ=WEEKLY;INTERVAL=3;BYDAY=SU",
		"FREQ=MONTHLY", "FREQ=MONTHLY;INTERVAL=2", "FREQ=MONTHLY;BYMONTHDAY=31", "FREQ=MONTHLY;INTERVAL=5;BYMONTHDAY=1,15,-1",
		"FREQ=MONTHLY;BYDAY=2TU", "FREQ=MONTHLY;INTERVAL=4;BYDAY=-1FR", "FREQ=YEARLY", "FREQ=YEARLY;INTERVAL=3",
		"FREQ=WEEKLY;BYDAY=WE;UNTIL=20300101",
	}
	starts := []time.Time{
		time.Date(2014, 1, 31, 9, 0, 0, 0, time.UTC), time.Date(2016, 2, 29, 0, 0, 0, 0, time.UTC),
		time.Date(2015, 3, 4, 2, 30, 0, 0, berlin), time.Date(2013, 10, 27, 2, 30, 0, 0, berlin), time.Date(2019, 12, 31, 23, 45, 0, 0, berlin),
	}
	ranges := [][2]time.Time{
		{time.Date(2026, 3, 1, 0, 0, 0, 0, berlin), time.Date(2026, 4, 12, 0, 0, 0, 0, berlin)},
		{time.Date(2028, 2, 20, 0, 0, 0, 0, time.UTC), time.Date(2028, 3, 10, 0, 0, 0, 0, time.UTC)},
		{time.Date(2026, 10, 20, 0, 0, 0, 0, berlin), time.Date(2027, 11, 2, 0, 0, 0, 0, berlin)},
	}
	for _, rs := range rules {
		r := mustParse(t, rs)
		for _, start := range starts {
			for _, rg := range ranges {
				walked, skipped := repeat.BetweenFromStart(r, start, rg[0], rg[1]), repeat.Between(r, start, rg[0], rg[1], 0)
				if diff := cmp.Diff(walked, skipped, cmp.Comparer(time.Time.Equal)); diff != "" {
					t.Errorf("%s from %s in %s..%s (-walked +skipped)\n%s", rs, start, rg[0].Format("2006-01-02"), rg[1].Format("2006-01-02"), diff)
				}
			}
		}
	}
}
