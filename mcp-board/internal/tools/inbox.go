package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/opsboard/opsboard/mcp-board/internal/render"
	"github.com/opsboard/opsboard/shared/client"
	"github.com/opsboard/opsboard/shared/mcptool"
)

func listMessages(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("list_messages",
		mcp.WithDescription("Inbox, newest first; unlinked=true: the triage queue. File with update_message."),
		mcp.WithBoolean("unread", mcp.Description("Only unread.")),
		mcp.WithBoolean("unlinked", mcp.Description("No case and no reminder.")),
		optional("caseId", "e.g. CASE-12"),
		optional("reminderId", "e.g. REM-3"),
		mcp.WithInteger("limit", mcp.Description("Default 50."), mcp.Min(1), mcp.Max(200)),
		optional("cursor", "From the previous page."),
		mcptool.ReadOnly(),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		f := client.MessageFilter{Unread: a.BoolOr("unread", false), Unlinked: a.BoolOr("unlinked", false)}
		if id := a.Str("caseId"); id != "" {
			f.CaseID = &id
		}
		if id := a.Str("reminderId"); id != "" {
			f.ReminderID = &id
		}
		limit, cursor := a.IntOr("limit", 0), a.Str("cursor")
		if a.Err() != nil {
			return "", a.Err()
		}
		page, err := c.Inbox(ctx, f, limit, cursor)
		if err != nil {
			return "", err
		}
		var b strings.Builder
		if len(page.Messages) == 0 {
			b.WriteString("No messages match.")
		} else {
			fmt.Fprintf(&b, "%d messages, newest first:\n", len(page.Messages))
			for _, m := range page.Messages {
				b.WriteString(render.MessageLine(m) + "\n")
			}
		}
		if page.NextCursor != nil && *page.NextCursor != "" {
			fmt.Fprintf(&b, "\nMore: call list_messages again with cursor %q (and the same filters).", *page.NextCursor)
		} else if len(page.Messages) > 0 {
			b.WriteString("\nEnd of the list.")
		}
		return strings.TrimRight(b.String(), "\n"), nil
	})
}
