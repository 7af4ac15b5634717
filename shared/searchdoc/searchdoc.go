// Package searchdoc is the search contract the board and the search sidecar
// share: which documents a store state holds (one per case, task, message
// and reminder), and a vault its pages, which fields each document's text is made of, and the
// filter rules every search applies. The board ranks these documents by
// keyword and the sidecar by embedding; both must see the same documents
// with the same text, or the board's re-ranking would mix scores of
// different things.
package searchdoc

import (
	"strings"

	"github.com/opsboard/opsboard/shared/wire"
)

// Document types.
const (
	TypeCase     = "case"
	TypeTask     = "task"
	TypeMessage  = "message"
	TypeReminder = "reminder"
	TypePage     = "page" // a vault page: not in the store, read from the vault folder
)

// Types lists the document types of a store state, in the order answers
// name them. It is a new slice each call, so no caller can change what
// another sees.
func Types() []string {
	return []string{TypeCase, TypeTask, TypeMessage, TypeReminder}
}

// SearchTypes lists every type a search may name: the store's, then page.
func SearchTypes() []string {
	return append(Types(), TypePage)
}

// IsType reports whether t is a type a search may name.
func IsType(t string) bool {
	switch t {
	case TypeCase, TypeTask, TypeMessage, TypeReminder, TypePage:
		return true
	}
	return false
}

// Doc is one searchable document. Domain and Status are what the filters
// compare ("" means the document is exempt from that filter).
type Doc struct {
	ID       string // a task's is TaskID(caseID, taskID)
	Type     string
	CaseID   string // owning case; "" when a message or reminder has none
	Domain   string
	Status   string
	Archived bool
	Text     string // the indexed text: the type's fields, joined
	// Hash is a hash of Text, set by an index that re-embeds only changed
	// documents; the builders here leave it zero because the board's
	// in-process ranking has no use for it.
	Hash uint64
}

// TaskID is a task's document id: <caseId>::<taskId>. Task ids are unique
// only within their case, so the case id makes them unique in the store.
func TaskID(caseID, taskID string) string { return caseID + "::" + taskID }

// Case is a case's document: title, summary, tags and labels.
func Case(c *wire.Case) Doc {
	return Doc{
		ID: c.ID, Type: TypeCase, CaseID: c.ID, Domain: string(c.Domain), Status: string(c.Status), Archived: c.ArchivedAt != "",
		Text: Join(c.Title, c.Summary, strings.Join(c.Tags, " "), strings.Join(c.Labels, " ")),
	}
}

// Task is a task's document: title and detail. It carries its case's
// domain and lane so the filters treat it like its case; it is never
// archived itself.
func Task(c *wire.Case, t *wire.Task) Doc {
	return Doc{
		ID: TaskID(c.ID, t.ID), Type: TypeTask, CaseID: c.ID, Domain: string(c.Domain), Status: string(c.Status),
		Text: Join(t.Title, t.Detail),
	}
}

// Message is a message's document: subject, sender and preview (not the
// body, which is long and mostly quoted history).
func Message(m *wire.Message) Doc {
	return Doc{ID: m.ID, Type: TypeMessage, CaseID: m.CaseID, Text: Join(m.Subject, m.From, m.Preview)}
}

// Reminder is a reminder's document: title, detail, labels, its task
// titles and its domain. It has no status the filters compare: a
// reminder's statuses are not the case lanes.
func Reminder(r *wire.Reminder) Doc {
	titles := make([]string, 0, len(r.Tasks))
	for _, t := range r.Tasks {
		titles = append(titles, t.Title)
	}
	return Doc{
		ID: r.ID, Type: TypeReminder, CaseID: r.CaseID, Domain: string(r.Domain),
		Text: Join(r.Title, r.Detail, strings.Join(r.Labels, " "), strings.Join(titles, "\n"), string(r.Domain)),
	}
}

// PageID is a page's document id: its board id, or its path in the vault
// while it has none (a page nothing refers to has no id yet).
func PageID(p *wire.PageSummary) string {
	if p.ID != "" {
		return p.ID
	}
	return p.Path
}

// Page is a vault page's document: title, aliases, addresses, domains and
// body. It has no case, domain or lane, so only the types filter drops it.
func Page(p *wire.PageSummary, body string) Doc {
	return Doc{
		ID: PageID(p), Type: TypePage,
		Text: Join(p.Title, strings.Join(p.Aliases, " "), strings.Join(p.Emails, " "), strings.Join(p.Domains, " "), body),
	}
}

// All is every document of a store state, in store order: each case
// followed by its tasks, then messages, then reminders. Reminders are
// always included, whatever their status, and so are archived cases: the
// filters decide what a search shows.
func All(d *wire.Doc) []Doc {
	n := d.Cases.Len() + d.Messages.Len() + d.Reminders.Len()
	for _, c := range d.Cases.All() {
		n += len(c.Tasks)
	}
	out := make([]Doc, 0, n)
	for _, c := range d.Cases.All() {
		out = append(out, Case(c))
		for i := range c.Tasks {
			out = append(out, Task(c, &c.Tasks[i]))
		}
	}
	for _, m := range d.Messages.All() {
		out = append(out, Message(m))
	}
	for _, r := range d.Reminders.All() {
		out = append(out, Reminder(r))
	}
	return out
}

// Join is the fields of a document's text, each trimmed, empty ones left
// out, one per line.
func Join(parts ...string) string {
	var b strings.Builder
	for _, p := range parts {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(p)
	}
	return b.String()
}
