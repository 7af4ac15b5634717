package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/opsboard/opsboard/mcp-board/internal/render"
	"github.com/opsboard/opsboard/shared/client"
	"github.com/opsboard/opsboard/shared/mcptool"
	"github.com/opsboard/opsboard/shared/wire"
)

func getPriorities(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("get_priorities",
		mcp.WithDescription("The person's priorities: starred nodes, then priority notes."),
		mcptool.ReadOnly(),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		if a.Err() != nil {
			return "", a.Err()
		}
		p, err := c.Priorities(ctx)
		if err != nil {
			return "", err
		}
		return render.Priorities(p), nil
	})
}

func addPriority(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("add_priority",
		mcp.WithDescription("Add a priority note in the person's words."),
		mcp.WithString("text", mcp.Required(), mcp.MinLength(1)),
		mcp.WithNumber("position", mcp.Description("Rank, smaller first.")),
		mcptool.Additive(mcptool.NotIdempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		in := wire.PriorityCreate{Text: a.Text("text"), Position: a.Num("position")}
		if a.Err() != nil {
			return "", a.Err()
		}
		ans, err := c.CreatePriority(ctx, in)
		if err != nil {
			return "", err
		}
		if ans.Existing {
			return "Already there, nothing added: " + priorityLine(ans.Priority), nil
		}
		return "Added " + priorityLine(ans.Priority), nil
	})
}

func priorityLine(p wire.Priority) string {
	s := fmt.Sprintf("%s - %s", p.ID, p.Text)
	if p.Position != nil {
		s += " (position " + strconv.FormatFloat(*p.Position, 'g', -1, 64) + ")"
	}
	return s
}

func updatePriority(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("update_priority",
		mcp.WithDescription("Edit a priority note."),
		required("id", "Note id."),
		mcp.WithString("text", mcp.MinLength(1)),
		mcp.WithNumber("position", mcp.Description("Rank, smaller first.")),
		expectedArg(),
		mcptool.Destructive(mcptool.Idempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		id := a.Str("id")
		p := wire.PriorityPatch{Text: a.OptStr("text"), ExpectedVersion: a.Expected()}
		if pos := a.Num("position"); pos != nil {
			raw, err := json.Marshal(*pos)
			if err != nil {
				return "", fmt.Errorf("position: %w", err)
			}
			p.Position = wire.Some(json.RawMessage(raw))
		}
		if a.Err() != nil {
			return "", a.Err()
		}
		if !p.Text.Set && !p.Position.Set {
			return "", errors.New("nothing to update: pass text or position")
		}
		ans, err := c.PatchPriority(ctx, id, p)
		if err != nil {
			return "", err
		}
		return "Updated " + priorityLine(ans.Priority), nil
	})
}

func removePriority(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("remove_priority",
		mcp.WithDescription("Remove a priority note for good."),
		required("id", "Note id."),
		mcptool.Destructive(mcptool.Idempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		id := a.Str("id")
		if a.Err() != nil {
			return "", a.Err()
		}
		if _, err := c.DeletePriority(ctx, id); err != nil {
			return "", err
		}
		return "Removed priority note " + id + ".", nil
	})
}

func setStarred(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("set_starred",
		mcp.WithDescription("Star or unstar a node."),
		required("id", "Node id."),
		mcp.WithBoolean("starred", mcp.Required(), mcp.Description("Star or unstar.")),
		mcptool.Destructive(mcptool.Idempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		id, star := a.Str("id"), a.OptBool("starred")
		if a.Err() != nil {
			return "", a.Err()
		}
		if !star.Set {
			return "", errors.New("starred is required: true or false")
		}
		ans, err := c.PatchCase(ctx, id, wire.CasePatch{Starred: star})
		if err != nil {
			return "", err
		}
		word := "Unstarred"
		if ans.Case.Starred {
			word = "Starred"
		}
		return fmt.Sprintf("%s %s - %s", word, ans.Case.ID, ans.Case.Title), nil
	})
}
