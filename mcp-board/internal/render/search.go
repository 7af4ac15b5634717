package render

import (
	"fmt"
	"strings"

	"github.com/opsboard/opsboard/shared/wire"
)

// records resolves a hit to the full record the board merged, so a hit that
// carries only a snippet still shows a title.
type records struct {
	cases     map[string]*wire.Case
	tasks     map[string]*wire.CaseTask
	messages  map[string]*wire.Message
	reminders map[string]*wire.Reminder
}

func recordsOf(m wire.SearchResults) records {
	r := records{cases: map[string]*wire.Case{}, tasks: map[string]*wire.CaseTask{}, messages: map[string]*wire.Message{}, reminders: map[string]*wire.Reminder{}}
	for i := range m.Cases {
		r.cases[m.Cases[i].ID] = m.Cases[i]
	}
	for i := range m.Tasks {
		t := &m.Tasks[i]
		r.tasks[t.Task.ID] = t
		r.tasks[t.CaseID+"::"+t.Task.ID] = t
	}
	for i := range m.Messages {
		r.messages[m.Messages[i].ID] = m.Messages[i]
	}
	for i := range m.Reminders {
		r.reminders[m.Reminders[i].ID] = m.Reminders[i]
	}
	return r
}

// Search renders a search answer. Every hit is tagged with its nature (a
// reminder with its status); archived and merged cases carry what to do
// about them. A single query gets its reminders in a block of their own.
func Search(ans wire.SearchEnvelope, single bool) string {
	recs := recordsOf(ans.Merged)
	var b strings.Builder
	line := func(format string, a ...any) { fmt.Fprintf(&b, format+"\n", a...) }
	engine := ans.Engine
	switch ans.Embedder {
	case "":
	case "hash":
		engine += ", " + HashEmbedder
	default:
		engine += ", embedder " + ans.Embedder
	}
	ans, weak := withoutWeak(ans)
	if single && len(ans.Results) == 1 {
		res := ans.Results[0]
		var others, rems []wire.SearchHit
		for _, h := range res.Hits {
			if h.Type == "reminder" {
				rems = append(rems, h)
			} else {
				others = append(others, h)
			}
		}
		line("Search %q (%s): %d %s", res.Query, engine, len(res.Hits), plural(len(res.Hits), "hit", "hits"))
		for _, h := range others {
			line("- %s", recs.hitLine(h))
		}
		if len(rems) == 0 {
			line("Reminders: none match %q", res.Query)
		} else {
			line("Reminders:")
			for _, h := range rems {
				line("- %s", recs.hitLine(h))
			}
		}
	} else {
		line("Search, %d %s (%s):", len(ans.Results), plural(len(ans.Results), "query", "queries"), engine)
		for _, res := range ans.Results {
			if len(res.Hits) == 0 {
				line("Query %q: no hits", res.Query)
				continue
			}
			line("Query %q: %d %s", res.Query, len(res.Hits), plural(len(res.Hits), "hit", "hits"))
			for _, h := range res.Hits {
				line("- %s", recs.hitLine(h))
			}
		}
	}
	if weak > 0 {
		line("%d weak semantic %s (cosine below %.2f) left out: not matches.", weak, plural(weak, "hit", "hits"), CosineFloor)
	}
	if total := hitCount(ans); total == 0 {
		line("Nothing matches: create only after get_tree shows no home for it either.")
	} else {
		line("Update a matching record instead of creating a duplicate; restore an archived match and relink it.")
	}
	return strings.TrimRight(b.String(), "\n")
}

// HashEmbedder is what the search tool calls the sidecar's "hash" embedder:
// feature hashing of words and trigrams, no language model.
const HashEmbedder = "fuzzy matching, no model loaded"

// CosineFloor is the cosine under which a hit found only by the semantic
// engine is not shown as a match. On the seeded test corpus the hash
// embedder gives unrelated queries at most 0.21 and related ones at least
// 0.29; 0.25 lies between.
const CosineFloor = 0.25

// withoutWeak drops the hits whose only reason is a semantic cosine below
// CosineFloor, and counts them.
func withoutWeak(ans wire.SearchEnvelope) (wire.SearchEnvelope, int) {
	weak := 0
	results := make([]wire.QueryResult, len(ans.Results))
	for i, res := range ans.Results {
		results[i] = wire.QueryResult{Query: res.Query, Hits: make([]wire.SearchHit, 0, len(res.Hits))}
		for _, h := range res.Hits {
			if len(h.Why) == 1 && h.Why[0] == "semantic" && h.Cosine < CosineFloor {
				weak++
				continue
			}
			results[i].Hits = append(results[i].Hits, h)
		}
	}
	ans.Results = results
	return ans, weak
}

