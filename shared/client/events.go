package client

import (
	"context"
	"net/http"
	"net/url"

	"github.com/opsboard/opsboard/shared/wire"
)

// EventAnswer is the board's answer about one event.
type EventAnswer = wire.EventReply

// EventFilter is the query of GET /api/events: From inclusive, To exclusive.
type EventFilter struct {
	From   string
	To     string
	CaseID string
	Domain string
}

// Events lists calendar events.
func (c *Client) Events(ctx context.Context, f EventFilter) ([]wire.Event, error) {
	q := url.Values{}
	for k, v := range map[string]string{"from": f.From, "to": f.To, "caseId": f.CaseID, "domain": f.Domain} {
		if v != "" {
			q.Set(k, v)
		}
	}
	var out wire.EventList
	err := c.do(ctx, http.MethodGet, "/api/events", q, nil, &out)
	return out.Events, err
}

// Event reads one event.
func (c *Client) Event(ctx context.Context, id string) (EventAnswer, error) {
	var out EventAnswer
	err := c.do(ctx, http.MethodGet, "/api/events/"+seg(id), nil, nil, &out)
	return out, err
}

// CreateEvent adds an event.
func (c *Client) CreateEvent(ctx context.Context, in wire.EventCreate) (EventAnswer, error) {
	var out EventAnswer
	err := c.create(ctx, "/api/events", in, &out)
	return out, err
}

// PatchEvent updates an event.
func (c *Client) PatchEvent(ctx context.Context, id string, p wire.EventPatch) (EventAnswer, error) {
	var out EventAnswer
	err := c.do(ctx, http.MethodPatch, "/api/events/"+seg(id), nil, p, &out)
	return out, err
}

// DeleteEvent removes an event.
func (c *Client) DeleteEvent(ctx context.Context, id string) (int64, error) {
	var out wire.Deleted
	err := c.do(ctx, http.MethodDelete, "/api/events/"+seg(id), nil, nil, &out)
	return out.Version, err
}
