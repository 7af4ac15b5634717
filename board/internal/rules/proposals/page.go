package proposals

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// CreatePage is the verb of a vault page the agent made from mail the guard
// did not screen clean: the page create, filed for the person to approve.
// A page is a file, not a store record, so approving it runs the vault's
// create outside the write (PagePayload, then Settle) instead of a verb's
// apply.
const CreatePage = "create_page"

// parseCreatePage reads create_page: the page create route's body. The
// vault checks it when the page is made; here the proposal only has to
// decode.
func parseCreatePage(raw json.RawMessage, _ []string) (proposed, error) {
	var in wire.PageCreate
	if err := strictDecode(raw, &in); err != nil {
		return proposed{}, err
	}
	if strings.TrimSpace(in.Title) == "" {
		return proposed{}, errs.BadRequest("field 'title' is required")
	}
	return proposed{apply: func(*store.Tx) (wire.ApprovalResult, error) { return wire.ApprovalResult{}, nil }}, nil
}

// ProposePage files an agent's page create for the person, naming the
// mail it came from.
func ProposePage(ctx context.Context, s *store.Store, actor wire.Actor, in wire.PageCreate) (*wire.Proposal, int64, error) {
	in.Actor = ""
	payload, err := json.Marshal(in)
	if err != nil {
		return nil, 0, err
	}
	summary := fmt.Sprintf("New %s page %q from %s, which was not screened clean", in.Type, strings.TrimSpace(in.Title), in.FromMessage)
	return Propose(ctx, s, actor, wire.ProposalCreate{Verb: CreatePage, Payload: payload, Summary: summary})
}

// PagePayload is the page create proposal id holds; ok is false when id is
// a proposal of another verb (or none), which Approve commits.
func PagePayload(d *wire.Doc, id string) (in wire.PageCreate, p *wire.Proposal, ok bool, err error) {
	p, found := findProposal(d, id)
	if !found || p.Verb != CreatePage {
		return wire.PageCreate{}, nil, false, nil
	}
	if err := strictDecode(p.Payload, &in); err != nil {
		return wire.PageCreate{}, nil, true, err
	}
	in.Actor = p.Actor
	return in, p, true, nil
}

// Settle removes a page proposal once its page is made, in a write
// attributed to the proposer as an approval's changes are.
func Settle(ctx context.Context, s *store.Store, id string) (int64, error) {
	prop, ok := findProposal(s.Snapshot(), id)
	if !ok {
		return 0, errs.NotFound("proposal %s not found", id)
	}
	return s.Update(ctx, prop.Actor, nil, func(tx *store.Tx) error {
		if _, ok := tx.Proposals().Get(id); !ok {
			return errs.NotFound("proposal %s not found", id)
		}
		tx.Proposals().Delete(id)
		return nil
	})
}
