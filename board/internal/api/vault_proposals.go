package api

import (
	"net/http"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/rules/proposals"
	"github.com/opsboard/opsboard/shared/httpjson"
	"github.com/opsboard/opsboard/shared/wire"
)

// approvePage approves a create_page proposal: a page is a file, not a
// record, so the vault makes it (as its proposer, outside any store
// write) and then the proposal is settled. A page already there by title,
// alias or email answers as the create route does, with existing set.
func (a *API) approvePage(w http.ResponseWriter, r *http.Request, in wire.ProposalDecision, prop *wire.Proposal, page wire.PageCreate, err error) {
	if err == nil && a.vault == nil {
		err = errNoVault
	}
	if err == nil && in.ExpectedVersion != nil && *in.ExpectedVersion != a.store.Version() {
		err = &errs.VersionConflictError{Expected: *in.ExpectedVersion, Current: a.store.Version()}
	}
	if err != nil {
		a.fail(w, err)
		return
	}
	page.FromMessage = "" // approved: made as the person asked, not held again
	made, existing, err := a.vault.Create(r.Context(), page)
	if err != nil {
		a.fail(w, err) // the proposal stays pending, as any refused approval
		return
	}
	v, err := proposals.Settle(r.Context(), a.store, prop.ID)
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusOK, wire.ApproveReply{Proposal: *prop, Result: wire.ApprovalResult{Page: &made, Existing: existing}, Version: v})
}
