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

// The one clause of a rule a description keeps, for clients that drop the
// server's instructions; the rules in full are in Instructions.
const (
	searchFirst = "Search first."
	dedupeNote  = "A duplicate answers the existing node."
	manualRule  = "Never revert the person's changes."
)

func createCase(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("create_case",
		mcp.WithDescription("Create a case node (a leaf by default). "+searchFirst+" "+dedupeNote),
		required("title", ""),
		kindArg("Default case."),
		optional("parentId", "Parent node."),
		laneArg("Lane (default todo)."),
		domainArg("Default work."),
		optional("summary", summaryDesc),
		stringsArg("tags", ""),
		labelsArg(),
		optional("eta", "ETA, free text."),
		optional("dueAt", dueDesc),
		stringsArg("vaultLinks", "Vault page links."),
		mcp.WithArray("tasks", mcp.Description("Initial tasks."), objectItems(map[string]any{
			"title":  prop("string", ""),
			"detail": prop("string", ""),
			"dueAt":  prop("string", ""),
		}, "title")),
		mcptool.Additive(mcptool.Idempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		in := caseCreate(a)
		if a.Err() != nil {
			return "", a.Err()
		}
		return createNode(ctx, c, in)
	})
}

// caseCreate reads the create arguments every create tool shares.
func caseCreate(a *mcptool.Args) wire.CaseCreate {
	in := wire.CaseCreate{
		Title: a.Str("title"), Kind: a.Str("kind"), ParentID: a.Str("parentId"), Status: a.Str("status"),
		Domain: a.Str("domain"), Summary: a.Text("summary"), Tags: a.Strs("tags"), Labels: a.Strs("labels"),
		Eta: a.Text("eta"), DueAt: a.Str("dueAt"), VaultLinks: a.Strs("vaultLinks"),
		Dedupe: true, // the agent's creates always deduplicate: a retried or repeated call gets back the record it made, not a second copy
	}
	for _, t := range a.Objects("tasks") {
		ta := mcptool.NewArgs(t)
		in.Tasks = append(in.Tasks, wire.TaskInput{Title: ta.Str("title"), Detail: ta.Text("detail"), DueAt: ta.Str("dueAt")})
		if ta.Err() != nil {
			a.Fail("tasks: %v", ta.Err())
		}
	}
	return in
}

// createNode sends a deduplicated create and says when the node existed.
func createNode(ctx context.Context, c *client.Client, in wire.CaseCreate) (string, error) {
	ans, err := c.CreateCase(ctx, in)
	if err != nil {
		return "", err
	}
	line := render.CaseListLine(&ans.Case)
	if !ans.Existing {
		return "Created " + line, nil
	}
	msg := fmt.Sprintf("Already existed, nothing created: %s\n%s has the same title, kind and parent; the other fields you passed were not applied: use update_case %s to change them.", line, ans.Case.ID, ans.Case.ID)
	if ans.Case.ArchivedAt != "" && ans.Case.MergedInto == "" {
		msg += fmt.Sprintf(" It is archived: restore_case %s, then relink.", ans.Case.ID)
	}
	return msg, nil
}

func createInitiative(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("create_initiative",
		mcp.WithDescription("Create an initiative (a root). "+searchFirst),
		required("title", ""),
		domainArg("Default work."),
		optional("summary", summaryDesc),
		stringsArg("tags", ""),
		labelsArg(),
		optional("dueAt", dueDesc),
		mcptool.Additive(mcptool.Idempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		in := caseCreate(a)
		if a.Err() != nil {
			return "", a.Err()
		}
		in.Kind = "initiative"
		return createNode(ctx, c, in)
	})
}

func createWorkstream(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("create_workstream",
		mcp.WithDescription("Create a workstream under an initiative. "+searchFirst),
		required("title", ""),
		required("initiativeId", "Its initiative, e.g. CASE-3."),
		domainArg("Default work."),
		optional("summary", summaryDesc),
		stringsArg("tags", ""),
		labelsArg(),
		optional("dueAt", dueDesc),
		mcptool.Additive(mcptool.Idempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		in := caseCreate(a)
		in.Kind, in.ParentID = "workstream", a.Str("initiativeId")
		if a.Err() != nil {
			return "", a.Err()
		}
		return createNode(ctx, c, in)
	})
}

