package tools

import (
	"context"
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

func colorArg(desc string) mcp.ToolOption {
	return mcp.WithString("color", mcp.Description(desc), mcp.Enum(wire.LabelColors...))
}

func listLabels(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("list_labels",
		mcp.WithDescription("List the label catalog: the only label ids accepted."),
		optional("query", "Text to match."),
		mcptool.LimitArg(),
		mcptool.ReadOnly(),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		q, limit := strings.ToLower(a.Str("query")), a.IntOr("limit", 50)
		if a.Err() != nil {
			return "", a.Err()
		}
		all, err := c.Labels(ctx)
		if err != nil {
			return "", err
		}
		var lines []string
		for _, l := range all {
			if q == "" || strings.Contains(strings.ToLower(l.ID+" "+l.Title+" "+l.Description), q) {
				lines = append(lines, render.LabelLine(l))
			}
		}
		if len(lines) == 0 {
			return "No labels match; list_label_bundles shows installable bundles, create_label adds one.", nil
		}
		n := min(limit, len(lines))
		out := strings.Join(lines[:n], "\n")
		if m := render.More(n, len(lines), "pass query or raise limit"); m != "" {
			out += "\n" + m
		}
		return out, nil
	})
}

func createLabel(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("create_label",
		mcp.WithDescription("Add a custom label to the catalog; its id is minted from the title. Check list_labels (and list_label_bundles) first: one concept, one id. A label with the same title already in the catalog is answered instead of a second one."),
		required("title", "Label title, e.g. Waiting on vendor."),
		optional("description", "When the label applies."),
		colorArg("Color (default gray)."),
		mcptool.Additive(mcptool.Idempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		in := wire.LabelCreate{Title: a.Str("title"), Description: a.Text("description"), Color: a.Str("color")}
		if a.Err() != nil {
			return "", a.Err()
		}
		// The label route has no dedupe of its own (it mints title-2), so the
		// catalog is checked first: one concept, one id.
		catalog, err := c.Labels(ctx)
		if err != nil {
			return "", err
		}
		for _, l := range catalog {
			if sameTitle(l.Title, in.Title) || sameTitle(l.ID, in.Title) {
				return fmt.Sprintf("Already existed, nothing created: %s\nUse the id %s; update_label changes its description or color.", render.LabelLine(l), l.ID), nil
			}
		}
		ans, err := c.CreateLabel(ctx, in)
		if err != nil {
			return "", err
		}
		return "Created label " + render.LabelLine(ans.Label), nil
	})
}

func updateLabel(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("update_label",
		mcp.WithDescription("Edit a catalog label's title, description or color (its id never changes)."),
		required("id", "Label id, e.g. waiting-on."),
		optional("title", "New title."),
		optional("description", "New description: when the label applies."),
		colorArg("New color."),
		mcptool.Destructive(mcptool.Idempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		id := a.Str("id")
		p := wire.LabelPatch{Title: a.OptStr("title"), Description: a.OptStr("description"), Color: a.OptStr("color")}
		if a.Err() != nil {
			return "", a.Err()
		}
		if !p.Title.Set && !p.Description.Set && !p.Color.Set {
			return "", errors.New("nothing to update: pass title, description or color")
		}
		ans, err := c.PatchLabel(ctx, id, p)
		if err != nil {
			return "", err
		}
		return "Updated label " + render.LabelLine(ans.Label), nil
	})
}

func deleteLabel(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("delete_label",
		mcp.WithDescription("Remove a label from the catalog. With scrub true it is also stripped from every case and reminder; without, records keep the id."),
		required("id", "Label id."),
		mcp.WithBoolean("scrub", mcp.Description("Also strip the id from every record (default false).")),
		mcptool.Destructive(mcptool.Idempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		id, scrub := a.Str("id"), a.BoolOr("scrub", false)
		if a.Err() != nil {
			return "", a.Err()
		}
		if _, err := c.DeleteLabel(ctx, id, scrub); err != nil {
			return "", err
		}
		if scrub {
			return "Deleted label " + id + " and stripped it from every record.", nil
		}
		return "Deleted label " + id + " from the catalog (records keep the id).", nil
	})
}

