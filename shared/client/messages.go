package client

import (
	"context"
	"net/http"
	"net/url"

	"github.com/opsboard/opsboard/shared/wire"
)

// AddCaseMessage creates a message linked to a case.
func (c *Client) AddCaseMessage(ctx context.Context, caseID string, in wire.MessageInput) (wire.MessageReply, error) {
	var out wire.MessageReply
	err := c.do(ctx, http.MethodPost, "/api/cases/"+seg(caseID)+"/messages", nil, in, &out)
	return out, err
}

// PatchMessage updates a message: read flag, url, case or reminder link.
func (c *Client) PatchMessage(ctx context.Context, id string, p wire.MessagePatch) (wire.MessageReply, error) {
	var out wire.MessageReply
	err := c.do(ctx, http.MethodPatch, "/api/messages/"+seg(id), nil, p, &out)
	return out, err
}

// MessageFilter is the query of GET /api/messages.
type MessageFilter struct {
	CaseID     *string
	ReminderID *string
	Unread     bool
}

// Messages lists messages.
func (c *Client) Messages(ctx context.Context, f MessageFilter) ([]wire.Message, error) {
	q := url.Values{}
	if f.CaseID != nil {
		q.Set("caseId", *f.CaseID)
	}
	if f.ReminderID != nil {
		q.Set("reminderId", *f.ReminderID)
	}
	if f.Unread {
		q.Set("unread", "1")
	}
	var out wire.MessageList
	err := c.do(ctx, http.MethodGet, "/api/messages", q, nil, &out)
	return out.Messages, err
}
