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

// Guardrails repeated in descriptions, so each tool carries its own.
const (
	searchFirst = "Before creating, call search with several queries (the entity name and the topic) and get_tree: if a node matches, update it instead of duplicating, and restore an archived match and relink it rather than creating a new one."
	dedupeNote  = "An exact match (same normalized title, kind and parent) is answered with the existing node instead of a second one."
	manualRule  = "Do not revert the human's manual actions (get_case lists them first): when you disagree, add_note or propose instead."
)

func createCase(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("create_case",
		mcp.WithDescription("Create a case node (a leaf case by default; kind initiative or workstream for containers). "+searchFirst+" "+dedupeNote+" Call list_labels before passing labels."),
		required("title", "Title of the node."),
		kindArg(kindDesc+" Default case."),
		optional("parentId", "Parent node id: an initiative, or a workstream for a case. Omit for a top-level node."),
		laneArg("Kanban lane (default todo)."),
		domainArg(domainDesc+" Default work."),
		optional("summary", summaryDesc),
		stringsArg("tags", "Free-form tags."),
		labelsArg(),
		optional("eta", "Free-text ETA."),
		optional("dueAt", dueDesc),
		stringsArg("vaultLinks", "Links to vault entity pages."),
		mcp.WithArray("tasks", mcp.Description("Initial checklist."), objectItems(map[string]any{
			"title":  prop("string", "Task title."),
			"detail": prop("string", "Task detail."),
			"dueAt":  prop("string", dueDesc),
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
		Dedupe: true, // the agent's creates always deduplicate (tenet 5)
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
		mcp.WithDescription("Create an initiative: a root container for workstreams and cases. "+searchFirst+" "+dedupeNote),
		required("title", "Title of the initiative."),
		domainArg(domainDesc+" Default work."),
		optional("summary", summaryDesc),
		stringsArg("tags", "Free-form tags."),
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
		mcp.WithDescription("Create a workstream under an initiative; a workstream holds cases only. "+searchFirst+" "+dedupeNote),
		required("title", "Title of the workstream."),
		required("initiativeId", "The initiative it belongs to, e.g. CASE-3 (list_initiatives shows them)."),
		domainArg(domainDesc+" Default work."),
		optional("summary", summaryDesc),
		stringsArg("tags", "Free-form tags."),
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
		mcp.WithDescription("Read one node: the human's manual actions first (authoritative: never revert them), then kind, lane, parent, children, rollup for containers, tasks, notes, messages, events and reminders."),
		required("id", "Node id, e.g. CASE-12."),
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
		mcp.WithDescription("List case nodes, one per line, filtered. Archived nodes are left out unless includeArchived. For the hierarchy use get_tree; to find a node by words use search."),
		laneArg("Only this lane."),
		domainArg("Only this domain."),
		kindArg("Only this tier."),
		optional("parentId", "Only the children of this node."),
		optional("label", "Only nodes carrying this label id."),
		mcp.WithBoolean("starred", mcp.Description("true: only starred nodes; false: only unstarred.")),
		mcp.WithBoolean("includeArchived", mcp.Description("Also list archived nodes (default false).")),
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

// patchArgs are the fields update_case and update_cases share.
func patchArgs(withText bool) []mcp.ToolOption {
	opts := []mcp.ToolOption{
		laneArg("Move to this lane."),
		domainArg(domainDesc),
		kindArg(kindDesc + " Changing tier is checked against the hierarchy rules."),
		mcp.WithString("parentId", mcptool.Nullable(), mcp.Description("New parent id; null or \"\" detaches (leaf cases only: a workstream must keep an initiative).")),
		labelsArg(),
		stringsArg("tags", "Replaces the tags."),
		mcp.WithBoolean("starred", mcp.Description("Star (true) or unstar (false).")),
		optional("dueAt", dueDesc+" \"\" clears it."),
		optional("eta", "Free-text ETA; \"\" clears it."),
		mcp.WithNumber("position", mcp.Description("Manual order within the lane; smaller comes first.")),
	}
	if withText {
		opts = append(opts,
			optional("title", "New title."),
			optional("summary", summaryDesc+" \"\" clears it."),
			stringsArg("vaultLinks", "Replaces the vault links."),
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
		mcp.WithDescription("Update one node: only the fields you pass change. Moves lanes (status), edits fields, re-tiers (kind) or re-parents (parentId). " + manualRule + " Call list_labels before passing labels (labels replaces the list)."),
		required("id", "Node id, e.g. CASE-12."),
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
	opts := []mcp.ToolOption{
		mcp.WithDescription("Apply one change to many nodes at once (all or nothing): every id is checked first and the answer reports each one; if any id fails, nothing changes. " + manualRule + " Call list_labels before passing labels (labels replaces each node's list)."),
		mcp.WithArray("ids", mcp.Required(), mcp.Description("Node ids, e.g. [\"CASE-3\", \"CASE-4\"]."), mcp.WithStringItems(), mcp.MinItems(1)),
	}
	opts = append(opts, patchArgs(false)...)
	opts = append(opts, expectedArg(), mcptool.Destructive(mcptool.Idempotent))
	tool := mcp.NewTool("update_cases", opts...)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		ids := a.Strs("ids")
		p, given := casePatch(a)
		expected := a.Expected()
		if a.Err() != nil {
			return "", a.Err()
		}
		if len(given) == 0 {
			return "", errors.New("nothing to update: pass at least one field to change")
		}
		return batch(ctx, c, ids, p, expected, given)
	})
}

func regroupCases(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("regroup_cases",
		mcp.WithDescription("Move many nodes under one parent at once (all or nothing): every id is checked first and the answer reports each one. parentId null or \"\" detaches them (leaf cases only). Check get_tree first. "+manualRule),
		mcp.WithArray("ids", mcp.Required(), mcp.Description("Node ids to move."), mcp.WithStringItems(), mcp.MinItems(1)),
		mcp.WithString("parentId", mcp.Required(), mcptool.Nullable(), mcp.Description("New parent: an initiative, or a workstream for cases; null or \"\" detaches.")),
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
	var general []string
	if p.Labels.Set && len(p.Labels.V) > 0 {
		catalog, err := c.Labels(ctx)
		if err != nil {
			return "", err
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
	parent := ""
	if p.ParentID.Set && !p.ParentID.Null {
		parent = p.ParentID.V
		switch pc, ok := byID[parent]; {
		case !ok:
			general = append(general, fmt.Sprintf("parent %s not found", parent))
		case !pc.IsContainer():
			general = append(general, fmt.Sprintf("parent %s is a case, not a container", parent))
		}
	}
	seen := map[string]bool{}
	problems := 0
	var report []string
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

func pluralOf(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func setParent(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("set_parent",
		mcp.WithDescription("Move one node under a new parent, or detach it with parentId null or \"\" (detaching is for leaf cases only: a workstream must keep an initiative; convert it with update_case kind initiative first). "+manualRule),
		required("id", "Node id to move."),
		mcp.WithString("parentId", mcp.Required(), mcptool.Nullable(), mcp.Description("New parent: an initiative, or a workstream for a case; null or \"\" detaches.")),
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
		mcp.WithDescription("Archive a node to the Trash (soft delete, the default removal; restore_case brings it back). Archived is not done: to finish work, move it to the done lane with update_case. Children keep their parent."),
		required("id", "Node id, e.g. CASE-12."),
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
		mcp.WithDescription("Restore an archived node from the Trash. Do this (then relink) when search finds an archived match, instead of creating a new node."),
		required("id", "Node id, e.g. CASE-12."),
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
		mcp.WithDescription("Permanently delete a node (hard delete; it cannot be restored). Prefer archive_case. A container's children are detached; linked messages, events and reminders are unlinked, not deleted."),
		required("id", "Node id, e.g. CASE-12."),
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
		mcp.WithDescription("Merge a duplicate node into the one to keep: tasks, notes, messages, tags, labels, events and reminders move to the target, children are re-parented, and the source is archived as merged into the target."),
		required("sourceId", "The duplicate, e.g. CASE-14."),
		required("targetId", "The node to keep, e.g. CASE-12 (must not be archived)."),
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
		mcp.WithDescription("Indented outline of initiatives > workstreams > cases with rollups (cases and tasks done) and child counts. Call it (and search) before creating anything, to find where a new node belongs or that it already exists."),
		optional("rootId", "Only this node's subtree, e.g. CASE-3."),
		domainArg("Only roots of this domain."),
		mcp.WithBoolean("includeArchived", mcp.Description("Also show archived nodes (default false).")),
		mcp.WithInteger("limit", mcp.Description("Most nodes to show (default 200); the answer says how many more there are."), mcp.Min(1), mcp.Max(5000)),
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
		mcp.WithDescription("List the initiatives (the roots of the hierarchy) with their rollups; archived ones are left out. Use get_tree rootId for one initiative's outline."),
		domainArg("Only this domain."),
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