func listLabelBundles(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("list_label_bundles",
		mcp.WithDescription("List the installable label bundles (role, life and universal packs) with how many of their labels are in the catalog and whether each is installed."),
		mcp.WithString("kind", mcp.Description("Only bundles of this kind."), mcp.Enum("role", "life", "universal")),
		mcptool.LimitArg(),
		mcptool.ReadOnly(),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		kind, limit := a.Str("kind"), a.IntOr("limit", 50)
		if a.Err() != nil {
			return "", a.Err()
		}
		all, err := c.Bundles(ctx)
		if err != nil {
			return "", err
		}
		var lines []string
		for _, b := range all {
			if kind == "" || b.Kind == kind {
				lines = append(lines, render.BundleLine(b))
			}
		}
		if len(lines) == 0 {
			return "No bundles match.", nil
		}
		n := min(limit, len(lines))
		out := strings.Join(lines[:n], "\n")
		if m := render.More(n, len(lines), "pass kind or raise limit"); m != "" {
			out += "\n" + m
		}
		return out, nil
	})
}

func installLabelBundle(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("install_label_bundle",
		mcp.WithDescription("Install a label bundle: its labels join the catalog (idempotent). An id the catalog already holds with another meaning keeps its definition and is reported as a conflict."),
		required("id", "Bundle id, e.g. software-engineering (list_label_bundles shows them)."),
		mcptool.Additive(mcptool.Idempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		id := a.Str("id")
		if a.Err() != nil {
			return "", a.Err()
		}
		ans, err := c.InstallBundle(ctx, id)
		if err != nil {
			return "", err
		}
		var b strings.Builder
		if len(ans.Added) == 0 {
			fmt.Fprintf(&b, "Bundle %s installed: no new labels (already in the catalog).", id)
		} else {
			fmt.Fprintf(&b, "Bundle %s installed: added %d %s: %s", id, len(ans.Added), pluralOf(len(ans.Added), "label", "labels"), strings.Join(ans.Added, ", "))
		}
		for _, cf := range ans.Conflicts {
			fmt.Fprintf(&b, "\nConflict on %s: kept %q (%s); the bundle's %q (%s) was not installed", cf.ID, cf.Existing.Title, cf.Existing.Description, cf.Incoming.Title, cf.Incoming.Description)
		}
		return b.String(), nil
	})
}

func uninstallLabelBundle(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("uninstall_label_bundle",
		mcp.WithDescription("Uninstall a label bundle: removes only the labels it owns (labels another bundle or the person also owns stay). By default the removed ids are stripped from cases and reminders; scrub false keeps them there."),
		required("id", "Bundle id."),
		mcp.WithBoolean("scrub", mcp.Description("Strip the removed ids from records (default true).")),
		mcptool.Destructive(mcptool.Idempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		id, scrub := a.Str("id"), a.BoolOr("scrub", true)
		if a.Err() != nil {
			return "", a.Err()
		}
		removed, _, err := c.UninstallBundle(ctx, id, scrub)
		if err != nil {
			return "", err
		}
		if len(removed) == 0 {
			return "Bundle " + id + " uninstalled: it owned no labels alone, nothing removed.", nil
		}
		return fmt.Sprintf("Bundle %s uninstalled: removed %s", id, strings.Join(removed, ", ")), nil
	})
}

// sameTitle compares titles the way people mean them: case, spacing and
// dashes aside.
func sameTitle(a, b string) bool {
	norm := func(s string) string {
		return strings.Join(strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r == ' ' || r == '-' || r == '_' || r == '\t' }), " ")
	}
	return norm(a) == norm(b)
}
