package tools

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/opsboard/opsboard/mcp-board/internal/render"
	"github.com/opsboard/opsboard/shared/client"
	"github.com/opsboard/opsboard/shared/mcptool"
	"github.com/opsboard/opsboard/shared/wire"
)

const (
	pageIDDesc  = "V-n, or its path as listed."
	aliasesDesc = "Other names."
	domainsDesc = "An organisation's mail domains."
)

func pageTypes() []string {
	var out []string
	for _, t := range wire.PageTypes() {
		out = append(out, string(t))
	}
	return out
}

func pageTypeArg(desc string, more ...mcp.PropertyOption) mcp.ToolOption {
	return mcp.WithString("type", described(desc, append(more, mcp.Enum(pageTypes()...))...)...)
}

func findEntity(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("find_entity",
		mcp.WithDescription("Who is this? The best vault page for an address, name or alias, why, and if ambiguous. Call before create_page and when mail names someone."),
		required("query", "Address, name, alias or From header."),
		pageTypeArg("Only this type."),
		mcptool.ReadOnly(),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		q, typ := a.Str("query"), wire.PageType(a.Str("type"))
		if a.Err() != nil {
			return "", a.Err()
		}
		if q == "" {
			return "", errors.New("query is empty: pass an address, a name or an alias")
		}
		e, err := resolveEntity(ctx, c, q, typ)
		if err != nil {
			return "", err
		}
		return render.FoundEntity(e), nil
	})
}

func getPage(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("get_page",
		mcp.WithDescription("Read a vault page: fields, linked cases and mail, body."),
		required("id", pageIDDesc),
		mcptool.ReadOnly(),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		id := a.Str("id")
		if a.Err() != nil {
			return "", a.Err()
		}
		r, err := c.Page(ctx, id)
		if err != nil {
			return "", err
		}
		return render.Page(r.Page), nil
	})
}

func listUnresolvedSenders(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("list_unresolved_senders",
		mcp.WithDescription("Senders of inbound mail that no vault page holds, most recent first, with the pages they might be."),
		mcptool.LimitArg(),
		mcptool.ReadOnly(),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		limit := a.IntOr("limit", 50)
		if a.Err() != nil {
			return "", a.Err()
		}
		u, err := c.UnresolvedSenders(ctx)
		if err != nil {
			return "", err
		}
		return render.UnresolvedSenders(u, limit), nil
	})
}

func createPage(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("create_page",
		mcp.WithDescription("Create a vault page for a person, organisation, project or topic. find_entity first; a page with the same title, alias or email answers instead."),
		required("title", "Also the file name."),
		pageTypeArg("Sets its folder.", mcp.Required()),
		stringsArg("aliases", aliasesDesc),
		stringsArg("emails", "Addresses."),
		stringsArg("domains", domainsDesc),
		optional("body", "Markdown."),
		optional("fromMessage", "The mail it is made from (M-n); unscreened mail makes a proposal instead."),
		mcptool.Additive(mcptool.Idempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		in := wire.PageCreate{
			Title: a.Str("title"), Type: wire.PageType(a.Str("type")), Aliases: a.Strs("aliases"),
			Emails: a.Strs("emails"), Domains: a.Strs("domains"), Body: a.Text("body"), FromMessage: a.Str("fromMessage"),
		}
		if a.Err() != nil {
			return "", a.Err()
		}
		ans, err := c.CreatePage(ctx, in)
		if err != nil {
			return "", err
		}
		switch {
		case ans.Proposal != nil:
			return fmt.Sprintf("Not created: %s was not screened clean, so the page is filed for the person's approval: %s", in.FromMessage, render.ProposalLine(*ans.Proposal)), nil
		case ans.Existing:
			ref := render.PageRef(&ans.Page.PageSummary)
			return fmt.Sprintf("Already existed, nothing created: %s\nIt holds the same title, an alias or an email; use update_page %s to change it.", render.PageLine(&ans.Page.PageSummary), ref), nil
		}
		return render.PageWrite("Created", &ans.Page.PageSummary, false, nil), nil
	})
}

// pagePatch reads update_page's fields, and the names of those given.
func pagePatch(a *mcptool.Args) (wire.PagePatch, []string) {
	p := wire.PagePatch{
		Title: a.OptStr("title"), Aliases: a.OptStrs("aliases"), Emails: a.OptStrs("emails"), Domains: a.OptStrs("domains"),
		Append: a.Text("append"), DryRun: a.BoolOr("dryRun", false),
	}
	if a.Has("body") {
		p.Body = wire.Some(a.Text("body")) // a body keeps its own spacing
	}
	var given []string
	for _, k := range []string{"title", "aliases", "emails", "domains", "body", "append"} {
		if a.Has(k) {
			given = append(given, k)
		}
	}
	return p, given
}

