package vault

import (
	"context"
	"path"
	"slices"
	"strings"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/shared/vaultpage"
	"github.com/opsboard/opsboard/shared/wire"
)

// patch is a checked PagePatch with what it means for the files.
type patch struct {
	wire.PagePatch
	rel, newRel        string // newRel != rel: a rename
	oldTitle, newTitle string
	newEmails, newDoms []string // addresses the page did not hold: their past mail resolves to it
}

// Patch changes a page's fields or body, renames it when the title
// changes (its file, and [[Old title]] links in other pages), and resolves
// past mail from addresses it gains. It returns the page and the files it
// changed (with DryRun, would change; nothing is written).
func (v *Vault) Patch(ctx context.Context, idOrPath string, p wire.PagePatch) (wire.Page, []string, error) {
	e, err := v.find(idOrPath)
	if err != nil {
		return wire.Page{}, nil, err
	}
	e = v.current(e)
	if err := writable(&e); err != nil {
		return wire.Page{}, nil, err
	}
	pt, err := v.checkPatch(e, p)
	if err != nil {
		return wire.Page{}, nil, err
	}
	word, err := v.personsWord(e, pt)
	if err != nil {
		return wire.Page{}, nil, err
	}
	if p.DryRun {
		page, err := v.Get(e.page.Path)
		return page, v.patchFiles(pt), err
	}
	id := e.page.Fields.ID
	if id == "" && len(pt.newEmails)+len(pt.newDoms) > 0 {
		if id, err = v.mintFor(ctx, e.page.Path); err != nil {
			return wire.Page{}, nil, err
		}
	}
	v.writeMu.Lock()
	changed, err := v.applyPatch(pt)
	v.writeMu.Unlock()
	if len(changed) > 0 {
		v.cfg.OnChange()
	}
	if err != nil {
		return wire.Page{}, changed, err
	}
	if err := v.keepWord(ctx, word, pt, e.page); err != nil {
		return wire.Page{}, changed, err
	}
	if len(pt.newEmails)+len(pt.newDoms) > 0 {
		if err := v.cfg.Board.Resolve(ctx, id, pt.newEmails, pt.newDoms); err != nil {
			return wire.Page{}, changed, err
		}
	}
	page, err := v.Get(pt.newRel)
	return page, changed, err
}

// checkPatch checks p against the page e and the rest of the vault.
func (v *Vault) checkPatch(e entry, p wire.PagePatch) (patch, error) {
	f := e.page.Fields
	pt := patch{PagePatch: p, rel: e.page.Path, newRel: e.page.Path, oldTitle: e.page.Title, newTitle: e.page.Title}
	var err error
	if p.Title.Set {
		t := strings.TrimSpace(p.Title.V)
		if err := checkTitle(t); err != nil {
			return pt, err
		}
		if other := v.owner(t, e.page.Path); other != "" {
			return pt, errs.BadRequest("field 'title': page %s is already called %q; merge the two pages instead", other, t)
		}
		pt.Title.V, pt.newTitle = t, t
		pt.newRel = path.Join(path.Dir(e.page.Path), vaultpage.FileName(t))
		if pt.newRel != pt.rel && !strings.EqualFold(pt.newRel, pt.rel) && v.onDisk(pt.newRel) {
			return pt, errs.BadRequest("field 'title': a file %s is already in the vault", pt.newRel)
		}
	}
	if p.Aliases.Set {
		if pt.Aliases.V, err = cleanAliases(p.Aliases.V); err != nil {
			return pt, err
		}
		for _, a := range pt.Aliases.V {
			if other := v.owner(a, e.page.Path); other != "" {
				return pt, errs.BadRequest("field 'aliases': page %s already answers to %q", other, a)
			}
		}
	}
	if p.Emails.Set {
		if pt.Emails.V, err = cleanEmails(p.Emails.V); err != nil {
			return pt, err
		}
		for _, m := range pt.Emails.V {
			if other := v.emailOwner(m, e.page.Path); other != "" {
				return pt, errs.BadRequest("field 'emails': %s is already on page %s", m, other)
			}
			if !slices.Contains(f.Emails, m) {
				pt.newEmails = append(pt.newEmails, m)
			}
		}
	}
	if p.Domains.Set {
		if pt.Domains.V, err = cleanDomains(p.Domains.V); err != nil {
			return pt, err
		}
		for _, d := range orgDomains(f.Type, pt.Domains.V) {
			if !slices.Contains(f.Domains, d) {
				pt.newDoms = append(pt.newDoms, d)
			}
		}
	}
	return pt, nil
}

// edit is the patch as an edit of the page's fields and body.
func (pt patch) edit(today string) edit {
	return func(p vaultpage.Page) (vaultpage.Fields, string, error) {
		f, body := p.Fields, p.Body
		if pt.Title.Set && f.Title != "" { // a page titled by its file name stays so
			f.Title = pt.newTitle
		}
		if pt.Aliases.Set {
			f.Aliases = pt.Aliases.V
		}
		if pt.Emails.Set {
			f.Emails = pt.Emails.V
		}
		if pt.Domains.Set {
			f.Domains = pt.Domains.V
		}
		if pt.Body.Set {
			body = pt.Body.V
		}
		if a := strings.TrimSpace(pt.Append); a != "" {
			body = vaultpage.AppendTimeline(body, today+" "+a)
		}
		return f, body, nil
	}
}

// applyPatch writes the patch: the page, then its rename and the links the
// rename rewrites. The caller holds writeMu.
func (v *Vault) applyPatch(pt patch) ([]string, error) {
	var changed []string
	_, wrote, err := v.update(pt.rel, pt.edit(v.cfg.Now().Format("2006-01-02")))
	if err != nil {
		return nil, err
	}
	if wrote {
		changed = append(changed, pt.rel)
	}
	if pt.newRel == pt.rel {
		return changed, nil
	}
	if err := v.move(pt.rel, pt.newRel); err != nil {
		return changed, err
	}
	changed = union(changed, []string{pt.rel, pt.newRel})
	more, err := v.rewriteLinks(pt.oldTitle, pt.newTitle, pt.newRel)
	return append(changed, more...), err
}

// patchFiles is the files the patch would change, for a dry run.
func (v *Vault) patchFiles(pt patch) []string {
	files := []string{}
	if pt.Title.Set || pt.Aliases.Set || pt.Emails.Set || pt.Domains.Set || pt.Body.Set || strings.TrimSpace(pt.Append) != "" {
		files = append(files, pt.rel)
	}
	if pt.newRel != pt.rel {
		files = union(files, []string{pt.rel, pt.newRel})
		files = append(files, v.linking(pt.oldTitle, pt.newRel)...)
	}
	return files
}
