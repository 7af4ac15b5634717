package tools

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/opsboard/opsboard/mcp-board/internal/render"
	"github.com/opsboard/opsboard/shared/client"
	"github.com/opsboard/opsboard/shared/mcptool"
)

func backupStatus(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("backup_status",
		mcp.WithDescription("Off-site backup health: verdict, last run, push state, newest snapshots, failing checks with their fixes."),
		mcptool.ReadOnly(),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		if a.Err() != nil {
			return "", a.Err()
		}
		st, err := c.Backups(ctx)
		if err != nil {
			return "", err
		}
		return render.BackupStatus(st), nil
	})
}

func runBackup(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("run_backup",
		mcp.WithDescription("Start an encrypted off-site backup in the background; skipped while the newest snapshot is under 12 hours old unless force. Check backup_status for the outcome."),
		mcp.WithBoolean("force", mcp.Description("Back up even when the newest snapshot is fresh.")),
		mcptool.Additive(mcptool.NotIdempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		force := a.BoolOr("force", false)
		if a.Err() != nil {
			return "", a.Err()
		}
		ans, err := c.RunBackup(ctx, force)
		if err != nil {
			return "", err
		}
		if ans.Started {
			return "Backup started in the background; backup_status shows the outcome when it ends.", nil
		}
		return "Skipped: the newest snapshot (" + ans.Newest + ") is under 12 hours old. Pass force=true to back up anyway.", nil
	})
}