func hitCount(ans wire.SearchEnvelope) int {
	n := 0
	for _, r := range ans.Results {
		n += len(r.Hits)
	}
	return n
}

// hitLine is one hit: [nature] id - title - state - owner - why.
func (r records) hitLine(h wire.SearchHit) string {
	var b strings.Builder
	switch h.Type {
	case "case":
		c := h.Case
		if c == nil {
			c = r.cases[h.ID]
		}
		if c == nil {
			fmt.Fprintf(&b, "[case] %s - %s", h.ID, oneLine(h.Snippet))
			break
		}
		fmt.Fprintf(&b, "[%s] %s - %s", kindOf(c), c.ID, c.Title)
		if kindOf(c) == "case" {
			b.WriteString(" - [" + string(c.Status) + "]")
		}
		if c.ParentID != "" {
			b.WriteString(" - parent " + c.ParentID)
		}
		b.WriteString(Flags(c))
	case "reminder":
		rem := h.Reminder
		if rem == nil {
			if full, ok := r.reminders[h.ID]; ok {
				rem = &wire.ReminderProjection{ID: full.ID, Title: full.Title, Status: string(full.Status), DueAt: &full.DueAt, CaseID: &full.CaseID}
			}
		}
		if rem == nil {
			fmt.Fprintf(&b, "[reminder] %s - %s", h.ID, oneLine(h.Snippet))
			break
		}
		fmt.Fprintf(&b, "[reminder %s] %s - %s", rem.Status, rem.ID, rem.Title)
		if due := deref(rem.DueAt); due != "" {
			b.WriteString(" - due " + due)
		}
		if caseID := deref(rem.CaseID); caseID != "" {
			b.WriteString(" - case " + caseID)
		}
	case "task":
		id, title, caseID, caseTitle, done := h.ID, oneLine(h.Snippet), deref(h.CaseID), "", false
		if t := h.Task; t != nil {
			id, title, caseID, caseTitle, done = t.ID, t.Title, t.CaseID, t.CaseTitle, t.CompletedAt != ""
		} else if t, ok := r.tasks[h.ID]; ok {
			id, title, caseID, done = t.Task.ID, t.Task.Title, t.CaseID, t.Task.CompletedAt != ""
		}
		fmt.Fprintf(&b, "[task] %s - %s", id, title)
		if done {
			b.WriteString(" [done]")
		}
		b.WriteString(" - in case " + caseID)
		if caseTitle != "" {
			b.WriteString(" (" + caseTitle + ")")
		}
		b.WriteString(r.ownerFlags(caseID))
	case "message":
		switch m := h.Message; {
		case m != nil:
			fmt.Fprintf(&b, "[message] %s", MessageLine(wire.Message{ID: m.ID, Subject: m.Subject, From: m.From, ReceivedAt: m.ReceivedAt, CaseID: m.CaseID, ReminderID: m.ReminderID, Read: m.Read, Outbound: m.Outbound, Preview: m.Preview}))
		case r.messages[h.ID] != nil:
			fmt.Fprintf(&b, "[message] %s", MessageLine(*r.messages[h.ID]))
		default:
			fmt.Fprintf(&b, "[message] %s - %s", h.ID, oneLine(h.Snippet))
		}
		if caseID := deref(h.CaseID); caseID != "" {
			b.WriteString(r.ownerFlags(caseID))
		}
	default:
		fmt.Fprintf(&b, "[%s] %s - %s", h.Type, h.ID, oneLine(h.Snippet))
	}
	if len(h.Why) > 0 {
		fmt.Fprintf(&b, " (%s; score %.2f)", strings.Join(h.Why, ","), h.Score)
	}
	return b.String()
}

// deref reads a field the wire sends as null when absent.
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// ownerFlags warns when a hit's owning case is archived or merged.
func (r records) ownerFlags(caseID string) string {
	c, ok := r.cases[caseID]
	if !ok {
		return ""
	}
	switch {
	case c.MergedInto != "":
		return fmt.Sprintf(" - its case was merged into %s: use %s", c.MergedInto, c.MergedInto)
	case c.ArchivedAt != "":
		return " - its case is ARCHIVED: restore and relink, do not create"
	}
	return ""
}
