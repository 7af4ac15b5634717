package api

import (
	"net/http"

	"github.com/opsboard/opsboard/board/internal/rules/saved"
	"github.com/opsboard/opsboard/shared/httpjson"
	"github.com/opsboard/opsboard/shared/wire"
)

// GET /api/health
func (a *API) health(w http.ResponseWriter, r *http.Request) {
	h := a.store.Health()
	problems := h.Problems
	if problems == nil {
		problems = []string{}
	}
	var ingest *wire.IngestHealth
	if a.ingest != nil {
		ingest = a.ingest()
	}
	httpjson.Reply(w, http.StatusOK, wire.Health{
		OK: true, Version: a.store.Version(), Release: a.version, SchemaVersion: wire.SchemaVersion,
		StorePath: a.store.Path(), Degraded: h.Degraded, Problems: problems, Guard: a.guardHealth(r.Context()), Ingest: ingest,
		Timezone: saved.Zone(a.store.Snapshot(), a.zone).String(), Vault: a.vaultHealth(),
	})
}
