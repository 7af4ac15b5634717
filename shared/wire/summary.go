package wire

import "unicode/utf8"

// SummaryOf is c as a list shows it (see CaseSummary).
func SummaryOf(c *Case) CaseSummary {
	done := 0
	for _, t := range c.Tasks {
		if t.CompletedAt != "" {
			done++
		}
	}
	return CaseSummary{
		ID: c.ID, Title: c.Title, Summary: c.Summary, Status: c.Status, Domain: c.Domain, Tags: c.Tags, Labels: c.Labels,
		Eta: c.Eta, DueAt: c.DueAt, Kind: c.Kind, ParentID: c.ParentID, Starred: c.Starred, ArchivedAt: c.ArchivedAt,
		MergedInto: c.MergedInto, Position: c.Position, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt,
		TaskCount: len(c.Tasks), TasksDone: done, NoteCount: len(c.Notes),
	}
}

// MessageSummaryOf is m as an inbox row shows it (see MessageSummary).
func MessageSummaryOf(m *Message) MessageSummary {
	preview := m.Preview
	if preview == "" {
		preview = Clip(m.Body, PreviewMax)
	}
	return MessageSummary{
		ID: m.ID, Source: m.Source, From: m.From, To: m.To, Subject: m.Subject, Preview: preview, ReceivedAt: m.ReceivedAt,
		Read: m.Read, CaseID: m.CaseID, ReminderID: m.ReminderID, Outbound: m.Outbound, ThreadID: m.ThreadID, Scan: m.Scan,
		Entities: m.Entities,
	}
}

// TreeSummaryOf is a tree with each node as its summary.
func TreeSummaryOf(nodes []*TreeNode) []*TreeSummaryNode {
	out := make([]*TreeSummaryNode, len(nodes))
	for i, n := range nodes {
		out[i] = &TreeSummaryNode{CaseSummary: SummaryOf(&n.Case), Children: TreeSummaryOf(n.Children), Rollup: n.Rollup}
	}
	return out
}

// Clip cuts s to at most n characters (not bytes), marking a cut with an
// ellipsis.
func Clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
