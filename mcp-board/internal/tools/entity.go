package tools

import (
	"context"
	"fmt"
	"net/mail"
	"slices"
	"sort"
	"strings"

	"github.com/opsboard/opsboard/mcp-board/internal/render"
	"github.com/opsboard/opsboard/shared/client"
	"github.com/opsboard/opsboard/shared/wire"
)

// How well a page matches what find_entity was given, best first. An
// address on a person page names one person; a title or alias names one
// page unless two share it; an organisation's domain is only where the
// person works; a part of a title is a guess.
const (
	rankEmail = iota
	rankTitle
	rankAlias
	rankDomain
	rankPartial
	rankListed
)

// Bounds of one find_entity call: the pages asked of the board per term,
// the equally good pages read whole to follow merges, and the hops of a
// chain of merged stubs.
const (
	entityListLimit = 100
	entityReads     = 5
	entityHops      = 3
)

// entityQuery is what find_entity was given, taken apart: a bare address,
// a name, or a mail header's "Name <address>" (both).
type entityQuery struct {
	raw, name, address, domain string
}

func parseEntityQuery(q string) entityQuery {
	q = strings.TrimSpace(q)
	e := entityQuery{raw: q}
	if a, err := mail.ParseAddress(q); err == nil {
		e.name, e.address = strings.TrimSpace(a.Name), strings.ToLower(a.Address)
	} else if strings.Contains(q, "@") && !strings.ContainsAny(q, " \t") {
		e.address = strings.ToLower(q)
	} else {
		e.name = q
	}
	if at := strings.LastIndex(e.address, "@"); at >= 0 {
		e.domain = e.address[at+1:]
	} else if e.name != "" && !strings.ContainsAny(e.name, " \t") && strings.Contains(e.name, ".") {
		e.domain = strings.ToLower(e.name) // a bare domain names an organisation
	}
	return e
}

// terms are the q values asked of the board's page list.
func (e entityQuery) terms() []string {
	var out []string
	for _, t := range []string{e.address, e.domain, e.name} {
		if t != "" && !contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if strings.EqualFold(v, s) {
			return true
		}
	}
	return false
}

// entityRank says how p matches e, and why in the board's words.
func entityRank(e entityQuery, p *wire.PageSummary) (int, string) {
	name := strings.ToLower(e.name)
	switch {
	case e.address != "" && contains(p.Emails, e.address):
		return rankEmail, "its emails hold " + e.address
	case name != "" && strings.EqualFold(p.Title, e.name):
		return rankTitle, fmt.Sprintf("its title is %q", p.Title)
	case name != "" && contains(p.Aliases, e.name):
		return rankAlias, fmt.Sprintf("it has the alias %q", p.Aliases[slices.IndexFunc(p.Aliases, func(a string) bool { return strings.EqualFold(a, e.name) })])
	case e.domain != "" && contains(p.Domains, e.domain):
		return rankDomain, "its domains hold " + e.domain
	case name != "" && strings.Contains(strings.ToLower(p.Title), name):
		return rankPartial, fmt.Sprintf("its title %q contains %q", p.Title, e.name)
	}
	for _, f := range []struct {
		what string
		list []string
	}{{"alias", p.Aliases}, {"email", p.Emails}} {
		for _, v := range f.list {
			if name != "" && strings.Contains(strings.ToLower(v), name) {
				return rankPartial, fmt.Sprintf("its %s %q contains %q", f.what, v, e.name)
			}
		}
	}
	return rankListed, "the vault's page search matched " + fmt.Sprintf("%q", e.raw)
}

// ranked is a page with how well it matched.
type ranked struct {
	render.EntityChoice
	rank int
}

// rankPages orders the pages by how well they match, then by title, each
// page once.
func rankPages(e entityQuery, pages []wire.PageSummary) []ranked {
	seen := map[string]bool{}
	var out []ranked
	for _, p := range pages {
		if seen[p.Path] {
			continue
		}
		seen[p.Path] = true
		r, why := entityRank(e, &p)
		out = append(out, ranked{render.EntityChoice{Page: p, Reason: why}, r})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].rank != out[j].rank {
			return out[i].rank < out[j].rank
		}
		return strings.ToLower(out[i].Page.Title) < strings.ToLower(out[j].Page.Title)
	})
	return out
}

// resolveEntity asks the board's page list for each term of q, ranks what
// comes back, and reads the best pages whole, following merged stubs to
// the page they went into, so two names of one person are not ambiguous.
func resolveEntity(ctx context.Context, c *client.Client, q string, typ wire.PageType) (render.Entity, error) {
	e := parseEntityQuery(q)
	var pages []wire.PageSummary
	for _, term := range e.terms() {
		l, err := c.Pages(ctx, client.PageFilter{Type: typ, Q: term, Limit: entityListLimit})
		if err != nil {
			return render.Entity{}, err
		}
		pages = append(pages, l.Pages...)
	}
	out := render.Entity{Query: e.raw}
	all := rankPages(e, pages)
	if len(all) == 0 {
		return out, nil
	}
	best := all[0].rank
	var top []ranked
	for _, r := range all {
		if r.rank == best {
			top = append(top, r)
		} else {
			out.Weaker = append(out.Weaker, r.EntityChoice)
		}
	}
	read := map[string]bool{} // paths of the pages already chosen
	for i, r := range top {
		if i >= entityReads {
			out.Others = append(out.Others, r.EntityChoice)
			continue
		}
		p, via, err := followMerges(ctx, c, render.PageRef(&r.Page))
		if err != nil {
			return render.Entity{}, err
		}
		switch {
		case read[p.Path]:
			// a stub and the page it went into: one page
		case out.Page == nil:
			out.Page, out.Reason, out.Via = &p, r.Reason, via
		default:
			out.Others = append(out.Others, render.EntityChoice{Page: p.PageSummary, Reason: r.Reason})
		}
		read[p.Path] = true
	}
	return out, nil
}

// followMerges reads a page and, when it is a merged stub, the page it was
// merged into (a few hops at most); via is the first stub's ref.
func followMerges(ctx context.Context, c *client.Client, ref string) (wire.Page, string, error) {
	var via string
	for hop := 0; ; hop++ {
		r, err := c.Page(ctx, ref)
		if err != nil {
			return wire.Page{}, "", err
		}
		if r.Page.MergedInto == "" || hop == entityHops {
			return r.Page, via, nil
		}
		if via == "" {
			via = render.PageRef(&r.Page.PageSummary)
		}
		ref = r.Page.MergedInto
	}
}
