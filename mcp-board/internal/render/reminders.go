package render

import (
	"fmt"
	"strings"

	"github.com/opsboard/opsboard/shared/recur"
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
	if r.Repeat != "" {
		b.WriteString(" - repeats " + recur.DescribeString(r.Repeat))
	}
	return b.String()
}

// NextReminder is what a completion of a repeating reminder adds to its
// answer: the next occurrence, or "" when there is none.
func NextReminder(next *wire.Reminder) string {
	if next == nil {
		return ""
	}
	return "\nNext: " + ReminderLine(*next)
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
