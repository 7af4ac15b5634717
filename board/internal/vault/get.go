package vault

import (
	"maps"
	"slices"
	"strings"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/shared/wire"
)

// Get is one page whole: its summary, frontmatter, body, the body as HTML
// and what links to it. idOrPath is a V-<n> id or a path as listed; a path
// that leaves the vault finds nothing and reads nothing.
func (v *Vault) Get(idOrPath string) (wire.Page, error) {
	if !v.Ready() {
		return wire.Page{}, errLoading
	}
	var (
		e      *entry
		found  bool
		linked []string
		html   string
	)
	v.view(func(x *index, d *derived) {
		e, found = x.lookup(d, idOrPath)
		if !found {
			return
		}
		linked = pageBacklinks(d, e)
		if !e.tooLarge { // the resolver reads the index, so it renders under the lock
			html = toHTML(e.page.Body, resolver(x, d))
		}
	})
	if !found {
		return wire.Page{}, errs.NotFound("no vault page %s", idOrPath)
	}
	if e.tooLarge {
		return wire.Page{}, errs.TooLarge("page %s is over %d MiB; the board does not read it", e.page.Path, wire.MaxPageBytes>>20)
	}
	p := wire.Page{
		PageSummary: summary(e),
		MergedInto:  e.page.Fields.MergedInto,
		Frontmatter: maps.Clone(e.page.Front), // the index's copy stays the index's
		Body:        e.page.Body,
		HTML:        html,
		Backlinks:   wire.PageBacklinks{Cases: []string{}, Messages: []string{}, Pages: linked},
	}
	if p.Frontmatter == nil {
		p.Frontmatter = map[string]any{}
	}
	if id := e.page.Fields.ID; id != "" {
		p.Backlinks.Cases, p.Backlinks.Messages = boardBacklinks(v.cfg.Board.Snapshot(), id)
	}
	return p, nil
}

// pageBacklinks is the paths of the other pages whose body links e by its
// title, an alias, or its path without .md (Obsidian writes all three).
func pageBacklinks(d *derived, e *entry) []string {
	names := []string{strings.ToLower(e.page.Title), strings.ToLower(strings.TrimSuffix(e.page.Path, ".md"))}
	for _, a := range e.page.Fields.Aliases {
		names = append(names, strings.ToLower(a))
	}
	out := []string{}
	for _, n := range names {
		for _, p := range d.linkedBy[n] {
			if p != e.page.Path && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	slices.Sort(out)
	return out
}

// boardBacklinks is the cases whose vaultLinks name id, and the newest
// messages whose entities do.
func boardBacklinks(doc *wire.Doc, id string) (cases, messages []string) {
	cases, messages = []string{}, []string{}
	if doc == nil {
		return cases, messages
	}
	for _, c := range doc.Cases.All() {
		if slices.Contains(c.VaultLinks, id) {
			cases = append(cases, c.ID)
		}
	}
	var ms []*wire.Message
	for _, m := range doc.Messages.All() {
		if slices.Contains(m.Entities, id) {
			ms = append(ms, m)
		}
	}
	slices.SortStableFunc(ms, func(a, b *wire.Message) int { return strings.Compare(b.ReceivedAt, a.ReceivedAt) })
	for _, m := range ms[:min(len(ms), wire.MaxPageMessages)] {
		messages = append(messages, m.ID)
	}
	return cases, messages
}

// resolver maps a [[target]] to the page address it links to ("" when no
// page answers to it): by title or alias, or by path without .md.
func resolver(x *index, d *derived) func(string) string {
	return func(target string) string {
		t := strings.ToLower(target)
		p, ok := d.byName[t]
		if !ok {
			if _, ok := x.pages[target+".md"]; ok {
				p = target + ".md"
			}
		}
		if p == "" {
			return ""
		}
		if id := x.pages[p].page.Fields.ID; id != "" {
			return id
		}
		return p
	}
}

// Body is a page's Markdown body as the index holds it. Search reads every
// page's body and needs neither its HTML nor its backlinks, which Get
// builds from the whole board.
func (v *Vault) Body(idOrPath string) (string, error) {
	if !v.Ready() {
		return "", errLoading
	}
	var (
		e     *entry
		found bool
	)
	v.view(func(x *index, d *derived) { e, found = x.lookup(d, idOrPath) })
	switch {
	case !found:
		return "", errs.NotFound("no vault page %s", idOrPath)
	case e.tooLarge:
		return "", errs.TooLarge("page %s is over %d MiB; the board does not read it", e.page.Path, wire.MaxPageBytes>>20)
	}
	return e.page.Body, nil
}
