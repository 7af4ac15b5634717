package recur

import (
	"strconv"
	"strings"
	"time"
)

// Describe says a rule in plain words: "every 2 weeks on Mon, Thu",
// "monthly on the 2nd Tuesday", "daily, 5 times". The zero rule is "".
func Describe(r Rule) string {
	if r.Freq == "" {
		return ""
	}
	unit := map[Freq]string{Daily: "day", Weekly: "week", Monthly: "month", Yearly: "year"}[r.Freq]
	var b strings.Builder
	if r.Interval > 1 {
		b.WriteString("every " + strconv.Itoa(r.Interval) + " " + unit + "s")
	} else {
		b.WriteString(map[Freq]string{Daily: "daily", Weekly: "weekly", Monthly: "monthly", Yearly: "yearly"}[r.Freq])
	}
	switch {
	case r.Freq == Weekly && len(r.ByDay) > 0:
		names := make([]string, len(r.ByDay))
		for i, d := range r.ByDay {
			names[i] = d.Weekday.String()[:3]
		}
		b.WriteString(" on " + strings.Join(names, ", "))
	case r.Freq == Monthly && len(r.ByDay) == 1:
		d := r.ByDay[0]
		b.WriteString(" on the " + nth(d.N) + " " + d.Weekday.String())
	case r.Freq == Monthly && len(r.ByMonthDay) > 0:
		names := make([]string, len(r.ByMonthDay))
		for i, n := range r.ByMonthDay {
			if n < 0 {
				names[i] = nth(n) + " day"
			} else {
				names[i] = ordinal(n)
			}
		}
		b.WriteString(" on the " + joinAnd(names))
	}
	switch {
	case r.Count == 1:
		b.WriteString(", once")
	case r.Count > 1:
		b.WriteString(", " + strconv.Itoa(r.Count) + " times")
	case r.Until != "":
		if t, ok := UntilTime(r.Until, time.UTC); ok {
			if len(r.Until) == 8 {
				b.WriteString(", until " + t.Format("2006-01-02"))
			} else {
				b.WriteString(", until " + t.Format("2006-01-02 15:04"))
				if strings.HasSuffix(r.Until, "Z") {
					b.WriteString(" UTC")
				}
			}
		}
	}
	return b.String()
}

// DescribeString describes a stored rule; a rule that does not parse is
// returned as it is, so a hand edit still shows.
func DescribeString(s string) string {
	if strings.TrimSpace(s) == "" {
		return ""
	}
	r, err := Parse(s)
	if err != nil {
		return s
	}
	return Describe(r)
}

// nth is 2 -> "2nd", -1 -> "last", -2 -> "2nd-to-last".
func nth(n int) string {
	switch {
	case n == -1:
		return "last"
	case n < 0:
		return ordinal(-n) + "-to-last"
	}
	return ordinal(n)
}

func ordinal(n int) string {
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return strconv.Itoa(n) + suffix
}

func joinAnd(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}
