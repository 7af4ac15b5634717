package vault

import (
	"context"
	"strings"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/shared/vaultpage"
	"github.com/opsboard/opsboard/shared/wire"
)

// Merge folds the page idOrPath into m.IntoID: its emails, aliases (its
// title among them), domains and cases go to the target, cases and
// messages naming it are relinked to the target, [[links]] to it across
// the vault are rewritten, and it becomes a stub with mergedInto. Its
// body stays in the stub: the board never drops what the person wrote.
func (v *Vault) Merge(ctx context.Context, idOrPath string, m wire.PageMerge) (wire.Page, []string, error) {
	src, dst, err := v.mergePair(idOrPath, m.IntoID)
	if err != nil {
		return wire.Page{}, nil, err
	}
	if m.DryRun {
		files := append([]string{dst.page.Path, src.page.Path}, v.linking(src.page.Title, src.page.Path)...)
		page, err := v.Get(dst.page.Path)
		return page, union(nil, files), err
	}
	srcID, err := v.idOf(ctx, src)
	if err != nil {
		return wire.Page{}, nil, err
	}
	dstID, err := v.idOf(ctx, dst)
	if err != nil {
		return wire.Page{}, nil, err
	}
	// The store first: when it refuses, no file has changed. A crash after
	// it leaves the files behind the store, and start-up's SyncCases
	// brings `cases` back in line.
	if err := v.cfg.Board.Relink(ctx, srcID, dstID); err != nil {
		return wire.Page{}, nil, err
	}
	v.writeMu.Lock()
	changed, err := v.applyMerge(src, dst, dstID)
	v.writeMu.Unlock()
	if len(changed) > 0 {
		v.cfg.OnChange()
	}
	if err != nil {
		return wire.Page{}, changed, err
	}
	page, err := v.Get(dstID)
	return page, changed, err
}

// mergePair finds and checks the two pages of a merge.
func (v *Vault) mergePair(idOrPath, intoID string) (src, dst entry, err error) {
	if src, err = v.find(idOrPath); err != nil {
		return src, dst, err
	}
	if strings.TrimSpace(intoID) == "" {
		return src, dst, errs.BadRequest("field 'intoId' is required: the page to merge into")
	}
	if dst, err = v.find(intoID); errs.IsNotFound(err) {
		return src, dst, errs.BadRequest("field 'intoId': unknown vault page %q", intoID)
	} else if err != nil {
		return src, dst, err
	}
	switch {
	case src.page.Path == dst.page.Path:
		return src, dst, errs.BadRequest("field 'intoId': a page cannot merge into itself")
	case dst.page.Fields.MergedInto != "":
		return src, dst, errs.BadRequest("field 'intoId': page %s was merged into %s; merge into that one", intoID, dst.page.Fields.MergedInto)
	case src.page.Fields.MergedInto != "":
		return src, dst, errs.BadRequest("page %s was already merged into %s", idOrPath, src.page.Fields.MergedInto)
	}
	if err := writable(&src); err != nil {
		return src, dst, err
	}
	return src, dst, writable(&dst)
}

// idOf is the page's board id, minted when it has none.
func (v *Vault) idOf(ctx context.Context, e entry) (string, error) {
	if id := e.page.Fields.ID; id != "" {
		return id, nil
	}
	return v.mintFor(ctx, e.page.Path)
}

// applyMerge writes the target, then the stub, then the rewritten links:
// the source's addresses are on the target before they leave the source.
// The caller holds writeMu.
func (v *Vault) applyMerge(src, dst entry, dstID string) ([]string, error) {
	// The source is read again: a hand edit since the checks above is what
	// gets folded.
	cur, _, err := v.readFile(src.page.Path)
	if err != nil {
		return nil, v.missing(src.page.Path, err)
	}
	if err := writable(cur); err != nil {
		return nil, err
	}
	from := cur.page.Fields
	from.Aliases = union(from.Aliases, []string{cur.page.Title})
	var changed []string
	_, wrote, err := v.update(dst.page.Path, fold(from))
	if err != nil {
		return nil, err
	}
	if wrote {
		changed = append(changed, dst.page.Path)
	}
	_, wrote, err = v.update(src.page.Path, func(p vaultpage.Page) (vaultpage.Fields, string, error) {
		f := p.Fields
		return vaultpage.Fields{ID: f.ID, OwnID: f.OwnID, Type: f.Type, Title: f.Title, MergedInto: dstID}, p.Body, nil
	})
	if err != nil {
		return changed, err
	}
	if wrote {
		changed = append(changed, src.page.Path)
	}
	more, err := v.rewriteLinks(src.page.Title, dst.page.Title, src.page.Path)
	return union(changed, more), err
}

// fold adds from's emails, domains, cases and aliases to a page.
func fold(from vaultpage.Fields) edit {
	return func(p vaultpage.Page) (vaultpage.Fields, string, error) {
		f := p.Fields
		f.Emails = union(f.Emails, from.Emails)
		f.Domains = union(f.Domains, from.Domains)
		f.Cases = union(f.Cases, from.Cases)
		for _, a := range from.Aliases {
			if !strings.EqualFold(a, p.Title) && !containsFold(f.Aliases, a) {
				f.Aliases = append(f.Aliases, a)
			}
		}
		return f, p.Body, nil
	}
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
