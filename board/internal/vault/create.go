package vault

import (
	"context"
	"strings"

	"github.com/opsboard/opsboard/shared/vaultpage"
	"github.com/opsboard/opsboard/shared/wire"
)

// Create writes a new page in its type's folder, named from its title, with
// a fresh board id. When a page already answers to the title or an alias
// (case-insensitively), or holds one of the emails, Create writes nothing
// and returns that page with existing true: one person, one page. The new
// page's addresses resolve past mail to it.
func (v *Vault) Create(ctx context.Context, in wire.PageCreate) (wire.Page, bool, error) {
	in, err := cleanCreate(in)
	if err != nil {
		return wire.Page{}, false, err
	}
	if !v.Ready() {
		return wire.Page{}, false, errLoading
	}
	if rel := v.existing(in); rel != "" {
		p, err := v.Get(rel)
		return p, true, err
	}
	id, err := v.cfg.Board.Mint(ctx)
	if err != nil {
		return wire.Page{}, false, err
	}
	rel := vaultpage.Folder(in.Type) + "/" + vaultpage.FileName(in.Title)
	f := vaultpage.Fields{ID: id, Type: in.Type, Title: in.Title, Aliases: in.Aliases, Emails: in.Emails, Domains: in.Domains}
	data, err := render(nil, f, in.Body)
	if err != nil {
		return wire.Page{}, false, err
	}
	v.writeMu.Lock()
	// Checked again under the lock: a create just before this one may have
	// made the page (its minted id is then left unused).
	found := v.existing(in)
	if found == "" {
		err = v.place(rel, data)
		if err == nil {
			v.written(rel, data)
		}
	}
	v.writeMu.Unlock()
	if found != "" {
		p, err := v.Get(found)
		return p, true, err
	}
	if err != nil {
		return wire.Page{}, false, err
	}
	v.cfg.OnChange()
	if len(in.Emails)+len(in.Domains) > 0 {
		// The page is written either way; mail that stays unresolved shows
		// among the unresolved senders, so a failure here is only logged.
		if err := v.cfg.Board.Resolve(ctx, id, in.Emails, orgDomains(in.Type, in.Domains)); err != nil {
			v.cfg.Log.Warn("vault.resolve", "page", id, "err", err)
		}
	}
	p, err := v.Get(rel)
	return p, false, err
}

// cleanCreate checks a create's fields and returns them cleaned.
func cleanCreate(in wire.PageCreate) (wire.PageCreate, error) {
	in.Title = strings.TrimSpace(in.Title)
	if err := checkType(in.Type); err != nil {
		return in, err
	}
	if err := checkTitle(in.Title); err != nil {
		return in, err
	}
	var err error
	if in.Aliases, err = cleanAliases(in.Aliases); err != nil {
		return in, err
	}
	if in.Emails, err = cleanEmails(in.Emails); err != nil {
		return in, err
	}
	if in.Domains, err = cleanDomains(in.Domains); err != nil {
		return in, err
	}
	return in, nil
}

// existing is the path of a page a create would duplicate, or "".
func (v *Vault) existing(in wire.PageCreate) string {
	for _, name := range append([]string{in.Title}, in.Aliases...) {
		if p := v.owner(name, ""); p != "" {
			return p
		}
	}
	for _, m := range in.Emails {
		if p := v.emailOwner(m, ""); p != "" {
			return p
		}
	}
	return ""
}

// orgDomains is the domains that resolve mail: only an organisation's.
func orgDomains(t wire.PageType, domains []string) []string {
	if t != wire.PageOrganization {
		return nil
	}
	return domains
}
