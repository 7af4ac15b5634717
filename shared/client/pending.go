package client

import (
	"context"
	"net/http"

	"github.com/opsboard/opsboard/shared/wire"
)

// Proposals lists the proposals awaiting the human's decision, oldest first,
// each with what changed on its targets since it was filed.
func (c *Client) Proposals(ctx context.Context) ([]wire.ProposalItem, error) {
	var out wire.ProposalList
	err := c.do(ctx, http.MethodGet, "/api/pending", nil, nil, &out)
	return out.Proposals, err
}

// Propose files a proposal for approval.
func (c *Client) Propose(ctx context.Context, in wire.ProposalCreate) (wire.ProposalReply, error) {
	var out wire.ProposalReply
	err := c.create(ctx, "/api/pending", in, &out)
	return out, err
}

// Approve commits a proposal through the route its verb names.
func (c *Client) Approve(ctx context.Context, id string, d wire.ProposalDecision) (wire.ApproveReply, error) {
	var out wire.ApproveReply
	err := c.do(ctx, http.MethodPost, "/api/pending/"+seg(id)+"/approve", nil, d, &out)
	return out, err
}

// Reject discards a proposal.
func (c *Client) Reject(ctx context.Context, id string) (wire.RejectReply, error) {
	var out wire.RejectReply
	err := c.do(ctx, http.MethodPost, "/api/pending/"+seg(id)+"/reject", nil, nil, &out)
	return out, err
}
