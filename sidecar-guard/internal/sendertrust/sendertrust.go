// Package sendertrust holds the rules of sender trust: how an address
// becomes a key of the sender-trust list, which tiers may be stored, and
// what an upsert does to an existing entry. It knows nothing of HTTP or disk.
package sendertrust

import (
	"fmt"
	"net/mail"
	"strings"

	"github.com/opsboard/opsboard/shared/wire"
)

// Key turns a sender as mail carries it ("Ann <Ann@Example.com>" or a bare
// address) into the lowercase address the sender-trust list is keyed by.
func Key(from string) (string, error) {
	s := strings.TrimSpace(from)
	if s == "" {
		return "", fmt.Errorf("an email address is required")
	}
	if a, err := mail.ParseAddress(s); err == nil {
		s = a.Address
	}
	s = strings.ToLower(s)
	local, domain, ok := strings.Cut(s, "@")
	if !ok || local == "" || domain == "" || strings.ContainsAny(s, " \t\r\n<>,;") || strings.Contains(domain, "@") {
		return "", fmt.Errorf("%q is not an email address", from)
	}
	return s, nil
}

// StorableTier says whether t may be written to the sender-trust list.
// Unknown is the absence of a record, so it is reached by deleting, never
// stored.
func StorableTier(t wire.Tier) error {
	switch t {
	case wire.TierTrusted, wire.TierBlocked:
		return nil
	case "":
		return fmt.Errorf("field 'tier' is required (trusted or blocked)")
	case wire.TierUnknown:
		return fmt.Errorf("field 'tier' cannot be unknown: delete the sender to make it unknown")
	}
	return fmt.Errorf("field 'tier' must be trusted or blocked, not %q", t)
}

// Upsert applies in to the sender's current record (nil when absent) and
// says whether anything changed. With IfAbsent an existing entry, trusted
// or blocked, is never overwritten: a person's block outranks any automatic
// trust. An empty note keeps the stored one.
func Upsert(cur *wire.TrustRecord, key string, in wire.TrustUpsert, now string) (wire.TrustRecord, bool) {
	if cur != nil {
		if in.IfAbsent {
			return *cur, false
		}
		next := *cur
		next.Tier = in.Tier
		if in.Note != "" {
			next.Note = in.Note
		}
		if next == *cur {
			return *cur, false
		}
		next.UpdatedAt = now
		return next, true
	}
	return wire.TrustRecord{Email: key, Tier: in.Tier, Note: in.Note, UpdatedAt: now}, true
}
