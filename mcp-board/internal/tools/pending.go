package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/opsboard/opsboard/mcp-board/internal/render"
	"github.com/opsboard/opsboard/shared/client"
	"github.com/opsboard/opsboard/shared/mcptool"
	"github.com/opsboard/opsboard/shared/wire"
)

// mirrors maps each verb of the approval queue to the tool whose arguments
// its payload takes: the payload is checked against that tool's schema, so
// a proposal is refused in the same words the tool would use.
func mirrors() map[string]mcp.Tool {
	tool := func(f Constructor) mcp.Tool { t, _ := f(nil); return t }
	return map[string]mcp.Tool{
		"update_case":     tool(updateCase),
		"update_cases":    tool(updateCases),
		"set_parent":      tool(setParent),
		"archive":         tool(archiveCase),
		"restore":         tool(restoreCase),
		"delete":          tool(deleteCase),
		"merge":           tool(mergeCases),
		"create_case":     tool(createCase),
		"update_reminder": tool(updateReminder),
		"update_event":    mcptool.UpdateEventTool(),
		// Undoing the person's writes is a proposal (undo_agent_writes
		// reaches only the agent's own): its payload is checked against
		// this schema, never listed.
		// It names one write (version) or an actor's writes since a time
		// (writesBy, since); the board says when neither or both are given.
		"undo": mcp.NewTool("undo",
			mcp.WithNumber("version", mcp.Description("The write to undo."), mcp.Min(1)),
			mcp.WithString("writesBy", mcp.Description("Whose writes to undo, e.g. agent.")),
			mcp.WithString("since", mcp.Description("With writesBy: undo the writes after this RFC 3339 time.")),
			mcp.WithBoolean("through", mcp.Description("Also undo later writes on the same records."))),
	}
}

// proposalVerbs are the verbs propose takes, in a stable order.
func proposalVerbs() []string {
	return []string{"update_case", "update_cases", "set_parent", "archive", "restore", "delete", "merge", "create_case", "update_reminder", "update_event", "undo"}
}

func propose(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("propose",
		mcp.WithDescription("Propose a change for the person to approve, instead of reverting theirs. payload: the arguments of the tool the verb names (merge: merge_cases...)."),
		mcp.WithString("verb", mcp.Required(), mcp.Description("What to do."), mcp.Enum(proposalVerbs()...)),
		mcp.WithObject("payload", mcp.Required(), mcp.Description("That tool's arguments."), mcp.AdditionalProperties(true)),
		mcp.WithString("summary", mcp.Required(), mcp.Description("One line: what and why."), mcp.MinLength(1)),
		mcptool.Additive(mcptool.NotIdempotent),
	)
	checks := map[string]func(map[string]any) error{}
	for verb, t := range mirrors() {
		checks[verb] = mcptool.Checker(t)
	}
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		verb, summary, payload := a.Str("verb"), a.Text("summary"), a.Object("payload")
		if a.Err() != nil {
			return "", a.Err()
		}
		check, ok := checks[verb]
		if !ok { // the schema's enum already refused it; kept for safety
			return "", fmt.Errorf("unknown verb %q", verb)
		}
		if err := check(payload); err != nil {
			return "", fmt.Errorf("payload: %w", err)
		}
		if _, ok := payload["items"]; ok && verb == "update_cases" {
			// The board applies an approved update_cases as one patch over ids.
			return "", errors.New("payload: update_cases is proposed with ids and one change; propose a different change per node as update_case, one proposal each")
		}
		raw, err := json.Marshal(payload)
		if err != nil {
			return "", fmt.Errorf("payload: %w", err)
		}
		ans, err := c.Propose(ctx, wire.ProposalCreate{Verb: verb, Payload: raw, Summary: summary})
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("Proposed %s; it waits for the person's approval (list_pending shows it).", render.ProposalLine(ans.Proposal)), nil
	})
}

func listProposals(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("list_pending",
		mcp.WithDescription("List proposals awaiting approval."),
		mcptool.LimitArg(),
		mcptool.ReadOnly(),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		limit := a.IntOr("limit", 50)
		if a.Err() != nil {
			return "", a.Err()
		}
		items, err := c.Proposals(ctx)
		if err != nil {
			return "", err
		}
		if len(items) == 0 {
			return "No proposals are pending.", nil
		}
		n := min(limit, len(items))
		lines := make([]string, 0, n+1)
		for _, it := range items[:n] {
			lines = append(lines, proposalLine(it))
		}
		if m := render.More(n, len(items), "raise limit"); m != "" {
			lines = append(lines, m)
		}
		return strings.Join(lines, "\n"), nil
	})
}

func proposalLine(it wire.ProposalItem) string {
	s := render.ProposalLine(it.Proposal)
	for _, t := range it.Targets {
		switch {
		case t.Gone:
			s += " - " + t.ID + " is gone (approval would fail: reject it)"
		case len(t.ChangedFields) > 0:
			s += " - " + t.ID + " changed since: " + strings.Join(t.ChangedFields, ",")
		case t.ChangedSince:
			s += " - " + t.ID + " changed since"
		}
	}
	return s
}
