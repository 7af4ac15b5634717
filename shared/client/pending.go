package client

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/opsboard/opsboard/shared/wire"
)

// ProposalAnswer is the board's answer about one proposal.
type ProposalAnswer struct {
	Proposal wire.Proposal `json:"proposal"`
	Version  int64         `json:"version"`
}

// Proposals lists the proposals awaiting the human's decision, oldest first,
// each with what changed on its targets since it was filed.
func (c *Client) Proposals(ctx context.Context) ([]wire.ProposalItem, error) {
	var out struct {
		Proposals []wire.ProposalItem `json:"pending"`
	}
	err := c.do(ctx, http.MethodGet, "/api/pending", nil, nil, &out)
	return out.Proposals, err
}

// Propose files a proposal for approval.
func (c *Client) Propose(ctx context.Context, in wire.ProposalCreate) (ProposalAnswer, error) {
	var out ProposalAnswer
	err := c.do(ctx, http.MethodPost, "/api/pending", nil, in, &out)
	return out, err
}

// DecisionAnswer is the board's answer to an approve or a reject.
type DecisionAnswer struct {
	Proposal wire.Proposal   `json:"proposal"`
	Result   json.RawMessage `json:"result,omitempty"` // what the approved verb's route answered
	Version  int64           `json:"version"`
}

// Approve commits a proposal through the route its verb names.
func (c *Client) Approve(ctx context.Context, id string, d wire.ProposalDecision) (DecisionAnswer, error) {
	var out DecisionAnswer
	err := c.do(ctx, http.MethodPost, "/api/pending/"+seg(id)+"/approve", nil, d, &out)
	return out, err
}

// Reject discards a proposal.
func (c *Client) Reject(ctx context.Context, id string) (DecisionAnswer, error) {
	var out DecisionAnswer
	err := c.do(ctx, http.MethodPost, "/api/pending/"+seg(id)+"/reject", nil, nil, &out)
	return out, err
}
