package client

import (
	"context"
	"net/http"

	"github.com/opsboard/opsboard/shared/wire"
)

// PrioritiesAnswer is GET /api/priorities: notes in order, then the starred
// nodes by tier and recency.
type PrioritiesAnswer = wire.PriorityList

// Priorities reads the priority notes and the starred nodes.
func (c *Client) Priorities(ctx context.Context) (PrioritiesAnswer, error) {
	var out PrioritiesAnswer
	err := c.do(ctx, http.MethodGet, "/api/priorities", nil, nil, &out)
	return out, err
}

// CreatePriority adds a priority note.
func (c *Client) CreatePriority(ctx context.Context, in wire.PriorityCreate) (wire.PriorityReply, error) {
	var out wire.PriorityReply
	err := c.create(ctx, "/api/priorities", in, &out)
	return out, err
}

// PatchPriority edits a priority note.
func (c *Client) PatchPriority(ctx context.Context, id string, p wire.PriorityPatch) (wire.PriorityReply, error) {
	var out wire.PriorityReply
	err := c.do(ctx, http.MethodPatch, "/api/priorities/"+seg(id), nil, p, &out)
	return out, err
}

// DeletePriority removes a priority note.
func (c *Client) DeletePriority(ctx context.Context, id string) (int64, error) {
	var out wire.Deleted
	err := c.do(ctx, http.MethodDelete, "/api/priorities/"+seg(id), nil, nil, &out)
	return out.Version, err
}
