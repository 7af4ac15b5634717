// Package render turns board records into the compact text answers the agent
// reads: stable, one record per line, every line carrying the ids it is about.
package render

import (
	"fmt"
	"strings"

	"github.com/opsboard/opsboard/shared/mcptool"
	"github.com/opsboard/opsboard/shared/recur"
	"github.com/opsboard/opsboard/shared/wire"
)

// maxManual bounds the manual-actions block; the case keeps 50 entries.
const maxManual = 15

// CaseLine is one node on one line: id, tier, title, lane and its flags.
func CaseLine(c *wire.Case) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s - [%s] %s", c.ID, kindOf(c), c.Title)
	if c.Kind == "case" || c.Kind == "" {
		fmt.Fprintf(&b, " - [%s]", c.Status)
	}
	b.WriteString(Flags(c))
	return b.String()
}

// Flags are the warnings a node carries wherever it is shown.
func Flags(c *wire.Case) string {
	var b strings.Builder
	if c.Starred {
		b.WriteString(" - starred")
	}
	switch {
	case c.MergedInto != "":
		fmt.Fprintf(&b, " - merged into %s: use %s", c.MergedInto, c.MergedInto)
	case c.ArchivedAt != "":
		b.WriteString(" - ARCHIVED: restore and relink, do not create")
	}
	return b.String()
}

// CaseListLine is a node in a list: CaseLine plus domain, parent, tasks,
// labels and due date.
func CaseListLine(c *wire.Case) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s - [%s] %s", c.ID, kindOf(c), c.Title)
	if kindOf(c) == "case" {
		fmt.Fprintf(&b, " - [%s]", c.Status)
	}
	b.WriteString(" - " + string(c.Domain))
	if c.ParentID != "" {
		b.WriteString(" - parent " + c.ParentID)
	}
	if len(c.Tasks) > 0 {
		fmt.Fprintf(&b, " - tasks %d/%d", doneTasks(c.Tasks), len(c.Tasks))
	}
	if len(c.Labels) > 0 {
		b.WriteString(" - labels " + strings.Join(c.Labels, ","))
	}
	if c.DueAt != "" {
		b.WriteString(" - due " + c.DueAt)
	}
	b.WriteString(Flags(c))
	return b.String()
}

func kindOf(c *wire.Case) string {
	if c.Kind == "" {
		return "case"
	}
	return string(c.Kind)
}

func doneTasks(ts []wire.Task) int {
	n := 0
	for _, t := range ts {
		if t.CompletedAt != "" {
			n++
		}
	}
	return n
}

