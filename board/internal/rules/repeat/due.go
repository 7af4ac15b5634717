package repeat

import (
	"strings"
	"time"
)

// form is how a dueAt value was written, so the next occurrence is written
// the same way.
type form struct {
	layout string
	day    bool // a bare day: expanded as a floating date
	naive  bool // a wall-clock time in the board's zone
	utc    bool // written with Z
}

// parseDue reads a dueAt in the forms the board accepts: a day
// (YYYY-MM-DD), a wall-clock datetime without an offset (a time in loc), or
// a datetime with an offset or Z (moved into loc, so the series keeps its
// wall-clock time in the board's zone across daylight saving changes).
func parseDue(s string, loc *time.Location) (time.Time, form, bool) {
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return t, form{layout: "2006-01-02", day: true}, true
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04Z07:00"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.In(loc), form{layout: layout, utc: strings.HasSuffix(s, "Z")}, true
		}
	}
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02T15:04"} {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return t, form{layout: layout, naive: true}, true
		}
	}
	return time.Time{}, form{}, false
}

func (f form) format(t time.Time, loc *time.Location) string {
	switch {
	case f.day:
		return t.Format(f.layout)
	case f.utc:
		return t.UTC().Format(f.layout)
	}
	return t.In(loc).Format(f.layout)
}

// NextDue is what completing an item due at dueAt under rule r leaves: the
// next occurrence's dueAt, written in the same form, and its rule (COUNT one
// fewer). loc is the board's zone. ok is false when the series ends here or
// dueAt does not parse.
func NextDue(r Rule, dueAt string, loc *time.Location) (next string, rest Rule, ok bool) {
	if loc == nil {
		loc = time.UTC
	}
	due, f, ok := parseDue(strings.TrimSpace(dueAt), loc)
	if !ok {
		return "", Rule{}, false
	}
	// A bare day repeats as a date at midnight UTC, which never meets a
	// daylight saving change (midnight in some zones does).
	rest, at, ok := Following(r, due)
	if !ok {
		return "", Rule{}, false
	}
	return f.format(at, loc), rest, true
}
