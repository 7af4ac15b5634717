package api

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/gorilla/mux"
	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/rules/saved"
	"github.com/opsboard/opsboard/shared/httpjson"
	"github.com/opsboard/opsboard/shared/wire"
)

// GET /api/prefs
func (a *API) getPrefs(w http.ResponseWriter, r *http.Request) {
	d := a.store.Snapshot()
	prefs, err := saved.Prefs(d)
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusOK, wire.PrefsReply{Prefs: prefs, Version: d.Version})
}

// PATCH /api/prefs: a JSON merge patch of the preferences. The keys actor
// and expectedVersion are the request's own, as on every write, and are not
// stored.
func (a *API) patchPrefs(w http.ResponseWriter, r *http.Request) {
	var patch map[string]json.RawMessage
	if err := decode(w, r, &patch); err != nil {
		a.fail(w, err)
		return
	}
	var actor wire.Actor
	if raw, ok := patch["actor"]; ok {
		if json.Unmarshal(raw, &actor) != nil {
			a.fail(w, errs.BadRequest("field 'actor' must be a string"))
			return
		}
		delete(patch, "actor")
	}
	var expected *int64
	if raw, ok := patch["expectedVersion"]; ok {
		if strings.TrimSpace(string(raw)) != "null" {
			expected = new(int64)
			if json.Unmarshal(raw, expected) != nil {
				a.fail(w, errs.BadRequest("field 'expectedVersion' must be an integer"))
				return
			}
		}
		delete(patch, "expectedVersion")
	}
	prefs, v, err := saved.PatchPrefs(r.Context(), a.store, actorOf(r, actor), expected, patch)
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusOK, wire.PrefsReply{Prefs: prefs, Version: v})
}

// GET /api/views
func (a *API) listViews(w http.ResponseWriter, r *http.Request) {
	d := a.store.Snapshot()
	a.serveCached(w, r, d, func() (any, error) {
		views := listValues(d.Views)
		if views == nil {
			views = []wire.View{}
		}
		return wire.ViewList{Version: d.Version, Views: views}, nil
	})
}

// GET /api/views/{id}
func (a *API) getView(w http.ResponseWriter, r *http.Request) {
	d := a.store.Snapshot()
	v, err := saved.View(d, mux.Vars(r)["id"])
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusOK, wire.ViewReply{Version: d.Version, View: *v})
}

// POST /api/views: { name, filters }. A view of the same name is replaced
// (200); a new name creates one (201).
func (a *API) saveView(w http.ResponseWriter, r *http.Request) {
	var in wire.ViewInput
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	view, created, v, err := saved.SaveView(r.Context(), a.store, actorOf(r, in.Actor), in)
	if err != nil {
		a.fail(w, err)
		return
	}
	code := http.StatusOK
	if created {
		code = http.StatusCreated
	}
	httpjson.Reply(w, code, wire.ViewSaved{Created: created, Version: v, View: *view})
}

// PATCH /api/views/{id}: { name?, filters? }
func (a *API) patchView(w http.ResponseWriter, r *http.Request) {
	var in wire.ViewInput
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	view, v, err := saved.PatchView(r.Context(), a.store, actorOf(r, in.Actor), mux.Vars(r)["id"], in)
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusOK, wire.ViewReply{Version: v, View: *view})
}

// DELETE /api/views/{id}
func (a *API) deleteView(w http.ResponseWriter, r *http.Request) {
	var in wire.ActorOnly
	if err := decodeOptional(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	v, err := saved.DeleteView(r.Context(), a.store, actorOf(r, in.Actor), mux.Vars(r)["id"])
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusOK, wire.Deleted{OK: true, Version: v})
}

// GET /api/templates
func (a *API) listTemplates(w http.ResponseWriter, r *http.Request) {
	d := a.store.Snapshot()
	a.serveCached(w, r, d, func() (any, error) {
		templates := listValues(d.Templates)
		if templates == nil {
			templates = []wire.Template{}
		}
		return wire.TemplateList{Templates: templates, Version: d.Version}, nil
	})
}

// GET /api/templates/{id}
func (a *API) getTemplate(w http.ResponseWriter, r *http.Request) {
	d := a.store.Snapshot()
	t, err := saved.Template(d, mux.Vars(r)["id"])
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusOK, wire.TemplateReply{Template: *t, Version: d.Version})
}

// POST /api/templates: a template of the same name is replaced whole (200);
// a new name creates one (201).
func (a *API) saveTemplate(w http.ResponseWriter, r *http.Request) {
	var in wire.TemplateInput
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	t, created, v, err := saved.SaveTemplate(r.Context(), a.store, actorOf(r, in.Actor), in)
	if err != nil {
		a.fail(w, err)
		return
	}
	code := http.StatusOK
	if created {
		code = http.StatusCreated
	}
	httpjson.Reply(w, code, wire.TemplateSaved{Created: created, Template: *t, Version: v})
}

// PATCH /api/templates/{id}
func (a *API) patchTemplate(w http.ResponseWriter, r *http.Request) {
	var in wire.TemplateInput
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	t, v, err := saved.PatchTemplate(r.Context(), a.store, actorOf(r, in.Actor), mux.Vars(r)["id"], in)
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusOK, wire.TemplateReply{Template: *t, Version: v})
}

// DELETE /api/templates/{id}
func (a *API) deleteTemplate(w http.ResponseWriter, r *http.Request) {
	var in wire.ActorOnly
	if err := decodeOptional(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	v, err := saved.DeleteTemplate(r.Context(), a.store, actorOf(r, in.Actor), mux.Vars(r)["id"])
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusOK, wire.Deleted{OK: true, Version: v})
}
