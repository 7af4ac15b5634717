package activity

import (
	"encoding/base64"
	"hash/fnv"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/shared/wire"
)

// MaxPage bounds one page of the feed.
const MaxPage = wire.MaxActivityPage

// Page is one page of the feed, newest first: up to limit rows that pass q
// (its Limit is ignored) and come after the cursor; next is "" on the last
// page. Rows of the same time are ordered by a hash of what they say, so
// the order, and a cursor into it, holds from one call to the next; a row
// written between two calls lands in its place rather than shifting the
// pages.
func Page(d *wire.Doc, q Query, cursor string, limit int) (page []wire.ActivityEntry, next string, err error) {
	if limit < 1 || limit > MaxPage {
		return nil, "", errs.BadRequest("query 'limit' must be between 1 and %d", MaxPage)
	}
	var after *place
	if cursor != "" {
		p, ok := decodePlace(cursor)
		if !ok {
			return nil, "", errs.BadRequest("query 'cursor' is not a cursor this board gave out; start again without it")
		}
		after = &p
	}
	q.Limit = 0
	all := Feed(d, q)
	type row struct {
		at  place
		row wire.ActivityEntry
	}
	rows := make([]row, 0, len(all))
	for _, e := range all {
		rows = append(rows, row{placeOf(e), e})
	}
	slices.SortFunc(rows, func(a, b row) int { return newestFirst(a.at, b.at) })
	// Rows that say the same thing at the same time share a place; their
	// count among those tells them apart, so a cursor between them holds.
	for i := 1; i < len(rows); i++ {
		if prev := rows[i-1].at; prev.ts == rows[i].at.ts && prev.sum == rows[i].at.sum {
			rows[i].at.n = rows[i-1].at.n + 1
		}
	}
	if after != nil {
		rows = rows[sort.Search(len(rows), func(i int) bool { return newestFirst(*after, rows[i].at) < 0 }):]
	}
	page = []wire.ActivityEntry{}
	for i, r := range rows {
		if i == limit {
			next = rows[i-1].at.encode()
			break
		}
		page = append(page, r.row)
	}
	return page, next, nil
}

// place is a row's position in the feed's order.
type place struct {
	ts  string
	sum uint64
	n   int // among rows of the same time and hash, which one
}

func placeOf(e wire.ActivityEntry) place {
	h := fnv.New64a()
	for _, s := range []string{e.CaseID, e.ReminderID, e.EventID, string(e.Actor), string(e.Verb), e.Detail} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return place{ts: e.TS, sum: h.Sum64()}
}

// newestFirst orders places: a later time first, then by hash.
func newestFirst(a, b place) int {
	if c := strings.Compare(b.ts, a.ts); c != 0 {
		return c
	}
	switch {
	case a.sum < b.sum:
		return -1
	case a.sum > b.sum:
		return 1
	}
	return a.n - b.n
}

func (p place) encode() string {
	return base64.RawURLEncoding.EncodeToString([]byte(strconv.FormatUint(p.sum, 16) + "|" + p.ts + "|" + strconv.Itoa(p.n)))
}

func decodePlace(s string) (place, bool) {
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return place{}, false
	}
	sum, rest, ok := strings.Cut(string(raw), "|")
	if !ok {
		return place{}, false
	}
	h, err := strconv.ParseUint(sum, 16, 64)
	if err != nil {
		return place{}, false
	}
	ts, nth, _ := strings.Cut(rest, "|") // cursors given out before the count have none
	n := 0
	if nth != "" {
		if n, err = strconv.Atoi(nth); err != nil || n < 0 {
			return place{}, false
		}
	}
	return place{ts: ts, sum: h, n: n}, true
}
