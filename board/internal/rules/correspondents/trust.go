// Package trust derives, from the messages linked to one board node, the
// senders the person has shown they correspond with. The board pushes those
// addresses to the guard's trust list; nothing here does I/O.
package correspondents

import (
	"net/mail"
	"slices"
	"strings"
	"time"

	"github.com/opsboard/opsboard/shared/wire"
)

// Derive returns the addresses to trust on a node, lowercase and sorted, from
// the node's own messages and the principal (the person's own address).
//
// An address X, a valid email that is not the principal, is trusted when
//
//	(A) X wrote in, and an outbound message at or after that inbound one
//	    has X in to (the person replied to X);
//	(B) X is the sole to of an outbound message with no cc;
//	(C) X is in to or cc of an outbound message that no inbound message
//	    predates (the person started that conversation). An inbound message
//	    with the same receivedAt predates it: a tie counts as a reply.
//
// Rule C is judged per outbound message. Order compares receivedAt; a
// message whose time does not parse supports neither A nor C (it cannot be
// shown to come after), and an inbound one of unknown time counts as
// predating every outbound one. An unset or invalid principal trusts no one.
func Derive(msgs []wire.Message, principal string) []string {
	me, ok := Address(principal)
	if !ok {
		return nil
	}
	type inbound struct {
		from  string
		at    time.Time
		known bool
	}
	var ins []inbound
	for _, m := range msgs {
		if m.Outbound {
			continue
		}
		at, known := parseTime(m.ReceivedAt)
		from, _ := Address(m.From) // an unreadable sender still predates
		ins = append(ins, inbound{from: from, at: at, known: known})
	}
	out := map[string]bool{}
	add := func(x string) {
		if x != "" && x != me {
			out[x] = true
		}
	}
	for _, m := range msgs {
		if !m.Outbound {
			continue
		}
		at, known := parseTime(m.ReceivedAt)
		to := addresses(m.To)
		cc := addresses(m.Cc)
		// (B) the sole recipient of a message with no cc.
		if len(m.To) == 1 && len(m.Cc) == 0 && len(to) == 1 {
			add(to[0])
		}
		if !known {
			continue
		}
		originated := true
		for _, in := range ins {
			if !in.known || !in.at.After(at) {
				originated = false
			}
			// (A) X wrote in at or before this outbound message, which has X in to.
			if in.known && !in.at.After(at) && in.from != "" && slices.Contains(to, in.from) {
				add(in.from)
			}
		}
		// (C) nothing inbound predates this outbound message.
		if originated {
			for _, x := range to {
				add(x)
			}
			for _, x := range cc {
				add(x)
			}
		}
	}
	list := make([]string, 0, len(out))
	for x := range out {
		list = append(list, x)
	}
	slices.Sort(list)
	return list
}

// Address is the lowercase email in s ("Ann <Ann@X.com>" is "ann@x.com"),
// and whether s holds one valid address with a dotted domain.
func Address(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", false
	}
	a, err := mail.ParseAddress(s)
	if err != nil {
		return "", false
	}
	addr := strings.ToLower(a.Address)
	local, domain, ok := strings.Cut(addr, "@")
	if !ok || local == "" || strings.Contains(domain, "@") || !strings.Contains(domain, ".") ||
		strings.HasPrefix(domain, ".") || strings.HasSuffix(domain, ".") {
		return "", false
	}
	return addr, true
}

// addresses are the valid addresses of a recipient list.
func addresses(list wire.Addresses) []string {
	var out []string
	for _, s := range list {
		if a, ok := Address(s); ok {
			out = append(out, a)
		}
	}
	return out
}

// parseTime reads a receivedAt: an RFC 3339 timestamp or a bare date.
func parseTime(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.Parse(layout, strings.TrimSpace(s)); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}
