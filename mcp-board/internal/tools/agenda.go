package tools

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/opsboard/opsboard/mcp-board/internal/render"
	"github.com/opsboard/opsboard/shared/client"
	"github.com/opsboard/opsboard/shared/mcptool"
)

func agenda(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("agenda",
		mcp.WithDescription("Due tasks, reminders and events by day. Default: overdue plus 7 days."),
		optional("from", "Start. "+dueDesc),
		optional("to", "End; a bare day is included."),
		domainArg("Only this domain."),
		mcptool.ReadOnly(),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		q := client.AgendaQuery{From: a.Str("from"), To: a.Str("to"), Domain: a.Str("domain")}
		if a.Err() != nil {
			return "", a.Err()
		}
		ans, err := c.Agenda(ctx, q)
		if err != nil {
			return "", err
		}
		return render.Agenda(ans), nil
	})
}
