// Package recur is the board's recurrence rule as written: the subset of an
// RFC 5545 RRULE that reminders, case tasks and events take (DAILY; WEEKLY
// on days; MONTHLY on a day of the month or on the nth weekday; YEARLY;
// INTERVAL; UNTIL or COUNT). It parses and checks a rule, writes it in its
// canonical form and says it in plain words, for the board and the tool
// servers alike; the board's repeat package expands it.
package recur

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/opsboard/opsboard/shared/wire"
)

// Freq is how often a rule repeats.
type Freq string

// The frequencies of the subset.
const (
	Daily   Freq = "DAILY"
	Weekly  Freq = "WEEKLY"
	Monthly Freq = "MONTHLY"
	Yearly  Freq = "YEARLY"
)

// Limits of a rule's numbers: generous for people, small enough that no
// rule can make an expansion run away.
const (
	MaxInterval = wire.MaxRepeatInterval
	MaxCount    = wire.MaxRepeatCount
)

// Day is a BYDAY entry: a weekday, with N the nth of the month (1..5, or
// -1 the last .. -5) or 0 for every such day of the week.
type Day struct {
	N       int
	Weekday time.Weekday
}

// Rule is a parsed recurrence rule. Its zero value repeats nothing.
type Rule struct {
	Freq       Freq
	Interval   int // 1 or more
	ByDay      []Day
	ByMonthDay []int // 1..31, or -1 (the last day) .. -31
	// Until is the UNTIL value as written: a day YYYYMMDD (through that
	// whole day) or a time YYYYMMDDTHHMMSS, with Z for UTC.
	Until string
	Count int // 0: no count
}

var dayCodes = map[string]time.Weekday{"MO": time.Monday, "TU": time.Tuesday, "WE": time.Wednesday, "TH": time.Thursday, "FR": time.Friday, "SA": time.Saturday, "SU": time.Sunday}

func dayCode(w time.Weekday) string { return strings.ToUpper(w.String()[:2]) }

// supported names the parts a rule may have, for the refusals.
const supported = "FREQ, INTERVAL, BYDAY, BYMONTHDAY, UNTIL, COUNT"

// Parse reads a rule such as FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH (an
// RRULE: prefix and lower case are accepted). Anything outside the subset
// is refused with an error that names what is not supported.
func Parse(s string) (Rule, error) {
	s = strings.ToUpper(strings.TrimSpace(s))
	s = strings.TrimPrefix(s, "RRULE:")
	if s == "" {
		return Rule{}, fmt.Errorf("is empty; give a rule such as FREQ=WEEKLY;BYDAY=MO")
	}
	var r Rule
	seen := map[string]bool{}
	for _, part := range strings.Split(strings.TrimSuffix(s, ";"), ";") {
		key, val, ok := strings.Cut(part, "=")
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		if !ok || key == "" || val == "" {
			return Rule{}, fmt.Errorf("%q is not NAME=VALUE (a rule looks like FREQ=WEEKLY;BYDAY=MO,TH)", part)
		}
		if seen[key] {
			return Rule{}, fmt.Errorf("%s is given twice", key)
		}
		seen[key] = true
		var err error
		switch key {
		case "FREQ":
			r.Freq = Freq(val)
			if !slices.Contains([]Freq{Daily, Weekly, Monthly, Yearly}, r.Freq) {
				err = fmt.Errorf("FREQ=%s is not supported: use DAILY, WEEKLY, MONTHLY or YEARLY", val)
			}
		case "INTERVAL":
			r.Interval, err = number("INTERVAL", val, 1, MaxInterval)
		case "COUNT":
			r.Count, err = number("COUNT", val, 1, MaxCount)
		case "UNTIL":
			r.Until = val
			if _, ok := UntilTime(val, time.UTC); !ok {
				err = fmt.Errorf("UNTIL must be a day YYYYMMDD or a time YYYYMMDDTHHMMSSZ, not %q", val)
			}
		case "BYDAY":
			r.ByDay, err = days(val)
		case "BYMONTHDAY":
			for _, v := range strings.Split(val, ",") {
				n, e := strconv.Atoi(strings.TrimSpace(v))
				if e != nil || n == 0 || n > 31 || n < -31 {
					return Rule{}, fmt.Errorf("BYMONTHDAY takes days 1 to 31, or -1 for the last day, not %q", v)
				}
				if !slices.Contains(r.ByMonthDay, n) {
					r.ByMonthDay = append(r.ByMonthDay, n)
				}
			}
		default:
			err = fmt.Errorf("%s is not supported (a rule may have %s)", key, supported)
		}
		if err != nil {
			return Rule{}, err
		}
	}
	if r.Freq == "" {
		return Rule{}, fmt.Errorf("FREQ is required: DAILY, WEEKLY, MONTHLY or YEARLY")
	}
	if r.Interval == 0 {
		r.Interval = 1
	}
	if r.Until != "" && r.Count != 0 {
		return Rule{}, fmt.Errorf("UNTIL and COUNT cannot both be set: a series ends on a day or after a number of times")
	}
	if err := r.checkParts(); err != nil {
		return Rule{}, err
	}
	r.sort()
	return r, nil
}

