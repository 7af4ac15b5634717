package tools

import (
	"context"
	"errors"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/opsboard/opsboard/mcp-board/internal/render"
	"github.com/opsboard/opsboard/shared/client"
	"github.com/opsboard/opsboard/shared/mcptool"
)

func search(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("search",
		mcp.WithDescription("Find cases, tasks, messages, reminders; several queries before creating."),
		optional("q", "One query."),
		stringsArg("queries", "Several queries."),
		mcp.WithInteger("k", mcp.Description("Hits per query (default 10)."), mcp.Min(1), mcp.Max(50)),
		mcp.WithArray("types", mcp.Description("Kinds."), mcp.WithStringEnumItems([]string{"case", "task", "message", "reminder"})),
		domainArg(""),
		laneArg(""),
		mcp.WithBoolean("includeArchived", mcp.Description("Include archived (default true)."), mcp.DefaultBool(true)),
		mcp.WithBoolean("semantic", mcp.Description("false: keywords only.")),
		mcptool.ReadOnly(),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		includeArchived := a.BoolOr("includeArchived", true)
		r := client.SearchRequest{
			Q: a.Str("q"), Queries: a.Strs("queries"), K: a.IntOr("k", 0), Types: a.Strs("types"),
			Domain: a.Str("domain"), Status: a.Str("status"), IncludeArchived: &includeArchived,
			Fields: []string{"body", "notes"}, // a person expects words in a note or an email to be found
		}
		if s := a.OptBool("semantic"); s.Set {
			r.Semantic = &s.V
		}
		if a.Err() != nil {
			return "", a.Err()
		}
		if r.Q == "" && len(r.Queries) == 0 {
			return "", errors.New("pass q or queries: at least one non-empty query")
		}
		single := len(r.Queries) == 0 || (r.Q == "" && len(r.Queries) == 1)
		if r.Q != "" && len(r.Queries) > 0 {
			// Both given: every query is searched, none is dropped.
			r.Queries = append([]string{r.Q}, r.Queries...)
			r.Q = ""
			single = false
		}
		ans, err := c.Search(ctx, r)
		if err != nil {
			return "", err
		}
		return render.Search(ans, single), nil
	})
}
