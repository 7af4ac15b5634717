package api

import (
	"net/http"

	"github.com/gorilla/mux"
	"github.com/opsboard/opsboard/board/internal/rules/proposals"
	"github.com/opsboard/opsboard/shared/httpjson"
	"github.com/opsboard/opsboard/shared/wire"
)

// GET /api/pending: proposals with what changed on their targets since.
func (a *API) listProposals(w http.ResponseWriter, r *http.Request) {
	d := a.store.Snapshot()
	a.serveCached(w, r, d, func() (any, error) {
		return wire.ProposalList{Proposals: proposals.List(d), Version: d.Version}, nil
	})
}

// POST /api/pending: { verb, payload, summary }
func (a *API) propose(w http.ResponseWriter, r *http.Request) {
	var in wire.ProposalCreate
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	payload, err := a.proposalLinks(r.Context(), in.Payload)
	if err != nil {
		a.fail(w, err)
		return
	}
	in.Payload = payload
	p, v, err := proposals.Propose(r.Context(), a.store, actorOf(r, in.Actor), in)
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusCreated, wire.ProposalReply{Proposal: *p, Version: v})
}

// POST /api/pending/{id}/approve: { expectedVersion? }. Any actor may
// approve: identity is attribution, not access control; the agent has no
// tool for it, and the activity entry names who approved.
func (a *API) approveProposal(w http.ResponseWriter, r *http.Request) {
	var in wire.ProposalDecision
	if err := decodeOptional(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	if page, prop, ok, err := proposals.PagePayload(a.store.Snapshot(), mux.Vars(r)["id"]); ok || err != nil {
		a.approvePage(w, r, in, prop, page, err)
		return
	}
	p, result, v, err := proposals.Approve(r.Context(), a.store, actorOf(r, in.Actor), mux.Vars(r)["id"], in.ExpectedVersion)
	if err != nil {
		a.fail(w, err)
		return
	}
	a.syncPages(r.Context()) // the approved change may link or unlink pages
	httpjson.Reply(w, http.StatusOK, wire.ApproveReply{Proposal: *p, Result: result, Version: v})
}

// POST /api/pending/{id}/reject
func (a *API) rejectProposal(w http.ResponseWriter, r *http.Request) {
	var in wire.ProposalDecision
	if err := decodeOptional(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	p, v, err := proposals.Reject(r.Context(), a.store, actorOf(r, in.Actor), mux.Vars(r)["id"], in.ExpectedVersion)
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusOK, wire.RejectReply{OK: true, Proposal: *p, Version: v})
}
