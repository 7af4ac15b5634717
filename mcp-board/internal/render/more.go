package render

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/opsboard/opsboard/shared/client"
	"github.com/opsboard/opsboard/shared/wire"
)

// ReminderLine is one reminder with its done/total checklist count.
func ReminderLine(r wire.Reminder) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s - %s - [%s]", r.ID, r.Title, r.Status)
	if r.DueAt != "" {
		b.WriteString(" - due " + r.DueAt)
	}
	if len(r.Tasks) > 0 {
		done := 0
		for _, t := range r.Tasks {
			if t.Done {
				done++
			}
		}
		fmt.Fprintf(&b, " - tasks %d/%d", done, len(r.Tasks))
	}
	if r.CaseID != "" {
		b.WriteString(" - case " + r.CaseID)
	}
	if len(r.Labels) > 0 {
		b.WriteString(" - labels " + strings.Join(r.Labels, ","))
	}
	if r.Domain != "" {
		b.WriteString(" - " + string(r.Domain))
	}
	return b.String()
}

// Reminder renders get_reminder: the reminder, its labels, its checklist and
// its linked emails.
func Reminder(r wire.Reminder, messages []wire.Message) string {
	var b strings.Builder
	line := func(format string, a ...any) { fmt.Fprintf(&b, format+"\n", a...) }
	line("%s", ReminderLine(r))
	if d := oneLine(r.Detail); d != "" {
		line("Detail of %s: %s", r.ID, d)
	}
	if r.CompletedAt != "" {
		line("%s completed at %s", r.ID, r.CompletedAt)
	}
	if len(r.Labels) == 0 {
		line("Labels of %s: none", r.ID)
	} else {
		line("Labels of %s: %s", r.ID, strings.Join(r.Labels, ", "))
	}
	if len(r.Tasks) == 0 {
		line("Checklist of %s: empty", r.ID)
	} else {
		line("Checklist of %s:", r.ID)
		for _, t := range r.Tasks {
			box := "[ ]"
			if t.Done {
				box = "[x]"
			}
			line("- %s %s %s", t.ID, box, t.Title)
		}
	}
	if len(messages) == 0 {
		line("Messages of %s: none", r.ID)
	} else {
		line("Messages of %s (newest first):", r.ID)
		for _, m := range messages {
			line("- %s", MessageLine(m))
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// Priorities renders get_priorities: starred nodes as
// `id - [tier] - title - [lane]`, then notes as `PRI-id - text`.
func Priorities(p client.PrioritiesAnswer) string {
	var b strings.Builder
	b.WriteString("Starred:\n")
	if len(p.Starred) == 0 {
		b.WriteString("(no starred nodes)\n")
	}
	for _, c := range p.Starred {
		fmt.Fprintf(&b, "%s - [%s] - %s - [%s]\n", c.ID, kindOf(&c), c.Title, c.Status)
	}
	b.WriteString("Priority notes:\n")
	if len(p.Priorities) == 0 {
		b.WriteString("(no priority notes)\n")
	}
	for _, n := range p.Priorities {
		fmt.Fprintf(&b, "%s - %s\n", n.ID, oneLine(n.Text))
	}
	return strings.TrimRight(b.String(), "\n")
}

// LabelLine is one catalog label: id, title, description and color.
func LabelLine(l wire.LabelDef) string {
	s := l.ID + " - " + l.Title
	if d := oneLine(l.Description); d != "" {
		s += " - " + d
	}
	if l.Color != "" {
		s += " [" + l.Color + "]"
	}
	return s
}

// BundleLine is one installable bundle with its install state.
func BundleLine(b client.Bundle) string {
	state := "not installed"
	if b.Installed {
		state = "installed"
	}
	return fmt.Sprintf("%s - %s [%s] - %d labels, %d in catalog, %d owned - %s", b.ID, b.Title, b.Kind, b.LabelCount, b.InstalledCount, b.OwnedCount, state)
}

// ProposalLine is one pending proposal.
func ProposalLine(p wire.Proposal) string {
	s := fmt.Sprintf("%s - %s - %s", p.ID, p.Verb, oneLine(p.Summary))
	if p.Target != "" {
		s += " - target " + p.Target
	}
	if p.Actor != "" {
		s += " - by " + p.Actor
	}
	if p.CreatedAt != "" {
		s += " - " + p.CreatedAt
	}
	return s
}

// ViewLine is one saved view.
func ViewLine(v wire.View) string {
	return fmt.Sprintf("%s - %s - filters %s", v.ID, v.Name, compactJSON(v.Filters))
}

// TemplateLine is one case template.
func TemplateLine(t wire.Template) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s - %s", t.ID, t.Name)
	if t.Title != "" {
		b.WriteString(" - title " + t.Title)
	}
	if t.Kind != "" {
		b.WriteString(" - [" + string(t.Kind) + "]")
	}
	if t.Status != "" {
		b.WriteString(" - [" + string(t.Status) + "]")
	}
	if t.Domain != "" {
		b.WriteString(" - " + string(t.Domain))
	}
	if len(t.Labels) > 0 {
		b.WriteString(" - labels " + strings.Join(t.Labels, ","))
	}
	if len(t.Tasks) > 0 {
		fmt.Fprintf(&b, " - %d tasks", len(t.Tasks))
	}
	return b.String()
}

// compactJSON prints a JSON value on one line.
func compactJSON(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "{}"
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return oneLine(string(raw))
	}
	out, err := json.Marshal(v)
	if err != nil {
		return oneLine(string(raw))
	}
	return string(out)
}

// JSON prints a JSON value on one line (for preferences and payloads).
func JSON(raw json.RawMessage) string { return compactJSON(raw) }
