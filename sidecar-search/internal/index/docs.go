// Package index is the search sidecar's in-memory vector index: the
// documents the spec's table derives from the store, their content digest,
// and cosine top-k search with the board's filters.
package index

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"

	"github.com/opsboard/opsboard/shared/wire"
)

// Document types.
const (
	TypeCase     = "case"
	TypeTask     = "task"
	TypeMessage  = "message"
	TypeReminder = "reminder"
)

// Types lists every document type.
var Types = []string{TypeCase, TypeTask, TypeMessage, TypeReminder}

// Doc is one indexed document: one per case, task, message and reminder.
// Domain and Status are what the filters compare ("" means exempt).
type Doc struct {
	ID       string
	Type     string
	CaseID   string // owning case; "" when a message or reminder has none
	Domain   string
	Status   string
	Archived bool
	Text     string // what gets embedded
	Hash     uint64 // of Text
}

// TaskDocID is a task's document id: <caseId>::<taskId>.
func TaskDocID(caseID, taskID string) string { return caseID + "::" + taskID }

// Docs derives the documents of a store state, as the spec's table says:
// case (title, summary, tags, labels), task (title, detail), message
// (subject, from, preview), reminder (title, detail, labels, task titles,
// domain). Reminders are always indexed, whatever their status. A task
// carries its case's domain and lane so the filters treat it like its case.
func Docs(d *wire.Doc) []Doc {
	n := len(d.Cases) + len(d.Messages) + len(d.Reminders)
	for _, c := range d.Cases {
		n += len(c.Tasks)
	}
	out := make([]Doc, 0, n)
	for _, c := range d.Cases {
		out = append(out, Doc{
			ID: c.ID, Type: TypeCase, CaseID: c.ID, Domain: string(c.Domain), Status: string(c.Status), Archived: c.ArchivedAt != "",
			Text: join(c.Title, c.Summary, strings.Join(c.Tags, " "), strings.Join(c.Labels, " ")),
		})
		for i := range c.Tasks {
			t := &c.Tasks[i]
			out = append(out, Doc{
				ID: TaskDocID(c.ID, t.ID), Type: TypeTask, CaseID: c.ID, Domain: string(c.Domain), Status: string(c.Status),
				Text: join(t.Title, t.Detail),
			})
		}
	}
	for _, m := range d.Messages {
		out = append(out, Doc{ID: m.ID, Type: TypeMessage, CaseID: m.CaseID, Text: join(m.Subject, m.From, m.Preview)})
	}
	for _, r := range d.Reminders {
		titles := make([]string, 0, len(r.Tasks))
		for _, t := range r.Tasks {
			titles = append(titles, t.Title)
		}
		out = append(out, Doc{
			ID: r.ID, Type: TypeReminder, CaseID: r.CaseID, Domain: string(r.Domain),
			Text: join(r.Title, r.Detail, strings.Join(r.Labels, " "), strings.Join(titles, "\n"), string(r.Domain)),
		})
	}
	for i := range out {
		out[i].Hash = TextHash(out[i].Text)
	}
	return out
}

func join(parts ...string) string {
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

// TextHash is the document hash: the first 8 bytes of SHA-256 of the text.
func TextHash(text string) uint64 {
	sum := sha256.Sum256([]byte(text))
	return binary.BigEndian.Uint64(sum[:8])
}

// Digest is SHA-256 over the sorted lines "<id>:<doc hash>\n": the same
// documents give the same digest, in any order.
func Digest(docs []Doc) string {
	order := make([]int, len(docs))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return docs[order[a]].ID < docs[order[b]].ID })
	h := sha256.New()
	var line []byte
	for _, i := range order {
		line = fmt.Appendf(line[:0], "%s:%016x\n", docs[i].ID, docs[i].Hash)
		h.Write(line)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Filter is the board's search filters. A document is dropped by Domain
// only when both the filter and the document's own domain are set and
// differ (messages and domainless reminders have none); reminders are never
// dropped by Status; IncludeArchived governs archived cases only.
type Filter struct {
	Types           map[string]bool // nil or empty: every type
	Domain          string
	Status          string
	IncludeArchived bool
}

func (f *Filter) match(typ, domain, status string, archived bool) bool {
	switch {
	case len(f.Types) > 0 && !f.Types[typ],
		typ == TypeCase && archived && !f.IncludeArchived,
		f.Domain != "" && domain != "" && domain != f.Domain,
		f.Status != "" && typ != TypeReminder && status != "" && status != f.Status:
		return false
	}
	return true
}