func getCase(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("get_case",
		mcp.WithDescription("Read one node, the person's manual actions first."),
		required("id", "Node id."),
		mcptool.ReadOnly(),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		id := a.Str("id")
		if a.Err() != nil {
			return "", a.Err()
		}
		d, err := c.Case(ctx, id)
		if err != nil {
			return "", err
		}
		v := render.CaseView{Detail: d}
		if d.Case.ParentID != "" {
			p, err := c.Case(ctx, d.Case.ParentID)
			switch {
			case err == nil:
				v.Parent = &p.Case
			case !client.NotFound(err):
				return "", err
			}
		}
		if d.Case.IsContainer() {
			tree, err := c.Tree(ctx, client.TreeFilter{RootID: id, IncludeArchived: d.Case.ArchivedAt != ""})
			if err != nil {
				return "", err
			}
			if len(tree) > 0 {
				v.Node = tree[0]
			} else {
				v.Node = &wire.TreeNode{Case: d.Case}
			}
		}
		return render.Case(v), nil
	})
}

func listCases(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("list_cases",
		mcp.WithDescription("List case nodes by filter; by words: search."),
		laneArg(""),
		domainArg(""),
		kindArg(""),
		optional("parentId", "Parent."),
		optional("label", "Label id."),
		mcp.WithBoolean("starred", mcp.Description("Starred.")),
		mcp.WithBoolean("includeArchived", mcp.Description("Include archived.")),
		mcptool.LimitArg(),
		mcptool.ReadOnly(),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		f := client.CaseFilter{Status: a.Str("status"), Domain: a.Str("domain"), Kind: a.Str("kind"), Label: a.Str("label"), IncludeArchived: a.BoolOr("includeArchived", false)}
		if a.Has("parentId") {
			p := a.Str("parentId")
			f.ParentID = &p
		}
		if s := a.OptBool("starred"); s.Set {
			f.Starred = &s.V
		}
		limit := a.IntOr("limit", 50)
		if a.Err() != nil {
			return "", a.Err()
		}
		cases, err := c.Cases(ctx, f)
		if err != nil {
			return "", err
		}
		if len(cases) == 0 {
			return "No case nodes match.", nil
		}
		wire.SortLanes(cases) // the board's order, so "the top of To do" means the same card to both
		var b strings.Builder
		for i := range cases[:min(limit, len(cases))] {
			b.WriteString(render.CaseListLine(&cases[i]) + "\n")
		}
		if m := render.More(min(limit, len(cases)), len(cases), "narrow the filters or raise limit"); m != "" {
			b.WriteString(m)
		}
		return strings.TrimRight(b.String(), "\n"), nil
	})
}

// patchArgs are the fields update_case and update_cases share; a node's
// own text, star and order are set one node at a time.
func patchArgs(single bool) []mcp.ToolOption {
	opts := []mcp.ToolOption{
		laneArg(""),
		domainArg(domainDesc),
		kindArg(""),
		mcp.WithString("parentId", mcptool.Nullable(), mcp.Description("New parent; null detaches.")),
		labelsArg(),
		stringsArg("tags", "Tags (replaced)."),
		optional("dueAt", dueDesc+" \"\" clears."),
		optional("eta", "ETA; \"\" clears."),
	}
	if single {
		opts = append(opts,
			mcp.WithBoolean("starred", mcp.Description("Star or unstar.")),
			mcp.WithNumber("position", mcp.Description("Smaller first.")),
			optional("title", ""),
			optional("summary", "\"\" clears."),
			stringsArg("vaultLinks", "Vault links (replaced)."),
		)
	}
	return opts
}

