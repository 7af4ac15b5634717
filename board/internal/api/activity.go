package api

import (
	"net/http"

	"github.com/opsboard/opsboard/board/internal/activity"
	"github.com/opsboard/opsboard/shared/wire"
)

// GET /api/activity?since=&actor=&category=&limit=
func (a *API) activity(w http.ResponseWriter, r *http.Request) {
	d := a.store.Snapshot()
	a.serveCached(w, r, d, func() (any, error) {
		q := r.URL.Query()
		limit, err := intQuery(r, "limit", 200)
		if err != nil {
			return nil, err
		}
		out := activity.Feed(d, activity.Query{Since: q.Get("since"), Actor: q.Get("actor"), Category: q.Get("category"), Limit: min(max(limit, 1), 5000)})
		return wire.ActivityFeed{Activity: out, Version: d.Version}, nil
	})
}
