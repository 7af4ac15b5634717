package api

import (
	"net/http"

	"github.com/gorilla/mux"
	"github.com/opsboard/opsboard/board/internal/rules/cases"
	"github.com/opsboard/opsboard/board/internal/rules/correspondents"
	"github.com/opsboard/opsboard/shared/httpjson"
	"github.com/opsboard/opsboard/shared/wire"
)

// GET /api/cases?status=&domain=&kind=&parentId=&label=&starred=&includeArchived=&view=summary
func (a *API) listCases(w http.ResponseWriter, r *http.Request) {
	if a.backups != nil {
		a.backups.TopUp() // never waits: the check runs in the background
	}
	d := a.store.Snapshot()
	a.serveCached(w, r, d, func() (any, error) {
		q := r.URL.Query()
		summary, err := viewQuery(r)
		if err != nil {
			return nil, err
		}
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
		if summary {
			list := make([]wire.CaseSummary, len(out))
			for i, c := range out {
				list[i] = wire.SummaryOf(c)
			}
			return wire.CaseSummaryList{Cases: list, Version: d.Version}, nil
		}
		return wire.CaseList{Cases: values(out), Version: d.Version}, nil
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
	httpjson.Reply(w, http.StatusOK, wire.CaseDetail{
		Case: *det.Case, Messages: values(a.store.WithBodies(det.Messages)), ManualActions: det.ManualActions, Events: values(det.Events), Reminders: values(det.Reminders), Version: d.Version,
	})
}

// POST /api/cases
func (a *API) createCase(w http.ResponseWriter, r *http.Request) {
	var in wire.CaseCreate
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	links, err := a.linkPages(r.Context(), in.VaultLinks)
	if err != nil {
		a.fail(w, err)
		return
	}
	in.VaultLinks = links
	c, existing, v, err := cases.Create(r.Context(), a.store, actorOf(r, in.Actor), in)
	if err != nil {
		a.fail(w, err)
		return
	}
	if !existing {
		a.syncChanged(r.Context(), nil, c.VaultLinks)
	}
	if existing {
		httpjson.Reply(w, http.StatusOK, wire.CaseReply{Case: *c, Existing: true, Version: v})
		return
	}
	httpjson.Reply(w, http.StatusCreated, wire.CaseReply{Case: *c, Version: v})
}

// PATCH /api/cases/{id}
func (a *API) patchCase(w http.ResponseWriter, r *http.Request) {
	var in wire.CasePatch
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	before, err := a.linkPatch(r.Context(), &in.VaultLinks, mux.Vars(r)["id"])
	if err != nil {
		a.fail(w, err)
		return
	}
	c, v, err := cases.Patch(r.Context(), a.store, actorOf(r, in.Actor), mux.Vars(r)["id"], in)
	if err != nil {
		a.fail(w, err)
		return
	}
	a.syncChanged(r.Context(), before, c.VaultLinks)
	httpjson.Reply(w, http.StatusOK, wire.CaseReply{Case: *c, Version: v})
}

// PATCH /api/cases: { ids, patch }, all or nothing.
func (a *API) patchCases(w http.ResponseWriter, r *http.Request) {
	var in wire.CaseBatch
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	before, err := a.linkPatch(r.Context(), &in.Patch.VaultLinks, in.IDs...)
	if err != nil {
		a.fail(w, err)
		return
	}
	cs, v, err := cases.PatchMany(r.Context(), a.store, actorOf(r, in.Actor), in)
	if err != nil {
		a.fail(w, err)
		return
	}
	if in.Patch.VaultLinks.Set {
		a.syncChanged(r.Context(), before, linksOf(a.store.Snapshot(), in.IDs...))
	}
	httpjson.Reply(w, http.StatusOK, wire.CaseList{Cases: values(cs), Version: v})
}

// DELETE /api/cases/{id} archives; ?hard=1 removes for good.
func (a *API) deleteCase(w http.ResponseWriter, r *http.Request) {
	var in wire.ActorOnly
	if err := decodeOptional(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	id := mux.Vars(r)["id"]
	if boolQuery(r, "hard") {
		before := linksOf(a.store.Snapshot(), id) // deleting removes the case from its pages; archiving keeps it
		v, err := cases.Delete(r.Context(), a.store, actorOf(r, in.Actor), id)
		if err != nil {
			a.fail(w, err)
			return
		}
		a.syncChanged(r.Context(), before, nil)
		httpjson.Reply(w, http.StatusOK, wire.Deleted{Deleted: id, OK: true, Version: v})
		return
	}
	c, v, err := cases.Archive(r.Context(), a.store, actorOf(r, in.Actor), id)
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusOK, wire.CaseReply{Case: *c, Version: v})
}

// POST /api/cases/{id}/restore
func (a *API) restoreCase(w http.ResponseWriter, r *http.Request) {
	var in wire.ActorOnly
	if err := decodeOptional(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	c, v, err := cases.Restore(r.Context(), a.store, actorOf(r, in.Actor), mux.Vars(r)["id"])
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusOK, wire.CaseReply{Case: *c, Version: v})
}

// POST /api/cases/clean: { ids } of the done cases in view.
func (a *API) cleanCases(w http.ResponseWriter, r *http.Request) {
	var in wire.CaseClean
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	before := linksOf(a.store.Snapshot(), in.IDs...)
	res, v, err := cases.Clean(r.Context(), a.store, actorOf(r, in.Actor), in.IDs)
	if err != nil {
		a.fail(w, err)
		return
	}
	a.syncChanged(r.Context(), before, nil)
	httpjson.Reply(w, http.StatusOK, wire.CleanReply{MessagesRemoved: res.MessagesRemoved, Removed: res.Removed, Version: v})
}

// POST /api/cases/{id}/merge: { targetId }
func (a *API) mergeCase(w http.ResponseWriter, r *http.Request) {
	var in wire.CaseMerge
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	c, v, err := cases.Merge(r.Context(), a.store, actorOf(r, in.Actor), mux.Vars(r)["id"], in.TargetID)
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusOK, wire.CaseReply{Case: *c, Version: v, Trust: a.pushTrust(r.Context(), correspondents.Node{CaseID: c.ID})})
}
