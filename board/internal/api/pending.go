package api

import (
	"net/http"

	"github.com/gorilla/mux"
	"github.com/opsboard/opsboard/board/internal/approvals"
	"github.com/opsboard/opsboard/shared/wire"
)

// GET /api/pending: proposals with what changed on their targets since.
func (a *API) listProposals(w http.ResponseWriter, r *http.Request) {
	d := a.store.Snapshot()
	a.serveCached(w, r, d, func() (any, error) {
		return map[string]any{"pending": approvals.List(d), "version": d.Version}, nil
	})
}

// POST /api/pending: { verb, payload, summary }
func (a *API) propose(w http.ResponseWriter, r *http.Request) {
	var in wire.ProposalCreate
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	p, v, err := approvals.Propose(r.Context(), a.store, actorOf(r, in.Actor), in)
	if err != nil {
		a.fail(w, err)
		return
	}
	a.reply(w, http.StatusCreated, map[string]any{"proposal": p, "version": v})
}

// POST /api/pending/{id}/approve: { expectedVersion? }
func (a *API) approveProposal(w http.ResponseWriter, r *http.Request) {
	var in wire.ProposalDecision
	if err := decodeOptional(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	p, result, v, err := approvals.Approve(r.Context(), a.store, mux.Vars(r)["id"], in.ExpectedVersion)
	if err != nil {
		a.fail(w, err)
		return
	}
	a.reply(w, http.StatusOK, map[string]any{"proposal": p, "result": result, "version": v})
}

// POST /api/pending/{id}/reject
func (a *API) rejectProposal(w http.ResponseWriter, r *http.Request) {
	var in wire.ProposalDecision
	if err := decodeOptional(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	p, v, err := approvals.Reject(r.Context(), a.store, actorOf(r, in.Actor), mux.Vars(r)["id"], in.ExpectedVersion)
	if err != nil {
		a.fail(w, err)
		return
	}
	a.reply(w, http.StatusOK, map[string]any{"ok": true, "proposal": p, "version": v})
}
