package api

import (
	"net/http"

	"github.com/gorilla/mux"
	"github.com/opsboard/opsboard/board/internal/priorities"
	"github.com/opsboard/opsboard/shared/wire"
)

// GET /api/priorities: the notes in order and the starred nodes.
func (a *API) listPriorities(w http.ResponseWriter, r *http.Request) {
	d := a.store.Snapshot()
	a.serveCached(w, r, d, func() (any, error) {
		notes, starred := priorities.List(d)
		return map[string]any{"priorities": notes, "starred": starred, "version": d.Version}, nil
	})
}

// POST /api/priorities
func (a *API) createPriority(w http.ResponseWriter, r *http.Request) {
	var in wire.PriorityCreate
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	p, v, err := priorities.Create(r.Context(), a.store, actorOf(r, in.Actor), in)
	if err != nil {
		a.fail(w, err)
		return
	}
	a.reply(w, http.StatusCreated, map[string]any{"priority": p, "version": v})
}

// PATCH /api/priorities/{id}
func (a *API) patchPriority(w http.ResponseWriter, r *http.Request) {
	var in wire.PriorityPatch
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	p, v, err := priorities.Patch(r.Context(), a.store, actorOf(r, in.Actor), mux.Vars(r)["id"], in)
	if err != nil {
		a.fail(w, err)
		return
	}
	a.reply(w, http.StatusOK, map[string]any{"priority": p, "version": v})
}

// DELETE /api/priorities/{id}
func (a *API) deletePriority(w http.ResponseWriter, r *http.Request) {
	var in actorBody
	if err := decodeOptional(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	v, err := priorities.Delete(r.Context(), a.store, actorOf(r, in.Actor), mux.Vars(r)["id"])
	if err != nil {
		a.fail(w, err)
		return
	}
	a.reply(w, http.StatusOK, map[string]any{"ok": true, "version": v})
}
