package api

import (
	"github.com/opsboard/opsboard/shared/httpjson"
	"net/http"

	"github.com/opsboard/opsboard/board/internal/rules/undo"
	"github.com/opsboard/opsboard/shared/wire"
)

// POST /api/undo {version, through?, dryRun?} or {writesBy, since,
// through?, dryRun?}: puts back what the named writes changed, in one new
// write attributed to whoever asks (package undo has the rules).
func (a *API) undo(w http.ResponseWriter, r *http.Request) {
	var in wire.UndoRequest
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	req, err := undo.Parse(in)
	if err != nil {
		a.fail(w, err)
		return
	}
	out, err := undo.Do(r.Context(), a.store, actorOf(r, in.Actor), req, in.DryRun)
	if err != nil {
		a.fail(w, err)
		return
	}
	if !in.DryRun {
		a.syncPages(r.Context()) // an undo may put case links back or take them away
	}
	httpjson.Reply(w, http.StatusOK, out)
}
