package search

import (
	"strings"

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
			if strings.Contains(strings.ToLower(f), q) {
				return true
			}
		}
		return false
	}
	for _, c := range d.Cases {
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
	for _, m := range d.Messages {
		if has(m.ID, m.Subject, m.From, m.Preview) || has(m.To...) || has(m.Cc...) || has(body.of(m)) {
			out.Messages = append(out.Messages, m)
		}
	}
	for _, r := range d.Reminders {
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
