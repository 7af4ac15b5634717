package client

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/opsboard/opsboard/shared/wire"
)

// AddCaseMessage creates a message linked to a case.
func (c *Client) AddCaseMessage(ctx context.Context, caseID string, in wire.MessageInput) (wire.MessageReply, error) {
	var out wire.MessageReply
	err := c.create(ctx, "/api/cases/"+seg(caseID)+"/messages", in, &out)
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
	Unlinked   bool // neither a case nor a reminder
}

func (f MessageFilter) query() url.Values {
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
	if f.Unlinked {
		q.Set("unlinked", "1")
	}
	return q
}

// Messages lists every matching message, in store order.
func (c *Client) Messages(ctx context.Context, f MessageFilter) ([]wire.Message, error) {
	var out wire.MessageList
	err := c.do(ctx, http.MethodGet, "/api/messages", f.query(), nil, &out)
	return out.Messages, err
}

// Inbox is one page of matching messages, newest first. limit 0 means the
// board's default page size; cursor "" starts at the newest. The reply's
// NextCursor is "" on the last page.
func (c *Client) Inbox(ctx context.Context, f MessageFilter, limit int, cursor string) (wire.MessageList, error) {
	q := f.query()
	if limit > 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	q.Set("cursor", cursor) // present even when empty, so the answer is paged
	var out wire.MessageList
	err := c.do(ctx, http.MethodGet, "/api/messages", q, nil, &out)
	return out, err
}

// AddMessages creates a batch of messages in one write, each linked as its
// item says; the reply has one result per item, in order, created or the
// record already held. One bad item refuses the whole batch.
func (c *Client) AddMessages(ctx context.Context, in []wire.MessageCreate) (wire.MessageBatchReply, error) {
	var out wire.MessageBatchReply
	err := c.create(ctx, "/api/messages", wire.MessageBatch{Messages: in}, &out)
	return out, err
}