// RollupText is a container's progress: cases, tasks and direct children.
func RollupText(r wire.Rollup) string {
	return fmt.Sprintf("%d/%d cases done (%.0f%%), %d/%d tasks done, %d %s",
		r.DoneCases, r.TotalCases, r.Ratio*100, r.DoneTasks, r.TotalTasks, r.ChildCount, plural(r.ChildCount, "child", "children"))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// CaseView is what get_case shows: the detail route's answer, the parent
// (nil when top-level or unknown) and, for a container, its tree node.
type CaseView struct {
	Detail wire.CaseDetail
	Parent *wire.Case
	Node   *wire.TreeNode // nil for a leaf
}

// Case renders get_case: the human's manual actions first, then the node.
func Case(v CaseView) string {
	c := &v.Detail.Case
	var b strings.Builder
	caseManual(&b, c.ID, v.Detail.ManualActions)
	caseFacts(&b, c)
	caseFamily(&b, v)
	caseAnnotations(&b, c)
	caseRecords(&b, &v.Detail)
	switch {
	case c.MergedInto != "":
		writeLine(&b, "%s was merged into %s: use %s.", c.ID, c.MergedInto, c.MergedInto)
	case c.ArchivedAt != "":
		writeLine(&b, "%s is ARCHIVED (since %s): restore and relink it (restore_case), do not create a new one.", c.ID, c.ArchivedAt)
	}
	return strings.TrimRight(b.String(), "\n")
}

// writeLine writes one line of a rendered case.
func writeLine(b *strings.Builder, format string, a ...any) { fmt.Fprintf(b, format+"\n", a...) }

// caseManual writes the human's latest manual actions on case id, so the
// agent reads them before anything it might change.
func caseManual(b *strings.Builder, id string, acts []wire.Activity) {
	if len(acts) == 0 {
		writeLine(b, "Manual actions on %s: none.", id)
		return
	}
	writeLine(b, "Manual actions on %s (the human did this; do not revert it: add a note or propose a change instead):", id)
	if len(acts) > maxManual {
		writeLine(b, "- %s: %d earlier manual actions not shown", id, len(acts)-maxManual)
		acts = acts[len(acts)-maxManual:]
	}
	for _, a := range acts {
		writeLine(b, "- %s %s %s%s", id, a.TS, a.Verb, detail(a.Detail))
	}
}

// caseFacts writes the title line and the one-line facts: kind, lane,
// domain, star and dates.
func caseFacts(b *strings.Builder, c *wire.Case) {
	writeLine(b, "%s - %s", c.ID, c.Title)
	facts := []string{"Kind: " + kindOf(c), "Lane: " + string(c.Status), "Domain: " + string(c.Domain)}
	if c.Starred {
		facts = append(facts, "Starred")
	}
	if c.DueAt != "" {
		facts = append(facts, "Due: "+c.DueAt)
	}
	if c.Eta != "" {
		facts = append(facts, "ETA: "+c.Eta)
	}
	writeLine(b, "%s %s", c.ID, strings.Join(facts, " | "))
}

// caseFamily writes the node's place in the tree: its parent, its children
// and, for a container, its rollup.
func caseFamily(b *strings.Builder, v CaseView) {
	c := &v.Detail.Case
	switch {
	case c.ParentID == "":
		writeLine(b, "Parent of %s: none (top-level)", c.ID)
	case v.Parent != nil:
		writeLine(b, "Parent of %s: %s - %s", c.ID, v.Parent.ID, v.Parent.Title)
	default:
		writeLine(b, "Parent of %s: %s", c.ID, c.ParentID)
	}
	if v.Node == nil || len(v.Node.Children) == 0 {
		writeLine(b, "Children of %s: none", c.ID)
	} else {
		writeLine(b, "Children of %s:", c.ID)
		for _, ch := range v.Node.Children {
			writeLine(b, "- %s", CaseLine(&ch.Case))
		}
	}
	if v.Node != nil {
		writeLine(b, "Rollup of %s: %s", c.ID, RollupText(v.Node.Rollup))
	}
}

// caseAnnotations writes the one-line lists and the summary, each only when set.
func caseAnnotations(b *strings.Builder, c *wire.Case) {
	if len(c.Labels) > 0 {
		writeLine(b, "Labels of %s: %s", c.ID, strings.Join(c.Labels, ", "))
	}
	if len(c.Tags) > 0 {
		writeLine(b, "Tags of %s: %s", c.ID, strings.Join(c.Tags, ", "))
	}
	if len(c.VaultLinks) > 0 {
		writeLine(b, "Vault links of %s: %s", c.ID, strings.Join(c.VaultLinks, ", "))
	}
	if s := oneLine(c.Summary); s != "" {
		writeLine(b, "Summary of %s: %s", c.ID, s)
	}
}

// caseRecords writes what hangs off the case, one block per kind that has
// any: tasks, notes, messages, events and reminders.
func caseRecords(b *strings.Builder, d *wire.CaseDetail) {
	c := &d.Case
	if len(c.Tasks) > 0 {
		writeLine(b, "Tasks of %s (%d/%d done):", c.ID, doneTasks(c.Tasks), len(c.Tasks))
		for _, t := range c.Tasks {
			writeLine(b, "- %s", TaskLine(t))
		}
	}
	if len(c.Notes) > 0 {
		writeLine(b, "Notes on %s:", c.ID)
		for _, n := range c.Notes {
			writeLine(b, "- %s %s %s: %s", n.ID, n.Actor, n.CreatedAt, oneLine(n.Text))
		}
	}
	if len(d.Messages) > 0 {
		writeLine(b, "Messages of %s:", c.ID)
		for _, m := range d.Messages {
			writeLine(b, "- %s", MessageLine(m))
		}
	}
	if len(d.Events) > 0 {
		writeLine(b, "Events of %s:", c.ID)
		for _, e := range d.Events {
			writeLine(b, "- %s", mcptool.EventLine(e))
		}
	}
	if len(d.Reminders) > 0 {
		writeLine(b, "Reminders of %s:", c.ID)
		for _, r := range d.Reminders {
			writeLine(b, "- %s", ReminderLine(r))
		}
	}
}

func detail(d string) string {
	if d == "" {
		return ""
	}
	return ": " + oneLine(d)
}

// TaskLine is one checklist row of a case.
func TaskLine(t wire.Task) string {
	box := "[ ]"
	if t.CompletedAt != "" {
		box = "[x]"
	}
	s := fmt.Sprintf("%s %s %s", t.ID, box, t.Title)
	if t.DueAt != "" {
		s += " (due " + t.DueAt + ")"
	}
	if t.Repeat != "" {
		s += " (repeats " + recur.DescribeString(t.Repeat) + ")"
	}
	if d := oneLine(t.Detail); d != "" {
		s += " - " + d
	}
	return s
}

// NextTask is what a completion of a repeating task adds to its answer:
// the next task, or "" when there is none.
func NextTask(next *wire.Task) string {
	if next == nil {
		return ""
	}
	return "\nNext: " + TaskLine(*next)
}

// MessageLine is one message: id, time, sender, subject and its links.
func MessageLine(m wire.Message) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", m.ID, m.ReceivedAt)
	switch {
	case m.Outbound && len(m.To) > 0:
		fmt.Fprintf(&b, " to %s (sent)", strings.Join(m.To, ","))
	case m.Outbound:
		b.WriteString(" (sent)")
	case m.From != "":
		b.WriteString(" from " + m.From)
	}
	subject := m.Subject
	if subject == "" {
		subject = clip(oneLine(m.Preview), 80)
	}
	b.WriteString(": " + subject)
	if !m.Read {
		b.WriteString(" [unread]")
	}
	if m.CaseID != "" {
		b.WriteString(" - case " + m.CaseID)
	}
	if m.ReminderID != "" {
		b.WriteString(" - reminder " + m.ReminderID)
	}
	return b.String()
}

