package api

import (
	"net/http"

	"github.com/gorilla/mux"
	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/rules/labels"
	"github.com/opsboard/opsboard/shared/httpjson"
	"github.com/opsboard/opsboard/shared/wire"
)

// GET /api/labels
func (a *API) listLabels(w http.ResponseWriter, r *http.Request) {
	d := a.store.Snapshot()
	a.serveCached(w, r, d, func() (any, error) {
		return wire.LabelList{Labels: listValues(d.Labels), Version: d.Version}, nil
	})
}

// POST /api/labels: { title, description?, color? }
func (a *API) createLabel(w http.ResponseWriter, r *http.Request) {
	var in wire.LabelCreate
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	l, v, err := labels.Create(r.Context(), a.store, actorOf(r, in.Actor), in.Title, in.Description, in.Color)
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusCreated, wire.LabelReply{Label: *l, Version: v})
}

// PATCH /api/labels/{id}
func (a *API) patchLabel(w http.ResponseWriter, r *http.Request) {
	var in wire.LabelPatch
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	l, v, err := labels.Patch(r.Context(), a.store, actorOf(r, in.Actor), mux.Vars(r)["id"], in)
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusOK, wire.LabelReply{Label: *l, Version: v})
}

// DELETE /api/labels/{id}?scrub=1
func (a *API) deleteLabel(w http.ResponseWriter, r *http.Request) {
	var in wire.ActorOnly
	if err := decodeOptional(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	v, err := labels.Delete(r.Context(), a.store, actorOf(r, in.Actor), mux.Vars(r)["id"], boolQuery(r, "scrub"))
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusOK, wire.Deleted{OK: true, Version: v})
}

// GET /api/labels/bundles
func (a *API) listBundles(w http.ResponseWriter, r *http.Request) {
	d := a.store.Snapshot()
	src := wire.LabelSources{}
	if d.LabelSources != nil {
		src = *d.LabelSources
	}
	st := labels.Statuses(a.bundles, d.Labels.Slice(), src)
	if st == nil {
		st = []wire.BundleStatus{}
	}
	httpjson.Reply(w, http.StatusOK, wire.BundleList{Bundles: st, Version: d.Version})
}

// POST /api/labels/bundles: { id }
func (a *API) installBundle(w http.ResponseWriter, r *http.Request) {
	var in wire.BundleInstall
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	if in.ID == "" {
		a.fail(w, errs.BadRequest("Field 'id' is required."))
		return
	}
	res, v, err := labels.InstallBundle(r.Context(), a.store, a.bundles, actorOf(r, in.Actor), in.ID)
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusOK, wire.BundleInstalled{Added: res.Added, Bundle: res.Bundle, Conflicts: res.Conflicts, Version: v})
}

// DELETE /api/labels/bundles/{id}?scrub=0
func (a *API) uninstallBundle(w http.ResponseWriter, r *http.Request) {
	var in wire.ActorOnly
	if err := decodeOptional(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	scrub := r.URL.Query().Get("scrub") != "0"
	removed, v, err := labels.UninstallBundle(r.Context(), a.store, a.bundles, actorOf(r, in.Actor), mux.Vars(r)["id"], scrub)
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusOK, wire.BundleUninstalled{Removed: removed, Version: v})
}
