package client

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/opsboard/opsboard/shared/wire"
)

// Changes reads what the writes after version since changed (GET
// /api/changes); Reset in the answer means the board's memory of recent
// writes does not reach back that far.
func (c *Client) Changes(ctx context.Context, since int64) (wire.Changes, error) {
	var out wire.Changes
	err := c.do(ctx, http.MethodGet, "/api/changes", url.Values{"since": {strconv.FormatInt(since, 10)}}, nil, &out)
	return out, err
}

// Undo asks the board to undo writes (POST /api/undo). A later write on a
// record the undo would put back refuses it with a 400 naming that write.
func (c *Client) Undo(ctx context.Context, r wire.UndoRequest) (wire.UndoReply, error) {
	var out wire.UndoReply
	err := c.do(ctx, http.MethodPost, "/api/undo", nil, r, &out)
	return out, err
}