// casePatch reads the patch fields, and the names of those that were given.
func casePatch(a *mcptool.Args) (wire.CasePatch, []string) {
	p := wire.CasePatch{
		Title: a.OptStr("title"), Summary: a.OptStr("summary"), Status: a.OptStr("status"), Domain: a.OptStr("domain"),
		Eta: a.OptStr("eta"), DueAt: a.OptStr("dueAt"), Tags: a.OptStrs("tags"), Labels: a.OptStrs("labels"),
		Kind: a.OptStr("kind"), ParentID: a.Link("parentId"), Starred: a.OptBool("starred"),
		Position: a.OptNum("position"), VaultLinks: a.OptStrs("vaultLinks"),
	}
	var given []string
	for _, k := range []string{"title", "summary", "status", "domain", "eta", "dueAt", "tags", "labels", "kind", "parentId", "starred", "position", "vaultLinks"} {
		if a.Has(k) {
			given = append(given, k)
		}
	}
	return p, given
}

func updateCase(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	opts := []mcp.ToolOption{
		mcp.WithDescription("Update one node (passed fields only). " + manualRule),
		required("id", "Node id."),
	}
	opts = append(opts, patchArgs(true)...)
	opts = append(opts, expectedArg(), mcptool.Destructive(mcptool.Idempotent))
	tool := mcp.NewTool("update_case", opts...)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		id := a.Str("id")
		p, given := casePatch(a)
		p.ExpectedVersion = a.Expected()
		if a.Err() != nil {
			return "", a.Err()
		}
		if len(given) == 0 {
			return "", errors.New("nothing to update: pass at least one field to change")
		}
		ans, err := c.PatchCase(ctx, id, p)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("Updated %s (%s): %s", ans.Case.ID, strings.Join(given, ", "), render.CaseListLine(&ans.Case)), nil
	})
}

func updateCases(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	patch := map[string]any{"type": "object", "description": "As ids' fields.", "additionalProperties": false, "properties": propertiesOf(patchArgs(false)...)}
	opts := []mcp.ToolOption{
		mcp.WithDescription("Change many nodes: ids with one change, or items with one each. " + manualRule),
		mcp.WithArray("ids", mcp.Description("Node ids."), mcp.WithStringItems(), mcp.MinItems(1)),
		itemsArg("Instead of ids: a change per node.", false, map[string]any{"id": prop("string", "Node id."), "patch": patch}, "id", "patch"),
	}
	opts = append(opts, patchArgs(false)...)
	opts = append(opts, expectedArg(), mcptool.Destructive(mcptool.Idempotent))
	tool := mcp.NewTool("update_cases", opts...)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		ids, items := a.Strs("ids"), a.Objects("items")
		p, given := casePatch(a)
		expected := a.Expected()
		if a.Err() != nil {
			return "", a.Err()
		}
		if a.Has("items") {
			if a.Has("ids") || len(given) > 0 || expected != nil {
				return "", errors.New("items carries each node's change: pass items alone, or ids with the fields to change")
			}
			return caseItems(ctx, c, items)
		}
		if len(given) == 0 {
			return "", errors.New("nothing to update: pass at least one field to change")
		}
		return batch(ctx, c, ids, p, expected, given)
	})
}

func regroupCases(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("regroup_cases",
		mcp.WithDescription("Move many nodes under one parent, all or nothing."),
		mcp.WithArray("ids", mcp.Required(), mcp.Description("Node ids."), mcp.WithStringItems(), mcp.MinItems(1)),
		mcp.WithString("parentId", mcp.Required(), mcptool.Nullable(), mcp.Description("New parent; null detaches.")),
		mcptool.Destructive(mcptool.Idempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		ids := a.Strs("ids")
		p := wire.CasePatch{ParentID: a.Link("parentId")}
		if a.Err() != nil {
			return "", a.Err()
		}
		return batch(ctx, c, ids, p, nil, []string{"parentId"})
	})
}

