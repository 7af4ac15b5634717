package client

import (
	"context"

	"github.com/opsboard/opsboard/shared/wire"
)

// SearchRequest is the body of POST /api/search.
type SearchRequest struct {
	Queries         []string `json:"queries,omitempty"`
	Q               string   `json:"q,omitempty"`
	K               int      `json:"k,omitempty"`
	Types           []string `json:"types,omitempty"`
	Domain          string   `json:"domain,omitempty"`
	Status          string   `json:"status,omitempty"`
	IncludeArchived *bool    `json:"includeArchived,omitempty"`
	Semantic        *bool    `json:"semantic,omitempty"`
	// Fields names the longer texts the keyword path also reads: "body"
	// (messages) and "notes" (cases).
	Fields []string `json:"fields,omitempty"`
}

// SearchAnswer is the envelope of POST /api/search.
type SearchAnswer = wire.SearchEnvelope

// Search ranks cases, tasks, messages and reminders against one or more
// queries. It is a read: no actor is involved, but the route is a POST.
func (c *Client) Search(ctx context.Context, r SearchRequest) (SearchAnswer, error) {
	var out SearchAnswer
	err := c.readPost(ctx, "/api/search", r, &out)
	return out, err
}