func updatePage(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("update_page",
		mcp.WithDescription("Change a vault page: append a dated timeline line, set fields (lists are replaced: get_page first), or rename it ([[links]] follow; dryRun first)."),
		required("id", pageIDDesc),
		optional("append", "One timeline line."),
		optional("title", "Renames the file."),
		stringsArg("aliases", aliasesDesc),
		stringsArg("emails", "Adding one resolves its past mail."),
		stringsArg("domains", domainsDesc),
		optional("body", "Whole Markdown body."),
		mcp.WithBoolean("dryRun", mcp.Description("List the files it would change; change nothing.")),
		mcptool.Destructive(mcptool.NotIdempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		id := a.Str("id")
		p, given := pagePatch(a)
		if a.Err() != nil {
			return "", a.Err()
		}
		if len(given) == 0 {
			return "", errors.New("nothing to update: pass append, title, aliases, emails, domains or body")
		}
		ans, err := c.PatchPage(ctx, id, p)
		if err != nil {
			return "", err
		}
		return render.PageWrite("Updated ("+strings.Join(given, ", ")+")", &ans.Page.PageSummary, p.DryRun, ans.Changes), nil
	})
}

func mergePages(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("merge_pages",
		mcp.WithDescription("Merge a duplicate vault page into the page to keep: its emails, aliases, domains, cases and mail move there, [[links]] follow, and it becomes a stub."),
		required("sourceId", "The duplicate."),
		required("intoId", "The page to keep."),
		mcp.WithBoolean("dryRun", mcp.Description("List the files it would change; change nothing.")),
		mcptool.Destructive(mcptool.NotIdempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		src, into, dry := a.Str("sourceId"), a.Str("intoId"), a.BoolOr("dryRun", false)
		if a.Err() != nil {
			return "", a.Err()
		}
		ans, err := c.MergePage(ctx, src, wire.PageMerge{IntoID: into, DryRun: dry})
		if err != nil {
			return "", err
		}
		kept := ans.Page
		if kept.MergedInto != "" && !dry { // the answer is the stub: show the page kept
			r, err := c.Page(ctx, kept.MergedInto)
			if err != nil {
				return "", err
			}
			kept = r.Page
		}
		return render.PageWrite("Merged "+src+" into", &kept.PageSummary, dry, ans.Changes), nil
	})
}

func linkPage(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("link_page",
		mcp.WithDescription("Link a case and a vault page both ways (the case's vaultLinks and the page's cases), or unlink them."),
		required("caseId", "Node id."),
		required("pageId", pageIDDesc),
		mcp.WithBoolean("remove", mcp.Description("Unlink instead.")),
		mcptool.Destructive(mcptool.Idempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		caseID, pageID, remove := a.Str("caseId"), a.Str("pageId"), a.BoolOr("remove", false)
		if a.Err() != nil {
			return "", a.Err()
		}
		return link(ctx, c, caseID, pageID, remove)
	})
}

// link adds the page to the case's vaultLinks or removes it, and lets the
// board keep the page's side. A path is read to its id first, so a link
// stored as the id is found again by the path it was made with.
func link(ctx context.Context, c *client.Client, caseID, pageID string, remove bool) (string, error) {
	d, err := c.Case(ctx, caseID)
	if err != nil {
		return "", err
	}
	ref, title := pageID, pageID
	if p, err := c.Page(ctx, pageID); err == nil {
		title = p.Page.Title
		if p.Page.ID != "" {
			ref = p.Page.ID
		}
	} else if remove || !client.NotFound(err) {
		return "", err
	}
	links := slices.Clone(d.Case.VaultLinks)
	has := slices.Contains(links, ref)
	switch {
	case remove && !has:
		return fmt.Sprintf("%s does not link %s; nothing changed. Its vault links: %s", d.Case.ID, ref, linkList(links)), nil
	case !remove && has:
		return fmt.Sprintf("%s already links %s (%s); nothing changed.", d.Case.ID, ref, title), nil
	case remove:
		links = slices.DeleteFunc(links, func(s string) bool { return s == ref })
	default:
		links = append(links, ref)
	}
	ans, err := c.PatchCase(ctx, d.Case.ID, wire.CasePatch{VaultLinks: wire.Some(append([]string{}, links...))})
	if err != nil {
		return "", err
	}
	verb := "Linked"
	if remove {
		verb = "Unlinked"
	}
	for _, l := range ans.Case.VaultLinks {
		if !remove && !slices.Contains(d.Case.VaultLinks, l) {
			ref = l // a path given is stored as the id the board minted
		}
	}
	return fmt.Sprintf("%s %s and %s (%s). %s vault links: %s", verb, ans.Case.ID, ref, title, ans.Case.ID, linkList(ans.Case.VaultLinks)), nil
}

func linkList(links []string) string {
	if len(links) == 0 {
		return "none"
	}
	return strings.Join(links, ", ")
}