// checkParts refuses BYDAY and BYMONTHDAY where the subset has no meaning
// for them.
func (r Rule) checkParts() error {
	switch r.Freq {
	case Weekly:
		if len(r.ByMonthDay) > 0 {
			return fmt.Errorf("BYMONTHDAY is not supported with FREQ=WEEKLY (it goes with FREQ=MONTHLY)")
		}
		for _, d := range r.ByDay {
			if d.N != 0 {
				return fmt.Errorf("BYDAY=%d%s is not supported with FREQ=WEEKLY: a weekly rule takes days without a number, such as MO,TH", d.N, dayCode(d.Weekday))
			}
		}
	case Monthly:
		if len(r.ByDay) > 0 && len(r.ByMonthDay) > 0 {
			return fmt.Errorf("BYDAY and BYMONTHDAY cannot be combined: a monthly rule is on a day of the month or on the nth weekday")
		}
		if len(r.ByDay) > 1 || (len(r.ByDay) == 1 && r.ByDay[0].N == 0) {
			return fmt.Errorf("a monthly BYDAY is one nth weekday such as 2TU (the second Tuesday) or -1FR (the last Friday)")
		}
		if len(r.ByDay) == 1 && (r.ByDay[0].N > 5 || r.ByDay[0].N < -5) {
			return fmt.Errorf("a monthly BYDAY counts weeks 1 to 5 or -1 to -5, not %d", r.ByDay[0].N)
		}
	default:
		if len(r.ByDay) > 0 {
			return fmt.Errorf("BYDAY is not supported with FREQ=%s (it goes with WEEKLY or MONTHLY)", r.Freq)
		}
		if len(r.ByMonthDay) > 0 {
			return fmt.Errorf("BYMONTHDAY is not supported with FREQ=%s (it goes with MONTHLY)", r.Freq)
		}
	}
	return nil
}

func number(name, val string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(val)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%s must be a whole number from %d to %d, not %q", name, lo, hi, val)
	}
	return n, nil
}

func days(val string) ([]Day, error) {
	var out []Day
	for _, v := range strings.Split(val, ",") {
		v = strings.TrimSpace(v)
		if len(v) < 2 {
			return nil, fmt.Errorf("BYDAY entry %q is not a day (MO, TU, WE, TH, FR, SA, SU, optionally numbered as 2TU or -1FR)", v)
		}
		w, ok := dayCodes[v[len(v)-2:]]
		if !ok {
			return nil, fmt.Errorf("BYDAY entry %q is not a day (MO, TU, WE, TH, FR, SA, SU, optionally numbered as 2TU or -1FR)", v)
		}
		d := Day{Weekday: w}
		if num := v[:len(v)-2]; num != "" {
			n, err := strconv.Atoi(num)
			if err != nil || n == 0 {
				return nil, fmt.Errorf("BYDAY entry %q: the number before the day must be 1 to 5 or -1 to -5", v)
			}
			d.N = n
		}
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out, nil
}

// MondayFirst orders weekdays Monday to Sunday, as the rule's words do.
func MondayFirst(w time.Weekday) int { return (int(w) + 6) % 7 }

func (r *Rule) sort() {
	slices.SortFunc(r.ByDay, func(a, b Day) int { return MondayFirst(a.Weekday) - MondayFirst(b.Weekday) })
	slices.SortFunc(r.ByMonthDay, func(a, b int) int {
		if (a > 0) != (b > 0) {
			if a > 0 {
				return -1
			}
			return 1
		}
		if a > 0 {
			return a - b
		}
		return b - a // -1 (the last day) after -2
	})
}

// String is the rule in its canonical RRULE form (without the RRULE:
// prefix): FREQ, then INTERVAL when above 1, BYDAY, BYMONTHDAY, UNTIL or
// COUNT. The zero rule is "".
func (r Rule) String() string {
	if r.Freq == "" {
		return ""
	}
	parts := []string{"FREQ=" + string(r.Freq)}
	if r.Interval > 1 {
		parts = append(parts, "INTERVAL="+strconv.Itoa(r.Interval))
	}
	if len(r.ByDay) > 0 {
		ds := make([]string, len(r.ByDay))
		for i, d := range r.ByDay {
			ds[i] = dayCode(d.Weekday)
			if d.N != 0 {
				ds[i] = strconv.Itoa(d.N) + ds[i]
			}
		}
		parts = append(parts, "BYDAY="+strings.Join(ds, ","))
	}
	if len(r.ByMonthDay) > 0 {
		ds := make([]string, len(r.ByMonthDay))
		for i, d := range r.ByMonthDay {
			ds[i] = strconv.Itoa(d)
		}
		parts = append(parts, "BYMONTHDAY="+strings.Join(ds, ","))
	}
	if r.Until != "" {
		parts = append(parts, "UNTIL="+r.Until)
	}
	if r.Count > 0 {
		parts = append(parts, "COUNT="+strconv.Itoa(r.Count))
	}
	return strings.Join(parts, ";")
}

// UntilTime is the last instant an UNTIL value lets an occurrence start:
// the end of the day for a day, the time itself for a time. A day or a time
// without Z is a wall-clock time in loc.
func UntilTime(s string, loc *time.Location) (time.Time, bool) {
	if t, err := time.ParseInLocation("20060102", s, loc); err == nil && len(s) == 8 {
		return t.AddDate(0, 0, 1).Add(-time.Second), true
	}
	if t, err := time.Parse("20060102T150405Z", s); err == nil {
		return t, true
	}
	if t, err := time.ParseInLocation("20060102T150405", s, loc); err == nil {
		return t, true
	}
	return time.Time{}, false
}
