package api

import (
	"net/http"

	"github.com/opsboard/opsboard/shared/wire"
)

// GET /api/health
func (a *API) health(w http.ResponseWriter, r *http.Request) {
	h := a.store.Health()
	problems := h.Problems
	if problems == nil {
		problems = []string{}
	}
	a.reply(w, http.StatusOK, map[string]any{
		"ok": true, "version": a.store.Version(), "release": a.version, "schemaVersion": wire.SchemaVersion,
		"storePath": a.store.Path(), "degraded": h.Degraded, "problems": problems,
	})
}
