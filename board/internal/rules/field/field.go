// Package field holds the checks and normalisations every rule applies to
// the fields of a request: one of a fixed set, dates and times of day,
// lists, URLs and titles. Each check names the field in its error.
package field

import (
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/rules/repeat"
	"github.com/opsboard/opsboard/shared/wire"
)

// OneOf refuses v unless it is one of allowed.
func OneOf[T ~string](name string, v T, allowed []string) error {
	if slices.Contains(allowed, string(v)) {
		return nil
	}
	return errs.BadRequest("field '%s' must be one of %s, not %q", name, strings.Join(allowed, ", "), v)
}

// CleanList trims, drops empties and dedupes, keeping first-seen order.
func CleanList(in []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range in {
		s = strings.TrimSpace(s)
		if s == "" || seen[s] {
			continue
		}
		seen[s] = true
		out = append(out, s)
	}
	return out
}

// ValidDate accepts an ISO date (YYYY-MM-DD) or an RFC 3339 datetime (with
// or without seconds or zone), which is what people and agents send.
func ValidDate(s string) bool {
	for _, layout := range []string{"2006-01-02", time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02T15:04Z07:00"} {
		if _, err := time.Parse(layout, s); err == nil {
			return true
		}
	}
	return false
}

// CheckDate refuses a non-empty s that ValidDate does not accept.
func CheckDate(name, s string) error {
	if s == "" || ValidDate(s) {
		return nil
	}
	return errs.BadRequest("field '%s' must be an ISO date (YYYY-MM-DD) or datetime, not %q", name, s)
}

// ParseWhen reads the date and datetime forms ValidDate accepts (and the
// RFC 1123 forms mail headers use); a date or a datetime without a zone is
// taken as UTC.
func ParseWhen(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02T15:04Z07:00", "2006-01-02", time.RFC1123Z, time.RFC1123} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// CheckDay accepts a real calendar day written YYYY-MM-DD.
func CheckDay(name, s string) error {
	if len(s) == 10 {
		if _, err := time.Parse("2006-01-02", s); err == nil {
			return nil
		}
	}
	return errs.BadRequest("field '%s' must be a calendar day YYYY-MM-DD, not %q", name, s)
}

// clock is a 24-hour HH:MM time of day.
var clock = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]$`)

// CheckClock accepts an empty time or a 24-hour HH:MM.
func CheckClock(name, s string) error {
	if s == "" || clock.MatchString(s) {
		return nil
	}
	return errs.BadRequest("field '%s' must be a 24-hour time HH:MM, not %q", name, s)
}

// CheckDomain accepts an empty domain or one of the board's domains.
func CheckDomain[T ~string](s T) error {
	if s == "" {
		return nil
	}
	return OneOf("domain", s, wire.Domains())
}

// SafeURL keeps only absolute http and https URLs; anything else is dropped.
func SafeURL(s string) string {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	return u.String()
}

// OptText resolves a PATCH text field: absent keeps cur, null clears, a
// value is trimmed.
func OptText(o wire.Opt[string], cur string) string {
	switch {
	case !o.Set:
		return cur
	case o.Null:
		return ""
	}
	return strings.TrimSpace(o.V)
}

// NormTitle is a title as dedupe compares it: case and spacing ignored.
func NormTitle(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// NextChildID mints <owner>-<tag><k>, k continuing from the highest of
// existing. To mint many, use ChildIDsAfter: calling this once per new id
// rescans the list each time, which is quadratic.
func NextChildID(owner, tag string, existing []string) string {
	return ChildIDsAfter(owner, tag, existing).Next()
}

// ChildIDs mints <owner>-<tag><k> ids in order, from one scan of the ids
// that exist.
type ChildIDs struct {
	prefix string
	hi     int
}

// ChildIDsAfter starts minting after the highest <owner>-<tag><k> of
// existing.
func ChildIDsAfter(owner, tag string, existing []string) *ChildIDs {
	m := &ChildIDs{prefix: owner + "-" + tag}
	for _, id := range existing {
		m.Saw(id)
	}
	return m
}

// Saw notes an id that exists, so Next never mints it or one below it.
func (m *ChildIDs) Saw(id string) {
	if rest, ok := strings.CutPrefix(id, m.prefix); ok {
		if n, err := strconv.Atoi(rest); err == nil && n > m.hi {
			m.hi = n
		}
	}
}

// Next is the next id.
func (m *ChildIDs) Next() string {
	m.hi++
	return m.prefix + strconv.Itoa(m.hi)
}

// Limits of a free-form JSON value (saved-view filters, preferences,
// proposal payloads, templates): the board stores them as sent, so their
// size and nesting bound what one request can add to the document.
const (
	MaxFreeFormBytes = wire.MaxFreeFormBytes
	MaxFreeFormDepth = wire.MaxFreeFormDepth
)

// FreeForm refuses a free-form JSON value nested deeper than
// MaxFreeFormDepth (400) or longer than MaxFreeFormBytes (413), naming the
// field. raw must be valid JSON; the check is one pass over its bytes.
func FreeForm(name string, raw []byte) error {
	if len(raw) > MaxFreeFormBytes {
		return errs.TooLarge("field '%s' is %d bytes; a saved value may hold at most %d", name, len(raw), MaxFreeFormBytes)
	}
	if d, _ := Depth(raw); d > MaxFreeFormDepth {
		return errs.BadRequest("field '%s' is nested %d levels deep; at most %d are allowed", name, d, MaxFreeFormDepth)
	}
	return nil
}

// Depth is the deepest nesting of objects and arrays in JSON (a top-level
// object is depth 1) and, when raw is an object, the top-level key whose
// value holds that deepest point. It is one pass over the bytes and never
// recurses, so any input is safe; for invalid JSON the answer is a guess.
func Depth(raw []byte) (deepest int, key string) {
	depth := 0
	var last []byte // the last string seen directly in the top-level object
	inString, start := false, 0
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
			if inString {
				start = i + 1
			} else if depth == 1 {
				last = raw[start:i]
			}
		case inString:
		case c == '{' || c == '[':
			depth++
			if depth > deepest {
				deepest, key = depth, string(last)
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest, key
}

// Added lists the entries of next that cur lacks, in next's order, in time
// linear in both (a lookup in cur per entry would be quadratic for long
// lists).
func Added(next, cur []string) []string {
	have := make(map[string]bool, len(cur))
	for _, s := range cur {
		have[s] = true
	}
	var out []string
	for _, s := range next {
		if !have[s] {
			out = append(out, s)
		}
	}
	return out
}

// CheckRepeat reads a recurrence rule field: "" is no rule; anything else
// must be a rule of the subset repeat.Parse takes (400 naming the field) on
// an item with a due date (due, named dueName; "" when the item always has
// a date). It returns the rule in its canonical form.
func CheckRepeat(name, rule, dueName, due string) (string, error) {
	rule = strings.TrimSpace(rule)
	if rule == "" {
		return "", nil
	}
	r, err := repeat.Parse(rule)
	if err != nil {
		return "", errs.BadRequest("%s: %v", name, err)
	}
	if dueName != "" && strings.TrimSpace(due) == "" {
		return "", errs.BadRequest("%s: an item repeats from its due date; set '%s' too, or leave '%s' out", name, dueName, name)
	}
	return r.String(), nil
}