// oneLine folds whitespace (newlines included) so a value stays on its line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "..."
}

// More is the closing line of a cut list.
func More(shown, total int, hint string) string {
	if total <= shown {
		return ""
	}
	return fmt.Sprintf("%d more not shown (%s).", total-shown, hint)
}

// Tree renders the indented Initiative > Workstream > Case outline, with a
// rollup and child count on every container. At most limit nodes are shown;
// the answer says how many were left out.
func Tree(roots []*wire.TreeNode, limit int) string {
	var b strings.Builder
	shown, total := 0, 0
	var walk func(n *wire.TreeNode, depth int)
	walk = func(n *wire.TreeNode, depth int) {
		total++
		if shown < limit {
			shown++
			b.WriteString(strings.Repeat("  ", depth) + TreeLine(n) + "\n")
		}
		for _, ch := range n.Children {
			walk(ch, depth+1)
		}
	}
	for _, r := range roots {
		walk(r, 0)
	}
	if total == 0 {
		return "The tree is empty: no case nodes match."
	}
	if m := More(shown, total, "pass rootId to see one subtree, or raise limit"); m != "" {
		b.WriteString(m + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// TreeLine is one node of the outline.
func TreeLine(n *wire.TreeNode) string {
	c := &n.Case
	s := fmt.Sprintf("%s - [%s] %s", c.ID, kindOf(c), c.Title)
	if c.IsContainer() {
		s += " - " + RollupText(n.Rollup)
	} else {
		s += " - [" + string(c.Status) + "]"
		if len(c.Tasks) > 0 {
			s += fmt.Sprintf(" - tasks %d/%d", doneTasks(c.Tasks), len(c.Tasks))
		}
	}
	return s + Flags(c)
}
