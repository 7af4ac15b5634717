package search

import (
	"strings"
	"unicode/utf8"

	"github.com/opsboard/opsboard/shared/wire"
)

// Scan is GET /api/search: a case-insensitive substring match of q over
// cases (id, title, summary, tags, labels), tasks (id, title, detail),
// messages (id, subject, from, to, cc, preview, body) and reminders (id,
// title, detail, labels, task titles), in store order. Archived cases are
// included: search still surfaces them. An empty q matches nothing.
func Scan(d *wire.Doc, q string) Records { return ScanFields(d, q, false) }

// ScanFields is Scan that, with notes, also matches a case on its notes'
// text (message bodies are always scanned).
func ScanFields(d *wire.Doc, q string, notes bool) Records { return ScanFieldsWith(d, q, notes, nil) }

// ScanFieldsWith is ScanFields reading each message's body with body. The
// messages it answers are d's own: a caller that answers them whole puts
// their bodies in first.
func ScanFieldsWith(d *wire.Doc, q string, notes bool, body BodyFunc) Records {
	out := emptyRecords()
	q = strings.ToLower(strings.TrimSpace(q))
	if q == "" {
		return out
	}
	has := func(fields ...string) bool {
		for _, f := range fields {
			if containsLower(f, q) {
				return true
			}
		}
		return false
	}
	for _, c := range d.Cases.All() {
		match := has(c.ID, c.Title, c.Summary) || has(c.Tags...) || has(c.Labels...)
		for i := 0; notes && !match && i < len(c.Notes); i++ {
			match = has(c.Notes[i].Text)
		}
		if match {
			out.Cases = append(out.Cases, c)
		}
		for _, t := range c.Tasks {
			if has(t.ID, t.Title, t.Detail) {
				out.Tasks = append(out.Tasks, TaskRef{CaseID: c.ID, Task: t})
			}
		}
	}
	for _, m := range d.Messages.All() {
		if has(m.ID, m.Subject, m.From, m.Preview) || has(m.To...) || has(m.Cc...) || has(body.of(m)) {
			out.Messages = append(out.Messages, m)
		}
	}
	for _, r := range d.Reminders.All() {
		match := has(r.ID, r.Title, r.Detail) || has(r.Labels...)
		for _, t := range r.Tasks {
			match = match || has(t.Title)
		}
		if match {
			out.Reminders = append(out.Reminders, r)
		}
	}
	return out
}

// containsLower reports whether strings.ToLower(s) contains q, which is
// lower-cased already. For ASCII s it compares in place rather than build
// the lower-cased copy: a search reads every field of every record, mail
// bodies included, and those copies were most of its time.
func containsLower(s, q string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return strings.Contains(strings.ToLower(s), q)
		}
	}
	if len(q) == 0 {
		return true
	}
	if len(q) > len(s) {
		return false
	}
	// Candidates are where q's first letter stands in either case; the next
	// place of each is kept, so neither is looked for twice.
	lo, up := q[0], q[0]
	if 'a' <= lo && lo <= 'z' {
		up = lo - 'a' + 'A'
	}
	last := len(s) - len(q) // the last place q can start
	nextLo, nextUp := -1, -1
	for i := 0; i <= last; i++ {
		if nextLo < i {
			nextLo = indexFrom(s[:last+1], lo, i)
		}
		if nextUp < i {
			nextUp = indexFrom(s[:last+1], up, i)
		}
		if i = min(nextLo, nextUp); i > last {
			return false
		}
		if equalLower(s[i:i+len(q)], q) {
			return true
		}
	}
	return false
}

// indexFrom is the index of c in s at or after from, or len(s) when c is
// not there (past every place, so it is not looked for again).
func indexFrom(s string, c byte, from int) int {
	if k := strings.IndexByte(s[from:], c); k >= 0 {
		return from + k
	}
	return len(s)
}

// equalLower reports whether ASCII s lower-cased equals q.
func equalLower(s, q string) bool {
	for i := 0; i < len(q); i++ {
		if lowerASCII(s[i]) != q[i] {
			return false
		}
	}
	return true
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
