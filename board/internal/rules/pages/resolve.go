package pages

import (
	"cmp"
	"slices"

	"github.com/opsboard/opsboard/board/internal/rules/correspondents"
	"github.com/opsboard/opsboard/shared/wire"
)

// Lookup finds the page of an address: a person page holding it, or an
// organisation page holding its domain. The vault engine is one.
type Lookup interface {
	ByEmail(addr string) (id string, ok bool)
	ByDomain(domain string) (id string, ok bool)
}

// Entities are the pages a new message names: its sender's (for outbound
// mail, each recipient's) person page, else the organisation page of the
// address's domain. Each id appears once, in address order.
func Entities(in wire.MessageInput, l Lookup) []string {
	var addrs []string
	if in.Outbound {
		addrs = append(append(addrs, in.To...), in.Cc...)
	} else {
		addrs = []string{in.From}
	}
	var out []string
	for _, s := range addrs {
		addr, ok := correspondents.Address(s)
		if !ok {
			continue
		}
		id, ok := l.ByEmail(addr)
		if !ok {
			id, ok = l.ByDomain(domainOf(addr))
		}
		if ok && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// Unresolved lists the senders of inbound mail that no person page holds,
// most recent first: how much mail each sent, the display name of its
// latest, and the pages suggest finds for that name. An organisation page
// for the domain does not resolve a sender: the person is still unknown.
func Unresolved(d *wire.Doc, pages []wire.PageSummary, suggest func(name string) []wire.PageSuggestion) []wire.UnresolvedSender {
	known := map[string]bool{}
	for _, p := range pages {
		if p.Type != wire.PagePerson {
			continue
		}
		for _, e := range p.Emails {
			known[lower(e)] = true
		}
	}
	byAddr := map[string]*wire.UnresolvedSender{}
	for _, m := range d.Messages.All() {
		addr, ok := correspondents.Address(m.From)
		if m.Outbound || !ok || known[addr] {
			continue
		}
		s := byAddr[addr]
		if s == nil {
			s = &wire.UnresolvedSender{Address: addr}
			byAddr[addr] = s
		}
		s.Messages++
		if m.ReceivedAt >= s.LastAt {
			s.LastAt, s.Name = m.ReceivedAt, displayName(m.From)
		}
	}
	out := make([]wire.UnresolvedSender, 0, len(byAddr))
	for _, s := range byAddr {
		s.Suggestions = []wire.PageSuggestion{}
		if s.Name != "" && suggest != nil {
			s.Suggestions = append(s.Suggestions, suggest(s.Name)...)
		}
		out = append(out, *s)
	}
	slices.SortFunc(out, func(a, b wire.UnresolvedSender) int {
		return cmp.Or(cmp.Compare(b.LastAt, a.LastAt), cmp.Compare(a.Address, b.Address))
	})
	return out
}
