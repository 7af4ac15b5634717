package client

import (
	"context"
	"net/http"
	"net/url"

	"github.com/opsboard/opsboard/shared/wire"
)

// AgendaQuery is the query of GET /api/agenda; empty fields are left out
// (no from: overdue items lead; no to: today and the next seven days).
type AgendaQuery struct {
	From, To, Domain string
}

// Agenda lists the open tasks, open reminders and events due in a range,
// sorted by time, in the board's time zone.
func (c *Client) Agenda(ctx context.Context, a AgendaQuery) (wire.Agenda, error) {
	q := url.Values{}
	for k, v := range map[string]string{"from": a.From, "to": a.To, "domain": a.Domain} {
		if v != "" {
			q.Set(k, v)
		}
	}
	var out wire.Agenda
	err := c.do(ctx, http.MethodGet, "/api/agenda", q, nil, &out)
	return out, err
}
