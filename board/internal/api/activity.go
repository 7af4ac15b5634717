package api

import (
	"net/http"

	"github.com/opsboard/opsboard/board/internal/rules/activity"
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
				activity.Summarize(page)
			}
			activity.SetVersions(page, a.store.RecentChanges(), d.Version)
			return wire.ActivityFeed{Activity: page, NextCursor: &next, Version: d.Version}, nil
		}
		aq.Limit = min(max(limit, 1), activity.MaxPage)
		feed := activity.Feed(d, aq)
		activity.SetVersions(feed, a.store.RecentChanges(), d.Version)
		return wire.ActivityFeed{Activity: feed, Version: d.Version}, nil
	})
}