// batch validates every item of a batch before sending it as one all-or-
// nothing write, and reports per item either way.
func batch(ctx context.Context, c *client.Client, ids []string, p wire.CasePatch, expected *int64, given []string) (string, error) {
	all, err := c.Cases(ctx, client.CaseFilter{IncludeArchived: true})
	if err != nil {
		return "", err
	}
	byID := map[string]*wire.Case{}
	for i := range all {
		byID[all[i].ID] = &all[i]
	}
	general, err := batchGeneral(ctx, c, p, byID)
	if err != nil {
		return "", err
	}
	report, problems := batchItems(ids, p, byID)
	if len(ids) == 0 {
		return "", errors.New("ids is empty: pass the node ids to change")
	}
	if problems > 0 || len(general) > 0 {
		msg := "Nothing was changed. Per item:\n" + strings.Join(report, "\n")
		if len(general) > 0 {
			msg += "\nFor every item: " + strings.Join(general, "; ")
		}
		return "", errors.New(msg)
	}
	cases, _, err := c.PatchCases(ctx, wire.CaseBatch{IDs: ids, Patch: p, ExpectedVersion: expected})
	if err != nil {
		return "", fmt.Errorf("nothing was changed: %w", err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Updated %d %s (%s):\n", len(cases), pluralOf(len(cases), "node", "nodes"), strings.Join(given, ", "))
	for i := range cases {
		b.WriteString("- " + render.CaseListLine(&cases[i]) + "\n")
	}
	return strings.TrimRight(b.String(), "\n"), nil
}

// batchParent is the parent a batch moves its nodes under, or "" when it
// moves none (no parentId, or null to detach).
func batchParent(p wire.CasePatch) string {
	if p.ParentID.Set && !p.ParentID.Null {
		return p.ParentID.V
	}
	return ""
}

// batchGeneral lists what is wrong with the patch itself, whatever the
// item: label ids the catalog does not know, a parent that is missing or
// not a container.
func batchGeneral(ctx context.Context, c *client.Client, p wire.CasePatch, byID map[string]*wire.Case) ([]string, error) {
	var general []string
	if p.Labels.Set && len(p.Labels.V) > 0 {
		catalog, err := c.Labels(ctx)
		if err != nil {
			return nil, err
		}
		known := map[string]bool{}
		for _, l := range catalog {
			known[l.ID] = true
		}
		var unknown []string
		for _, l := range p.Labels.V {
			if !known[l] {
				unknown = append(unknown, l)
			}
		}
		if len(unknown) > 0 {
			general = append(general, fmt.Sprintf("unknown label id(s) %s: call list_labels for the valid ids", strings.Join(unknown, ", ")))
		}
	}
	if parent := batchParent(p); parent != "" {
		switch pc, ok := byID[parent]; {
		case !ok:
			general = append(general, fmt.Sprintf("parent %s not found", parent))
		case !pc.IsContainer():
			general = append(general, fmt.Sprintf("parent %s is a case, not a container", parent))
		}
	}
	return general, nil
}

// batchItems checks each id against the board and the patch and returns
// one report line per id and how many of them are problems.
func batchItems(ids []string, p wire.CasePatch, byID map[string]*wire.Case) (report []string, problems int) {
	parent := batchParent(p)
	seen := map[string]bool{}
	for _, id := range ids {
		cs, ok := byID[id]
		switch {
		case seen[id]:
			report = append(report, id+": listed twice")
			problems++
		case !ok:
			report = append(report, id+": not found")
			problems++
		case parent != "" && parent == id:
			report = append(report, id+": cannot be its own parent")
			problems++
		case parent != "" && cs.Kind == "initiative" && (!p.Kind.Set || p.Kind.V == "initiative"):
			report = append(report, id+": an initiative is always a root and cannot get a parent")
			problems++
		case parent != "" && byID[parent] != nil && byID[parent].Kind == "workstream" && cs.Kind != "case" && (!p.Kind.Set || p.Kind.V != "case"):
			report = append(report, fmt.Sprintf("%s: a workstream holds cases only, and %s is a %s", id, id, cs.Kind))
			problems++
		default:
			report = append(report, id+": ok")
		}
		seen[id] = true
	}
	return report, problems
}

func pluralOf(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func setParent(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("set_parent",
		mcp.WithDescription("Move one node under a new parent."),
		required("id", "Node id."),
		mcp.WithString("parentId", mcp.Required(), mcptool.Nullable(), mcp.Description("New parent; null detaches.")),
		mcptool.Destructive(mcptool.Idempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		id, parent := a.Str("id"), a.Link("parentId")
		if a.Err() != nil {
			return "", a.Err()
		}
		ans, err := c.PatchCase(ctx, id, wire.CasePatch{ParentID: parent})
		if err != nil {
			return "", err
		}
		if ans.Case.ParentID == "" {
			return "Detached (now top-level): " + render.CaseListLine(&ans.Case), nil
		}
		return "Moved under " + ans.Case.ParentID + ": " + render.CaseListLine(&ans.Case), nil
	})
}

func archiveCase(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("archive_case",
		mcp.WithDescription("Archive a node (soft delete); done work goes to the done lane."),
		required("id", "Node id."),
		mcptool.Destructive(mcptool.Idempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		id := a.Str("id")
		if a.Err() != nil {
			return "", a.Err()
		}
		ans, err := c.ArchiveCase(ctx, id)
		if err != nil {
			return "", err
		}
		return "Archived " + render.CaseListLine(&ans.Case), nil
	})
}

func restoreCase(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("restore_case",
		mcp.WithDescription("Restore an archived node (and relink it)."),
		required("id", "Node id."),
		mcptool.Additive(mcptool.Idempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		id := a.Str("id")
		if a.Err() != nil {
			return "", a.Err()
		}
		ans, err := c.RestoreCase(ctx, id)
		if err != nil {
			return "", err
		}
		return "Restored " + render.CaseListLine(&ans.Case), nil
	})
}

func deleteCase(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("delete_case",
		mcp.WithDescription("Delete a node for good (archive_case can be undone)."),
		required("id", "Node id."),
		mcptool.Destructive(mcptool.Idempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		id := a.Str("id")
		if a.Err() != nil {
			return "", a.Err()
		}
		if _, err := c.DeleteCase(ctx, id); err != nil {
			return "", err
		}
		return "Deleted " + id + " permanently.", nil
	})
}

func mergeCases(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("merge_cases",
		mcp.WithDescription("Merge a duplicate into the node to keep; the duplicate is archived."),
		required("sourceId", "The duplicate."),
		required("targetId", "The node to keep."),
		mcptool.Destructive(mcptool.NotIdempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		src, dst := a.Str("sourceId"), a.Str("targetId")
		if a.Err() != nil {
			return "", a.Err()
		}
		ans, err := c.MergeCase(ctx, src, dst)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("Merged %s into %s: %s", src, ans.Case.ID, render.CaseListLine(&ans.Case)), nil
	})
}

func getTree(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("get_tree",
		mcp.WithDescription("Outline of initiatives > workstreams > cases; call it before creating."),
		optional("rootId", "Only this subtree."),
		domainArg(""),
		mcp.WithBoolean("includeArchived", mcp.Description("Include archived.")),
		mcp.WithInteger("limit", mcp.Description("Most nodes."), mcp.Min(1), mcp.Max(5000)),
		mcptool.ReadOnly(),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		f := client.TreeFilter{RootID: a.Str("rootId"), Domain: a.Str("domain"), IncludeArchived: a.BoolOr("includeArchived", false)}
		limit := a.IntOr("limit", 200)
		if a.Err() != nil {
			return "", a.Err()
		}
		tree, err := c.Tree(ctx, f)
		if err != nil {
			return "", err
		}
		if f.RootID != "" && len(tree) == 0 {
			return fmt.Sprintf("%s is archived: pass includeArchived true to see its subtree.", f.RootID), nil
		}
		return render.Tree(tree, limit), nil
	})
}

func listInitiatives(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("list_initiatives",
		mcp.WithDescription("List the initiatives with rollups."),
		domainArg(""),
		mcptool.LimitArg(),
		mcptool.ReadOnly(),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		domain, limit := a.Str("domain"), a.IntOr("limit", 50)
		if a.Err() != nil {
			return "", a.Err()
		}
		tree, err := c.Tree(ctx, client.TreeFilter{Domain: domain})
		if err != nil {
			return "", err
		}
		var lines []string
		for _, n := range tree {
			if n.Kind == "initiative" && n.ArchivedAt == "" {
				lines = append(lines, fmt.Sprintf("%s - %s - %s - %s", n.ID, n.Title, n.Domain, render.RollupText(n.Rollup)))
			}
		}
		if len(lines) == 0 {
			return "No initiatives.", nil
		}
		out := strings.Join(lines[:min(limit, len(lines))], "\n")
		if m := render.More(min(limit, len(lines)), len(lines), "raise limit"); m != "" {
			out += "\n" + m
		}
		return out, nil
	})
}
