package api

import (
	"net/http"
	"time"

	"github.com/opsboard/opsboard/board/internal/rules/activity"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// GET /api/activity?since=&actor=&category=&limit=&cursor=&view=summary
// With a cursor or view=summary the answer is one page (limit rows, 200 by
// default) with nextCursor; view=summary also cuts each row's detail to one
// line. Without either it is the newest limit rows, as older callers expect.
func (a *API) activity(w http.ResponseWriter, r *http.Request) {
	d := a.store.Snapshot()
	a.serveCached(w, r, d, func() (any, error) {
		q := r.URL.Query()
		summary, err := viewQuery(r)
		if err != nil {
			return nil, err
		}
		limit, err := intQuery(r, "limit", 200)
		if err != nil {
			return nil, err
		}
		aq := activity.Query{Since: q.Get("since"), Actor: wire.Actor(q.Get("actor")), Category: q.Get("category")}
		if _, paged := q["cursor"]; paged || summary {
			page, next, err := activity.Page(d, aq, q.Get("cursor"), limit)
			if err != nil {
				return nil, err
			}
			if summary {
				for i := range page {
					page[i].Detail = wire.Clip(page[i].Detail, wire.SummaryDetailMax)
				}
			}
			a.writeVersions(page, d.Version)
			return wire.ActivityFeed{Activity: page, NextCursor: &next, Version: d.Version}, nil
		}
		aq.Limit = min(max(limit, 1), activity.MaxPage)
		feed := activity.Feed(d, aq)
		a.writeVersions(feed, d.Version)
		return wire.ActivityFeed{Activity: feed, Version: d.Version}, nil
	})
}

// writeVersions sets each row's version: the write that made it, found by
// the row's time (every entry a write logs carries the write's one stamp)
// among the writes undo still reaches, up to the feed's version.
func (a *API) writeVersions(rows []wire.ActivityEntry, upTo int64) {
	recent := a.store.RecentChanges()
	if len(recent) == 0 {
		return
	}
	at := make(map[string]int64, len(recent))
	for _, c := range recent {
		if c.Version <= upTo {
			at[c.At.UTC().Format(time.RFC3339Nano)] = c.Version
		}
	}
	for i := range rows {
		if v, ok := at[rows[i].TS]; ok && rows[i].Actor == actorAt(recent, v) {
			rows[i].Version = v
		}
	}
}

// actorAt is who made write v of recent.
func actorAt(recent []*store.Change, v int64) wire.Actor {
	if i := int(v - recent[0].Version); i >= 0 && i < len(recent) {
		return recent[i].Actor
	}
	return ""
}
