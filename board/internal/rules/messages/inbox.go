package messages

import (
	"cmp"
	"encoding/base64"
	"slices"
	"strconv"
	"strings"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/rules/field"
	"github.com/opsboard/opsboard/shared/wire"
)

// Inbox paging bounds.
const (
	DefaultLimit = 50
	MaxLimit     = wire.MaxInboxPage
)

// Filter selects messages for the inbox. A nil id filter is not applied; a
// set one matches that id exactly ("" matches unlinked on that side).
type Filter struct {
	CaseID     *string
	ReminderID *string
	Unread     bool
	Unlinked   bool // neither a case nor a reminder
	OnReminder bool // linked to some reminder
}

// Match reports whether m passes f.
func (f Filter) Match(m *wire.Message) bool {
	switch {
	case f.CaseID != nil && m.CaseID != *f.CaseID,
		f.ReminderID != nil && m.ReminderID != *f.ReminderID,
		f.Unread && m.Read,
		f.Unlinked && (m.CaseID != "" || m.ReminderID != ""),
		f.OnReminder && m.ReminderID == "":
		return false
	}
	return true
}

// position is a message's place in the newest-first order: its received
// time (unparseable dates sort last, as 0) and its id number.
type position struct {
	at int64
	n  int64
	id string
}

func positionOf(m *wire.Message) position {
	p := position{id: m.ID}
	if t, ok := field.ParseWhen(m.ReceivedAt); ok {
		p.at = t.UnixNano()
	}
	p.n, _ = strconv.ParseInt(strings.TrimPrefix(m.ID, "M-"), 10, 64)
	return p
}

// newestFirst orders positions by time, then by id, both descending.
func newestFirst(a, b position) int {
	return cmp.Or(cmp.Compare(b.at, a.at), cmp.Compare(b.n, a.n), strings.Compare(b.id, a.id))
}

// Page is one page of the inbox, newest first: up to limit messages that
// pass f and come after the cursor. The cursor names the last message's
// place in the order rather than an offset, so a message that arrives
// between two calls neither repeats nor hides one; next is "" on the last
// page.
func Page(all []*wire.Message, f Filter, cursor string, limit int) (page []*wire.Message, next string, err error) {
	if limit < 1 || limit > MaxLimit {
		return nil, "", errs.BadRequest("query 'limit' must be between 1 and %d", MaxLimit)
	}
	var after *position
	if cursor != "" {
		p, ok := decodeCursor(cursor)
		if !ok {
			return nil, "", errs.BadRequest("query 'cursor' is not a cursor this board gave out; start again without it")
		}
		after = &p
	}
	type entry struct {
		pos position
		m   *wire.Message
	}
	var list []entry
	for _, m := range all {
		if !f.Match(m) {
			continue
		}
		p := positionOf(m)
		if after != nil && newestFirst(*after, p) >= 0 {
			continue
		}
		list = append(list, entry{p, m})
	}
	slices.SortFunc(list, func(a, b entry) int { return newestFirst(a.pos, b.pos) })
	page = []*wire.Message{}
	for i, e := range list {
		if i == limit {
			next = encodeCursor(list[i-1].pos)
			break
		}
		page = append(page, e.m)
	}
	return page, next, nil
}

func encodeCursor(p position) string {
	return base64.RawURLEncoding.EncodeToString([]byte(strconv.FormatInt(p.at, 10) + "|" + strconv.FormatInt(p.n, 10) + "|" + p.id))
}

func decodeCursor(s string) (position, bool) {
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return position{}, false
	}
	parts := strings.SplitN(string(raw), "|", 3)
	if len(parts) != 3 {
		return position{}, false
	}
	at, err1 := strconv.ParseInt(parts[0], 10, 64)
	n, err2 := strconv.ParseInt(parts[1], 10, 64)
	if err1 != nil || err2 != nil {
		return position{}, false
	}
	return position{at: at, n: n, id: parts[2]}, true
}
