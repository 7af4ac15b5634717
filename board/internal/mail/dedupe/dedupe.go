// Package dedupe names a message by what makes it the same mail: its
// Message-ID header when it has one, else a hash of its sender, recipients,
// date and body (the same note sent to two people is two mails). The board computes the key itself, so a caller cannot make two
// different mails collide or one mail count twice by what it claims.
package dedupe

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strings"
	"time"

	"github.com/opsboard/opsboard/shared/wire"
)

// Key is m's dedupe key: "id:<message-id>" or "h:<sha-256 hex>".
func Key(m *wire.Message) string {
	if id := MessageID(m.MessageID); id != "" {
		return "id:" + id
	}
	h := sha256.New()
	h.Write([]byte(strings.ToLower(strings.TrimSpace(m.From))))
	h.Write([]byte{0})
	for _, list := range []wire.Addresses{m.To, m.Cc} {
		addrs := make([]string, len(list))
		for i, a := range list {
			addrs[i] = strings.ToLower(strings.TrimSpace(a))
		}
		sort.Strings(addrs)
		h.Write([]byte(strings.Join(addrs, ",")))
		h.Write([]byte{0})
	}
	h.Write([]byte(date(m.ReceivedAt)))
	h.Write([]byte{0})
	h.Write([]byte(body(m.Body)))
	return "h:" + hex.EncodeToString(h.Sum(nil))
}

// MessageID is a Message-ID header without its angle brackets and spaces,
// so "<a@b>" and "a@b" are the same mail.
func MessageID(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "<")
	s = strings.TrimSuffix(s, ">")
	return strings.TrimSpace(s)
}

// date is an instant in one form whatever zone or precision it was written
// in; a value that does not parse as RFC 3339 is taken as written.
func date(s string) string {
	s = strings.TrimSpace(s)
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC().Format(time.RFC3339Nano)
	}
	return s
}

// body ignores line-ending style and surrounding blank space, which mail
// readers change freely between copies of one mail.
func body(s string) string {
	return strings.TrimSpace(strings.ReplaceAll(s, "\r\n", "\n"))
}
