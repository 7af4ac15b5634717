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
		mcp.WithDescription("What is due: open tasks, open reminders and events in a range, grouped by day with hints such as \"overdue 2 d\" or \"today 15:00\", today's date and the board's time zone on top. Default: everything overdue plus today and the next 7 days. Use it for \"what is due this week?\"; use list_reminders or get_case for one record's details."),
		optional("from", "Start of the range: YYYY-MM-DD or an ISO datetime (without an offset: the board's time zone). Given, overdue items before it are left out."),
		optional("to", "End of the range, inclusive for a bare day: YYYY-MM-DD or an ISO datetime."),
		domainArg("Only items of this domain (items without one are kept)."),
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
