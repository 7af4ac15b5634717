package api

import (
	"net/http"

	"github.com/gorilla/mux"
	"github.com/opsboard/opsboard/board/internal/cases"
	"github.com/opsboard/opsboard/shared/wire"
)

// GET /api/cases?status=&domain=&kind=&parentId=&label=&starred=&includeArchived=
func (a *API) listCases(w http.ResponseWriter, r *http.Request) {
	d := a.store.Snapshot()
	a.serveCached(w, r, d, func() (any, error) {
		q := r.URL.Query()
		_, parentGiven := q["parentId"]
		out, err := cases.List(d, cases.Filter{
			Status: wire.Lane(q.Get("status")), Domain: wire.Domain(q.Get("domain")), Kind: wire.Kind(q.Get("kind")), Label: q.Get("label"),
			ParentID: q.Get("parentId"), ParentGiven: parentGiven,
			Starred: boolQuery(r, "starred"), StarredGiven: q.Get("starred") != "",
			IncludeArchived: boolQuery(r, "includeArchived"),
		})
		if err != nil {
			return nil, err
		}
		return map[string]any{"cases": out, "version": d.Version}, nil
	})
}

// GET /api/cases/{id}
func (a *API) getCase(w http.ResponseWriter, r *http.Request) {
	d := a.store.Snapshot()
	det, err := cases.Get(d, mux.Vars(r)["id"])
	if err != nil {
		a.fail(w, err)
		return
	}
	a.reply(w, http.StatusOK, map[string]any{
		"case": det.Case, "messages": det.Messages, "manualActions": det.ManualActions, "events": det.Events, "reminders": det.Reminders, "version": d.Version,
	})
}

// POST /api/cases
func (a *API) createCase(w http.ResponseWriter, r *http.Request) {
	var in wire.CaseCreate
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	c, existing, v, err := cases.Create(r.Context(), a.store, actorOf(r, in.Actor), in)
	if err != nil {
		a.fail(w, err)
		return
	}
	if existing {
		a.reply(w, http.StatusOK, map[string]any{"case": c, "existing": true, "version": v})
		return
	}
	a.reply(w, http.StatusCreated, map[string]any{"case": c, "version": v})
}

// PATCH /api/cases/{id}
func (a *API) patchCase(w http.ResponseWriter, r *http.Request) {
	var in wire.CasePatch
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	c, v, err := cases.Patch(r.Context(), a.store, actorOf(r, in.Actor), mux.Vars(r)["id"], in)
	if err != nil {
		a.fail(w, err)
		return
	}
	a.reply(w, http.StatusOK, map[string]any{"case": c, "version": v})
}

// PATCH /api/cases: { ids, patch }, all or nothing.
func (a *API) patchCases(w http.ResponseWriter, r *http.Request) {
	var in wire.CaseBatch
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	cs, v, err := cases.PatchMany(r.Context(), a.store, actorOf(r, in.Actor), in)
	if err != nil {
		a.fail(w, err)
		return
	}
	a.reply(w, http.StatusOK, map[string]any{"cases": cs, "version": v})
}

// actorBody is the body a bodyless-in-spirit write may carry: just the actor.
type actorBody struct {
	Actor string `json:"actor,omitempty"`
}

// DELETE /api/cases/{id} archives; ?hard=1 removes for good.
func (a *API) deleteCase(w http.ResponseWriter, r *http.Request) {
	var in actorBody
	if err := decodeOptional(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	id := mux.Vars(r)["id"]
	if boolQuery(r, "hard") {
		v, err := cases.Delete(r.Context(), a.store, actorOf(r, in.Actor), id)
		if err != nil {
			a.fail(w, err)
			return
		}
		a.reply(w, http.StatusOK, map[string]any{"ok": true, "deleted": id, "version": v})
		return
	}
	c, v, err := cases.Archive(r.Context(), a.store, actorOf(r, in.Actor), id)
	if err != nil {
		a.fail(w, err)
		return
	}
	a.reply(w, http.StatusOK, map[string]any{"case": c, "version": v})
}

// POST /api/cases/{id}/restore
func (a *API) restoreCase(w http.ResponseWriter, r *http.Request) {
	var in actorBody
	if err := decodeOptional(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	c, v, err := cases.Restore(r.Context(), a.store, actorOf(r, in.Actor), mux.Vars(r)["id"])
	if err != nil {
		a.fail(w, err)
		return
	}
	a.reply(w, http.StatusOK, map[string]any{"case": c, "version": v})
}

// POST /api/cases/clean: { ids } of the done cases in view.
func (a *API) cleanCases(w http.ResponseWriter, r *http.Request) {
	var in struct {
		IDs   []string `json:"ids"`
		Actor string   `json:"actor,omitempty"`
	}
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	res, v, err := cases.Clean(r.Context(), a.store, actorOf(r, in.Actor), in.IDs)
	if err != nil {
		a.fail(w, err)
		return
	}
	a.reply(w, http.StatusOK, map[string]any{"removed": res.Removed, "messagesRemoved": res.MessagesRemoved, "version": v})
}

// POST /api/cases/{id}/merge: { targetId }
func (a *API) mergeCase(w http.ResponseWriter, r *http.Request) {
	var in struct {
		TargetID string `json:"targetId"`
		Actor    string `json:"actor,omitempty"`
	}
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	c, v, err := cases.Merge(r.Context(), a.store, actorOf(r, in.Actor), mux.Vars(r)["id"], in.TargetID)
	if err != nil {
		a.fail(w, err)
		return
	}
	a.reply(w, http.StatusOK, map[string]any{"case": c, "version": v})
}
