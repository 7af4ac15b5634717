package activity

import (
	"encoding/base64"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/shared/wire"
)

// MaxPage bounds one page of the feed.
const MaxPage = 5000

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
		p := placeOf(e)
		if after != nil && newestFirst(*after, p) >= 0 {
			continue
		}
		rows = append(rows, row{p, e})
	}
	slices.SortFunc(rows, func(a, b row) int { return newestFirst(a.at, b.at) })
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
}

func placeOf(e wire.ActivityEntry) place {
	h := fnv.New64a()
	for _, s := range []string{e.CaseID, e.ReminderID, e.EventID, e.Actor, e.Verb, e.Detail} {
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
	return 0
}

func (p place) encode() string {
	return base64.RawURLEncoding.EncodeToString([]byte(strconv.FormatUint(p.sum, 16) + "|" + p.ts))
}

func decodePlace(s string) (place, bool) {
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return place{}, false
	}
	sum, ts, ok := strings.Cut(string(raw), "|")
	if !ok {
		return place{}, false
	}
	n, err := strconv.ParseUint(sum, 16, 64)
	if err != nil {
		return place{}, false
	}
	return place{ts: ts, sum: n}, true
}
