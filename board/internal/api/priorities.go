package api

import (
	"net/http"

	"github.com/gorilla/mux"
	"github.com/opsboard/opsboard/board/internal/rules/priorities"
	"github.com/opsboard/opsboard/shared/httpjson"
	"github.com/opsboard/opsboard/shared/wire"
)

// GET /api/priorities: the notes in order and the starred nodes.
func (a *API) listPriorities(w http.ResponseWriter, r *http.Request) {
	d := a.store.Snapshot()
	a.serveCached(w, r, d, func() (any, error) {
		notes, starred := priorities.List(d)
		return wire.PriorityList{Priorities: values(notes), Starred: values(starred), Version: d.Version}, nil
	})
}

// POST /api/priorities
func (a *API) createPriority(w http.ResponseWriter, r *http.Request) {
	var in wire.PriorityCreate
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	p, existing, v, err := priorities.Create(r.Context(), a.store, actorOf(r, in.Actor), in)
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, createdOr(existing), wire.PriorityReply{Existing: existing, Priority: *p, Version: v})
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
	httpjson.Reply(w, http.StatusOK, wire.PriorityReply{Priority: *p, Version: v})
}

// DELETE /api/priorities/{id}
func (a *API) deletePriority(w http.ResponseWriter, r *http.Request) {
	var in wire.ActorOnly
	if err := decodeOptional(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	v, err := priorities.Delete(r.Context(), a.store, actorOf(r, in.Actor), mux.Vars(r)["id"])
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusOK, wire.Deleted{OK: true, Version: v})
}
