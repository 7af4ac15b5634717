package ingest

import (
	netmail "net/mail"
	"strings"

	"github.com/opsboard/opsboard/board/internal/mail/dedupe"
	"github.com/opsboard/opsboard/shared/wire"
)

// node is a case or a reminder a message can be linked to.
type node struct{ caseID, reminderID string }

func (n node) kind() string {
	switch {
	case n.caseID != "":
		return "case"
	case n.reminderID != "":
		return "reminder"
	}
	return "inbox"
}

// router decides where a new message goes, from the board as it was when
// the run started plus what the run has added since. It reads headers and
// addresses only: never a subject or a body.
type router struct {
	open     map[node]bool            // cases not done or archived, reminders still open
	exists   map[node]bool            // every case and reminder the board lists
	byThread map[string]node          // a Message-ID or thread id -> the node holding it
	senders  map[string]map[node]bool // an address -> the open nodes it appears on
	keys     map[string]bool          // dedupe keys of every message on the board
	byPage   map[string]string        // an address -> the one open case linking its person page
}

func newRouter(cases []wire.Case, reminders []wire.Reminder, msgs []wire.Message) *router {
	r := &router{open: map[node]bool{}, exists: map[node]bool{}, byThread: map[string]node{}, senders: map[string]map[node]bool{}, keys: map[string]bool{}}
	for _, c := range cases {
		n := node{caseID: c.ID}
		r.exists[n] = true
		if c.Status != wire.LaneDone && c.ArchivedAt == "" {
			r.open[n] = true
		}
	}
	for _, rem := range reminders {
		n := node{reminderID: rem.ID}
		r.exists[n] = true
		if rem.Status == wire.ReminderOpen {
			r.open[n] = true
		}
	}
	for i := range msgs {
		r.add(&msgs[i])
	}
	return r
}

// add notes a message on the board: its key, its thread, its addresses.
func (r *router) add(m *wire.Message) {
	r.keys[dedupe.Key(m)] = true
	for _, n := range []node{{caseID: m.CaseID}, {reminderID: m.ReminderID}} {
		if n.kind() == "inbox" || !r.exists[n] {
			continue
		}
		for _, id := range []string{m.MessageID, m.ThreadID} {
			if id != "" {
				if _, taken := r.byThread[id]; !taken {
					r.byThread[id] = n
				}
			}
		}
		if !r.open[n] {
			continue
		}
		for _, a := range participants(m) {
			if r.senders[a] == nil {
				r.senders[a] = map[node]bool{}
			}
			r.senders[a][n] = true
		}
	}
}

// route is where a message with these headers goes: the node already
// holding its thread, else the one open case linking the sender's person
// page, else the one open node its sender appears on, else the Inbox (the
// zero node).
func (r *router) route(inReplyTo string, references []string, threadID, from string) node {
	ids := []string{inReplyTo}
	for i := len(references) - 1; i >= 0; i-- { // the nearest ancestor first
		ids = append(ids, references[i])
	}
	ids = append(ids, threadID)
	for _, id := range ids {
		if n, ok := r.byThread[dedupe.MessageID(id)]; ok && id != "" {
			return n
		}
	}
	if c, ok := r.byPage[address(from)]; ok {
		return node{caseID: c}
	}
	if on := r.senders[address(from)]; len(on) == 1 {
		for n := range on {
			return n
		}
	}
	return node{}
}

// participants are the bare addresses of a message's sender and recipients.
func participants(m *wire.Message) []string {
	var out []string
	for _, a := range append(append([]string{m.From}, m.To...), m.Cc...) {
		if a = address(a); a != "" {
			out = append(out, a)
		}
	}
	return out
}

// address is the bare lowercase address of "Name <addr>" or "addr".
func address(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	if a, err := netmail.ParseAddress(s); err == nil {
		return strings.ToLower(a.Address)
	}
	return strings.ToLower(strings.Trim(s, "<> "))
}
