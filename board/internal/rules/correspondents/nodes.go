package correspondents

import (
	"slices"

	"github.com/opsboard/opsboard/shared/wire"
)

// Node names one board node whose messages the derivation reads: a case
// node or a reminder. A zero Node names none and adds nothing.
type Node struct {
	CaseID, ReminderID string
}

// DeriveNodes returns the addresses to trust on any of nodes, each node
// judged on its own messages in d (see Derive), sorted and without repeats.
func DeriveNodes(d *wire.Doc, principal string, nodes ...Node) []string {
	var emails []string
	for _, n := range nodes {
		if n.CaseID == "" && n.ReminderID == "" {
			continue
		}
		var msgs []wire.Message
		for _, m := range d.Messages.All() {
			if (n.CaseID != "" && m.CaseID == n.CaseID) || (n.ReminderID != "" && m.ReminderID == n.ReminderID) {
				msgs = append(msgs, *m)
			}
		}
		emails = append(emails, Derive(msgs, principal)...)
	}
	slices.Sort(emails)
	return slices.Compact(emails)
}

// LinkOf is the node message id is linked to in d, as a Node naming its
// case and its reminder; zero when d holds no such message.
func LinkOf(d *wire.Doc, id string) Node {
	for _, m := range d.Messages.All() {
		if m.ID == id {
			return Node{CaseID: m.CaseID, ReminderID: m.ReminderID}
		}
	}
	return Node{}
}

// Relinked are the nodes a patch newly linked m to, given where it was
// linked before: the derivation runs over those, and not after a patch that
// only marks it read.
func Relinked(before Node, m wire.Message) []Node {
	var out []Node
	if m.CaseID != "" && m.CaseID != before.CaseID {
		out = append(out, Node{CaseID: m.CaseID})
	}
	if m.ReminderID != "" && m.ReminderID != before.ReminderID {
		out = append(out, Node{ReminderID: m.ReminderID})
	}
	return out
}
