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

func listViews(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("list_views",
		mcp.WithDescription("List the saved views (named sets of board filters)."),
		mcptool.LimitArg(),
		mcptool.ReadOnly(),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		limit := a.IntOr("limit", 50)
		if a.Err() != nil {
			return "", a.Err()
		}
		views, err := c.Views(ctx)
		if err != nil {
			return "", err
		}
		if len(views) == 0 {
			return "No saved views.", nil
		}
		lines := make([]string, 0, len(views))
		for _, v := range views {
			lines = append(lines, render.ViewLine(v))
		}
		return limited(lines, limit, "raise limit"), nil
	})
}

// limited joins at most limit lines and says how many were left out.
func limited(lines []string, limit int, hint string) string {
	n := min(limit, len(lines))
	out := strings.Join(lines[:n], "\n")
	if m := render.More(n, len(lines), hint); m != "" {
		out += "\n" + m
	}
	return out
}

func saveView(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("save_view",
		mcp.WithDescription("Save a view (named board filters). Without id, a view of the same name is replaced, otherwise one is created; with id, that view is renamed or its filters replaced."),
		optional("id", "Id of the view to change, e.g. VIEW-2; omit to save by name."),
		mcp.WithString("name", mcp.Description("View name (required without id).")),
		mcp.WithObject("filters", mcp.Description("The filters, as the board page uses them, e.g. {\"status\":\"urgent\",\"domain\":\"work\",\"label\":\"blocked\"}."), mcp.AdditionalProperties(true)),
		mcptool.Destructive(mcptool.Idempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		id := a.Str("id")
		in := wire.ViewInput{}
		if a.Has("name") {
			in.Name = wire.Some(a.Str("name"))
		}
		if f := a.Object("filters"); f != nil {
			raw, err := json.Marshal(f)
			if err != nil {
				return "", fmt.Errorf("filters: %w", err)
			}
			in.Filters = wire.Some(json.RawMessage(raw))
		}
		if a.Err() != nil {
			return "", a.Err()
		}
		if id == "" && !in.Name.Set {
			return "", errors.New("name is required when no id is given")
		}
		if id != "" && !in.Name.Set && !in.Filters.Set {
			return "", errors.New("nothing to update: pass name or filters")
		}
		ans, err := c.SaveView(ctx, id, in)
		if err != nil {
			return "", err
		}
		verb := "Saved"
		if id == "" && !ans.Created {
			verb = "Replaced the view of that name"
		}
		return verb + ": " + render.ViewLine(ans.View), nil
	})
}

func deleteView(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("delete_view",
		mcp.WithDescription("Delete a saved view."),
		required("id", "View id, e.g. VIEW-2."),
		mcptool.Destructive(mcptool.Idempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		id := a.Str("id")
		if a.Err() != nil {
			return "", a.Err()
		}
		if _, err := c.DeleteView(ctx, id); err != nil {
			return "", err
		}
		return "Deleted view " + id + ".", nil
	})
}

func listTemplates(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("list_templates",
		mcp.WithDescription("List the case templates (reusable starting points for new cases)."),
		mcptool.LimitArg(),
		mcptool.ReadOnly(),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		limit := a.IntOr("limit", 50)
		if a.Err() != nil {
			return "", a.Err()
		}
		ts, err := c.Templates(ctx)
		if err != nil {
			return "", err
		}
		if len(ts) == 0 {
			return "No case templates.", nil
		}
		lines := make([]string, 0, len(ts))
		for _, t := range ts {
			lines = append(lines, render.TemplateLine(t))
		}
		return limited(lines, limit, "raise limit"), nil
	})
}

func saveTemplate(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("save_template",
		mcp.WithDescription("Save a case template. Without id, a template of the same name is replaced whole, otherwise one is created; with id, only the fields you pass change. Call list_labels before passing labels."),
		optional("id", "Id of the template to change, e.g. TPL-1; omit to save by name."),
		mcp.WithString("name", mcp.Description("Template name (required without id).")),
		optional("title", "Title a new case gets."),
		optional("summary", "Summary a new case gets."),
		laneArg("Lane a new case starts in."),
		domainArg(domainDesc),
		kindArg(kindDesc),
		labelsArg(),
		stringsArg("tags", "Tags a new case gets."),
		stringsArg("tasks", "Checklist task titles a new case gets."),
		mcptool.Destructive(mcptool.Idempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		id := a.Str("id")
		in := wire.TemplateInput{
			Name: a.OptStr("name"), Title: a.OptStr("title"), Summary: a.OptStr("summary"), Status: a.OptStr("status"),
			Domain: a.OptStr("domain"), Kind: a.OptStr("kind"), Labels: a.OptStrs("labels"), Tags: a.OptStrs("tags"), Tasks: a.OptStrs("tasks"),
		}
		if a.Err() != nil {
			return "", a.Err()
		}
		if id == "" && !in.Name.Set {
			return "", errors.New("name is required when no id is given")
		}
		ans, err := c.SaveTemplate(ctx, id, in)
		if err != nil {
			return "", err
		}
		verb := "Saved"
		if id == "" && !ans.Created {
			verb = "Replaced the template of that name"
		}
		return verb + ": " + render.TemplateLine(ans.Template), nil
	})
}

func deleteTemplate(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("delete_template",
		mcp.WithDescription("Delete a case template (cases made from it are not touched)."),
		required("id", "Template id, e.g. TPL-1."),
		mcptool.Destructive(mcptool.Idempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		id := a.Str("id")
		if a.Err() != nil {
			return "", a.Err()
		}
		if _, err := c.DeleteTemplate(ctx, id); err != nil {
			return "", err
		}
		return "Deleted template " + id + ".", nil
	})
}

func getPrefs(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("get_prefs",
		mcp.WithDescription("Read the board preferences, including view (operational or strategy: the page's toggle)."),
		mcptool.ReadOnly(),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		if a.Err() != nil {
			return "", a.Err()
		}
		prefs, err := c.Prefs(ctx)
		if err != nil {
			return "", err
		}
		return "Preferences: " + render.Prefs(prefs), nil
	})
}

func setPrefs(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("set_prefs",
		mcp.WithDescription("Change board preferences as a merge: the keys you pass replace (objects merge), null removes a key, others stay. view must be operational or strategy. The preferences are the person's: change them only when asked."),
		mcp.WithObject("prefs", mcp.Required(), mcp.Description("Keys to set, e.g. {\"view\":\"strategy\"}."), mcp.AdditionalProperties(true)),
		mcptool.Destructive(mcptool.Idempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		prefs := a.Object("prefs")
		if a.Err() != nil {
			return "", a.Err()
		}
		if len(prefs) == 0 {
			return "", errors.New("nothing to update: prefs is empty")
		}
		out, _, err := c.SetPrefs(ctx, prefs)
		if err != nil {
			return "", err
		}
		return "Preferences now: " + render.Prefs(out), nil
	})
}
