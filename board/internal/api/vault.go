package api

import (
	"net/http"

	"github.com/gorilla/mux"
	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/rules/pages"
	"github.com/opsboard/opsboard/board/internal/rules/proposals"
	"github.com/opsboard/opsboard/board/internal/vault"
	"github.com/opsboard/opsboard/shared/httpjson"
	"github.com/opsboard/opsboard/shared/wire"
)

// vaultRoutes are the vault's pages. A page's {id} is its V-<n> or its
// path, URL-encoded as one segment (the router matches the encoded path,
// so a %2F stays inside it).
func (a *API) vaultRoutes(r *mux.Router) {
	r.HandleFunc("/vault", a.listPages).Methods(http.MethodGet)
	r.HandleFunc("/vault/unresolved", a.unresolvedSenders).Methods(http.MethodGet)
	r.HandleFunc("/vault/pages", a.keyed(a.createPage)).Methods(http.MethodPost)
	r.HandleFunc("/vault/pages/{id}", a.getPage).Methods(http.MethodGet)
	r.HandleFunc("/vault/pages/{id}", a.patchPage).Methods(http.MethodPatch)
	r.HandleFunc("/vault/pages/{id}/merge", a.mergePage).Methods(http.MethodPost)
}

// errNoVault answers the vault routes of a board started without one.
var errNoVault = &errs.UnavailableError{Msg: "the board runs without a vault folder"}

// errVaultLoading answers reads that need the whole vault (the unresolved
// senders) before its first scan ends; the engine answers its own.
var errVaultLoading = &errs.UnavailableError{Msg: "the vault is still loading; retry in a moment"}

// pagesOf is the vault, or the 503 that says why there is none.
func (a *API) pagesOf() (*vault.Vault, error) {
	if a.vault == nil {
		return nil, errNoVault
	}
	return a.vault, nil
}

// GET /api/vault?type=&q=&cursor=&limit=
func (a *API) listPages(w http.ResponseWriter, r *http.Request) {
	v, err := a.pagesOf()
	if err != nil {
		a.fail(w, err)
		return
	}
	q := r.URL.Query()
	limit := 0
	if q.Has("limit") {
		if limit, err = intQuery(r, "limit", 0); err == nil && (limit < 1 || limit > wire.MaxPageList) {
			err = errs.BadRequest("query 'limit' must be between 1 and %d", wire.MaxPageList)
		}
	}
	if err != nil {
		a.fail(w, err)
		return
	}
	version := a.store.Version() // before the read: a page refetches on a newer one
	list, next, err := v.List(vault.Filter{Type: wire.PageType(q.Get("type")), Q: q.Get("q"), Cursor: q.Get("cursor"), Limit: limit})
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusOK, wire.PageList{Pages: list, NextCursor: next, Version: version})
}

// GET /api/vault/pages/{id}
func (a *API) getPage(w http.ResponseWriter, r *http.Request) {
	v, err := a.pagesOf()
	if err != nil {
		a.fail(w, err)
		return
	}
	version := a.store.Version()
	p, err := v.Get(mux.Vars(r)["id"])
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusOK, wire.PageReply{Page: p, Version: version})
}

// POST /api/vault/pages: 201 made, 200 an existing page of that title,
// alias or email (nothing written), 202 filed as a proposal when the agent
// makes it from mail the guard did not screen clean.
func (a *API) createPage(w http.ResponseWriter, r *http.Request) {
	var in wire.PageCreate
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	v, err := a.pagesOf()
	if err != nil {
		a.fail(w, err)
		return
	}
	by := actorOf(r, in.Actor)
	held, err := pages.HeldFor(a.store.Snapshot(), by, in)
	if err != nil {
		a.fail(w, err)
		return
	}
	if held {
		p, ver, err := proposals.ProposePage(r.Context(), a.store, by, in)
		if err != nil {
			a.fail(w, err)
			return
		}
		httpjson.Reply(w, http.StatusAccepted, wire.PageProposed{Proposal: *p, Version: ver})
		return
	}
	page, existing, err := v.Create(r.Context(), in)
	if err != nil {
		a.fail(w, err)
		return
	}
	code := http.StatusCreated
	if existing {
		code = http.StatusOK
	}
	httpjson.Reply(w, code, wire.PageReply{Page: page, Existing: existing, Version: a.store.Version()})
}

// PATCH /api/vault/pages/{id}
func (a *API) patchPage(w http.ResponseWriter, r *http.Request) {
	var in wire.PagePatch
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	v, err := a.pagesOf()
	if err != nil {
		a.fail(w, err)
		return
	}
	in.Actor = actorOf(r, in.Actor)
	page, changes, err := v.Patch(r.Context(), mux.Vars(r)["id"], in)
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusOK, wire.PageReply{Page: page, DryRun: in.DryRun, Changes: changes, Version: a.store.Version()})
}

// POST /api/vault/pages/{id}/merge: { intoId }
func (a *API) mergePage(w http.ResponseWriter, r *http.Request) {
	var in wire.PageMerge
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	v, err := a.pagesOf()
	if err != nil {
		a.fail(w, err)
		return
	}
	page, changes, err := v.Merge(r.Context(), mux.Vars(r)["id"], in)
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusOK, wire.PageReply{Page: page, DryRun: in.DryRun, Changes: changes, Version: a.store.Version()})
}

// GET /api/vault/unresolved: senders no person page holds, most recent
// first, with the pages their names suggest.
func (a *API) unresolvedSenders(w http.ResponseWriter, r *http.Request) {
	v, err := a.pagesOf()
	if err == nil && !v.Ready() {
		err = errVaultLoading
	}
	if err != nil {
		a.fail(w, err)
		return
	}
	d := a.store.Snapshot()
	httpjson.Reply(w, http.StatusOK, wire.UnresolvedSenders{Senders: pages.Unresolved(d, v.Summaries(), v.Suggest), Version: d.Version})
}
