package api

import (
	"net/http"

	"github.com/opsboard/opsboard/board/internal/mail/runlog"
	"github.com/opsboard/opsboard/shared/httpjson"
	"github.com/opsboard/opsboard/shared/wire"
)

// POST /api/ingest-runs: the report of one mail ingest run, which the
// Activity feed shows as one system row.
func (a *API) createIngestRun(w http.ResponseWriter, r *http.Request) {
	var in wire.IngestRun
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	run, v, err := runlog.Record(r.Context(), a.store, actorOf(r, ""), in)
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusCreated, wire.IngestRunReply{Run: *run, Version: v})
}
