package vault

import (
	"slices"
	"strings"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/shared/vaultpage"
	"github.com/opsboard/opsboard/shared/wire"
)

// Checks of a write's input. Each answers a 400 naming the field, before
// anything is read from or written to disk.

func checkType(t wire.PageType) error {
	if !slices.Contains(wire.PageTypes(), t) {
		return errs.BadRequest("field 'type' must be one of person, organization, project, topic, not %q", t)
	}
	return nil
}

func checkTitle(title string) error {
	if err := vaultpage.CheckTitle(title); err != nil {
		return errs.BadRequest("field 'title': %v", err)
	}
	return nil
}

// cleanAliases trims aliases and drops empty and repeated ones; an alias
// is linked like a title ([[Alias]]), so it obeys the same rules.
func cleanAliases(in []string) ([]string, error) {
	var out []string
	for _, a := range in {
		a = strings.TrimSpace(a)
		if a == "" || slices.ContainsFunc(out, func(s string) bool { return strings.EqualFold(s, a) }) {
			continue
		}
		if err := vaultpage.CheckTitle(a); err != nil {
			return nil, errs.BadRequest("field 'aliases': %q: %v", a, err)
		}
		out = append(out, a)
	}
	return out, nil
}

// cleanEmails lower-cases addresses, as they are compared, and drops
// repeats.
func cleanEmails(in []string) ([]string, error) {
	var out []string
	for _, m := range in {
		m = strings.ToLower(strings.TrimSpace(m))
		if err := vaultpage.CheckEmail(m); err != nil {
			return nil, errs.BadRequest("field 'emails': %q is not an email address: %v", m, err)
		}
		if !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	return out, nil
}

// cleanDomains lower-cases domains and takes "@example.com" for
// "example.com".
func cleanDomains(in []string) ([]string, error) {
	var out []string
	for _, d := range in {
		d = strings.TrimPrefix(strings.ToLower(strings.TrimSpace(d)), "@")
		if d == "" || !strings.Contains(d, ".") || vaultpage.CheckEmail("x@"+d) != nil {
			return nil, errs.BadRequest("field 'domains': %q is not a mail domain (e.g. example.com)", d)
		}
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out, nil
}

// union is a followed by the items of b it lacks (compared as given).
func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// sameSet reports whether a and b hold the same items, in any order.
func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(slices.Compact(a), slices.Compact(b))
}

// find is the page idOrPath names, as a copy of its index entry.
func (v *Vault) find(idOrPath string) (entry, error) {
	if !v.Ready() {
		return entry{}, errLoading
	}
	var e *entry
	var ok bool
	v.view(func(x *index, d *derived) { e, ok = x.lookup(d, idOrPath) })
	if !ok {
		return entry{}, errs.NotFound("no vault page %s", idOrPath)
	}
	return *e, nil
}

// owner is the page other than self that holds the name (a title or an
// alias), or "".
func (v *Vault) owner(name, self string) string {
	var p string
	v.view(func(_ *index, d *derived) { p = d.byName[strings.ToLower(name)] })
	if p == self {
		return ""
	}
	return p
}

// emailOwner is the page other than self that lists address, of any type,
// or "".
func (v *Vault) emailOwner(address, self string) string {
	var p string
	v.view(func(_ *index, d *derived) {
		for _, e := range d.sorted {
			if e.page.Path != self && e.page.Fields.MergedInto == "" && slices.Contains(e.page.Fields.Emails, address) {
				p = e.page.Path
				return
			}
		}
	})
	return p
}
