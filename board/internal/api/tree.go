package api

import (
	"net/http"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/rules/hierarchy"
	"github.com/opsboard/opsboard/shared/wire"
)

// GET /api/tree?includeArchived=0|1&domain=work|life&rootId=&view=summary
func (a *API) tree(w http.ResponseWriter, r *http.Request) {
	d := a.store.Snapshot()
	a.serveCached(w, r, d, func() (any, error) {
		q := r.URL.Query()
		summary, err := viewQuery(r)
		if err != nil {
			return nil, err
		}
		if dom := q.Get("domain"); dom != "" && dom != "work" && dom != "life" {
			return nil, errs.BadRequest("query 'domain' must be work or life")
		}
		opt := hierarchy.TreeOptions{IncludeArchived: boolQuery(r, "includeArchived"), Domain: wire.Domain(q.Get("domain")), RootID: q.Get("rootId")}
		tree, err := hierarchy.Outline(d, opt)
		if err != nil {
			return nil, err
		}
		if summary {
			return wire.TreeSummaryReply{Tree: wire.TreeSummaryOf(tree), Version: d.Version}, nil
		}
		return wire.TreeReply{Tree: tree, Version: d.Version}, nil
	})
}
