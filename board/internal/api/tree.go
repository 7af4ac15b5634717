package api

import (
	"net/http"
	"sort"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/hierarchy"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// GET /api/tree?includeArchived=0|1&domain=work|life&rootId=
func (a *API) tree(w http.ResponseWriter, r *http.Request) {
	d := a.store.Snapshot()
	a.serveCached(w, r, d, func() (any, error) {
		q := r.URL.Query()
		if dom := q.Get("domain"); dom != "" && dom != "work" && dom != "life" {
			return nil, errs.BadRequest("query 'domain' must be work or life")
		}
		opt := hierarchy.TreeOptions{IncludeArchived: boolQuery(r, "includeArchived"), Domain: q.Get("domain"), RootID: q.Get("rootId")}
		if opt.RootID != "" {
			found := false
			for _, c := range d.Cases {
				found = found || c.ID == opt.RootID
			}
			if !found {
				return nil, errs.NotFound("case %s not found", opt.RootID)
			}
		}
		return map[string]any{"tree": hierarchy.Tree(d.Cases, opt), "version": d.Version}, nil
	})
}

// feedEntry is one row of the Activity feed.
type feedEntry struct {
	wire.Activity
	Category  string `json:"category"`
	CaseID    string `json:"caseId"`
	CaseTitle string `json:"caseTitle"`
	// A row synthesized from a reminder's or an event's lifecycle names it.
	ReminderID string `json:"reminderId,omitempty"`
	EventID    string `json:"eventId,omitempty"`
}

// GET /api/activity?since=&actor=&category=&limit=
func (a *API) activity(w http.ResponseWriter, r *http.Request) {
	d := a.store.Snapshot()
	a.serveCached(w, r, d, func() (any, error) {
		q := r.URL.Query()
		limit, err := intQuery(r, "limit", 200)
		if err != nil {
			return nil, err
		}
		limit = min(max(limit, 1), 5000)
		out := []feedEntry{}
		for _, c := range d.Cases {
			for _, act := range c.Activity {
				cat := store.ActivityCategory(act.Verb)
				if (q.Get("since") != "" && act.TS < q.Get("since")) || (q.Get("actor") != "" && act.Actor != q.Get("actor")) || (q.Get("category") != "" && cat != q.Get("category")) {
					continue
				}
				out = append(out, feedEntry{Activity: act, Category: cat, CaseID: c.ID, CaseTitle: c.Title})
			}
		}
		titles := map[string]string{}
		for _, c := range d.Cases {
			titles[c.ID] = c.Title
		}
		for _, row := range store.Lifecycle(d) {
			cat := store.ActivityCategory(row.Verb)
			if (q.Get("since") != "" && row.TS < q.Get("since")) || (q.Get("actor") != "" && row.Actor != q.Get("actor")) || (q.Get("category") != "" && cat != q.Get("category")) {
				continue
			}
			out = append(out, feedEntry{Activity: row.Activity, Category: cat, CaseID: row.CaseID, CaseTitle: titles[row.CaseID], ReminderID: row.ReminderID, EventID: row.EventID})
		}
		sort.SliceStable(out, func(i, j int) bool { return out[i].TS > out[j].TS })
		if len(out) > limit {
			out = out[:limit]
		}
		return map[string]any{"activity": out, "version": d.Version}, nil
	})
}
