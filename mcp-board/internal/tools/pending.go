package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/opsboard/opsboard/mcp-board/internal/render"
	"github.com/opsboard/opsboard/shared/client"
	"github.com/opsboard/opsboard/shared/mcptool"
	"github.com/opsboard/opsboard/shared/wire"
)

// proposalVerbs are the verbs the approval queue commits, each through the
// route of the same name.
func proposalVerbs() []string {
	return []string{"update_case", "update_cases", "set_parent", "archive", "restore", "delete", "merge", "create_case", "update_reminder", "update_event"}
}

func propose(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("propose",
		mcp.WithDescription("Propose a change for the person's approval instead of making it. Use it when the change would override a human's manual action (get_case lists them) or the person should decide. The payload is exactly the body of the verb's route, plus id where the route has one: update_case {id, ...fields}, update_cases {ids, patch}, set_parent {id, parentId}, archive {id}, restore {id}, delete {id}, merge {id, targetId}, create_case {title, ...}, update_reminder {id, ...fields}, update_event {id, ...fields}. The board checks it now, so a proposal that could never apply is refused."),
		mcp.WithString("verb", mcp.Required(), mcp.Description("What to do."), mcp.Enum(proposalVerbs()...)),
		mcp.WithObject("payload", mcp.Required(), mcp.Description("The route's body for the verb (see above)."), mcp.AdditionalProperties(true)),
		mcp.WithString("summary", mcp.Required(), mcp.Description("One line the person reads: what and why."), mcp.MinLength(1)),
		mcptool.Additive(mcptool.NotIdempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		verb, summary, payload := a.Str("verb"), a.Text("summary"), a.Object("payload")
		if a.Err() != nil {
			return "", a.Err()
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
		mcp.WithDescription("List the proposals awaiting the person's approval, oldest first, each with whether its target changed since it was proposed."),
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

func approveProposal(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("approve_pending",
		mcp.WithDescription("Approve a pending proposal: it is committed through its verb's route with the proposer's attribution. Only when the person asked for it: the approval queue is their decision. Check list_pending for changes since the proposal first."),
		required("id", "Proposal id, e.g. PROP-2."),
		expectedArg(),
		mcptool.Destructive(mcptool.Idempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		id, expected := a.Str("id"), a.Expected()
		if a.Err() != nil {
			return "", a.Err()
		}
		ans, err := c.Approve(ctx, id, wire.ProposalDecision{ExpectedVersion: expected})
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("Approved and committed %s", render.ProposalLine(ans.Proposal)), nil
	})
}

func rejectProposal(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("reject_pending",
		mcp.WithDescription("Reject a pending proposal: it is discarded and nothing is committed. Only when the person asked for it, or to withdraw your own proposal."),
		required("id", "Proposal id, e.g. PROP-2."),
		mcptool.Destructive(mcptool.Idempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		id := a.Str("id")
		if a.Err() != nil {
			return "", a.Err()
		}
		ans, err := c.Reject(ctx, id)
		if err != nil {
			return "", err
		}
		return "Rejected " + render.ProposalLine(ans.Proposal), nil
	})
}
