package client

import (
	"context"
	"net/http"
	"net/url"

	"github.com/opsboard/opsboard/shared/wire"
)

// Backups reads the off-site backup's status (GET /api/backups): the
// board answers it from local files without contacting the repository.
func (c *Client) Backups(ctx context.Context) (wire.BackupStatus, error) {
	var out wire.BackupStatus
	err := c.do(ctx, http.MethodGet, "/api/backups", nil, nil, &out)
	return out, err
}

// RunBackup asks the board to back up now (POST /api/backups/run). The
// answer is Started, or Skipped "fresh" with the newest snapshot's time
// when force is false and that snapshot is under 12 hours old; a run
// already going (409) or a sandbox board (403) is a *BoardError.
func (c *Client) RunBackup(ctx context.Context, force bool) (wire.BackupRunReply, error) {
	var q url.Values
	if force {
		q = url.Values{"force": {"1"}}
	}
	var out wire.BackupRunReply
	err := c.do(ctx, http.MethodPost, "/api/backups/run", q, nil, &out)
	return out, err
}
