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
		mcp.WithDescription("Search cases, tasks, messages and reminders. Call it before creating anything, with several queries (the entity name and the topic). Each hit is tagged with its nature (a reminder with its status). An archived hit means restore and relink it, not create; a merged one names the node to use instead. Archived cases are included by default so they are found rather than duplicated."),
		optional("q", "One query. Pass q or queries."),
		stringsArg("queries", "Several queries at once (the first 32 are used), e.g. [\"Acme\", \"renewal contract\"]."),
		mcp.WithInteger("k", mcp.Description("Hits per query (default 10, 1..50)."), mcp.Min(1), mcp.Max(50)),
		mcp.WithArray("types", mcp.Description("Only these kinds of record."), mcp.WithStringEnumItems([]string{"case", "task", "message", "reminder"})),
		domainArg("Only records of this domain (records without one are kept)."),
		laneArg("Only cases in this lane (reminders are never dropped by it)."),
		mcp.WithBoolean("includeArchived", mcp.Description("Include archived cases (default true, so an archived match is restored rather than duplicated)."), mcp.DefaultBool(true)),
		mcp.WithBoolean("semantic", mcp.Description("false forces the keyword engine (default: semantic when available).")),
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
