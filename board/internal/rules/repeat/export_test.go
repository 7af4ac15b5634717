package repeat

import "time"

// BetweenFromStart is Between walking every occurrence from the start, the
// reference the skip ahead is checked against.
func BetweenFromStart(r Rule, start, from, to time.Time) []time.Time {
	var out []time.Time
	next := series(r, start, time.Time{})
	for {
		t, ok := next()
		if !ok || !t.Before(to) {
			return out
		}
		if !t.Before(from) {
			out = append(out, t)
		}
	}
}
