package vault

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/shared/vaultpage"
	"github.com/opsboard/opsboard/shared/wire"
)

// EnsureID is the board id of the page idOrPath names, minted and written
// into the page when it has none: a case, a message or a merge is about to
// refer to it. An unknown page is a 400 naming it (the caller is checking a
// link), a broken one a 400 naming broken. A merged page's stub answers
// with the page it went into, as its links were moved there.
func (v *Vault) EnsureID(ctx context.Context, idOrPath string) (string, error) {
	e, err := v.find(idOrPath)
	// A hand edit can make stubs point at each other; a few hops end it.
	for hops := 0; err == nil && e.page.Fields.MergedInto != "" && hops < 8; hops++ {
		e, err = v.find(e.page.Fields.MergedInto)
	}
	if errs.IsNotFound(err) {
		return "", errs.BadRequest("unknown vault page %q: give a page id (V-<n>) or its path as GET /api/vault lists it", idOrPath)
	}
	if err != nil {
		return "", err
	}
	if err := writable(&e); err != nil {
		return "", err
	}
	if id := e.page.Fields.ID; id != "" {
		return id, nil
	}
	return v.mintFor(ctx, e.page.Path)
}

// mintFor gives the page at rel a board id and writes it. The id is minted
// before the vault's write lock is taken (Mint is a store write); when the
// page got an id in between, that one stands and the minted one is left
// unused, as ids are never reused anyway.
func (v *Vault) mintFor(ctx context.Context, rel string) (string, error) {
	id, err := v.cfg.Board.Mint(ctx)
	if err != nil {
		return "", err
	}
	got := ""
	v.writeMu.Lock()
	_, wrote, err := v.update(rel, func(p vaultpage.Page) (vaultpage.Fields, string, error) {
		f := p.Fields
		if f.ID == "" {
			f.ID = id
		}
		got = f.ID
		return f, p.Body, nil
	})
	v.writeMu.Unlock()
	if err != nil {
		return "", err
	}
	if wrote {
		v.cfg.OnChange()
	}
	return got, nil
}

// ByEmail is the person page holding addr, by its board id, minted when
// the page has none (a message is about to name it). It may call
// Board.Mint, so it must not be called from inside a store write.
func (v *Vault) ByEmail(addr string) (string, bool) {
	return v.byKey(strings.ToLower(strings.TrimSpace(addr)), func(d *derived) map[string]string { return d.byEmail })
}

// ByDomain is the organisation page holding domain; see ByEmail.
func (v *Vault) ByDomain(domain string) (string, bool) {
	return v.byKey(strings.ToLower(strings.TrimSpace(domain)), func(d *derived) map[string]string { return d.byDomain })
}

func (v *Vault) byKey(k string, in func(*derived) map[string]string) (string, bool) {
	if !v.Ready() || k == "" {
		return "", false
	}
	var rel, id string
	v.view(func(x *index, d *derived) {
		rel = in(d)[k]
		if rel != "" {
			id = x.pages[rel].page.Fields.ID
		}
	})
	if rel == "" {
		return "", false
	}
	if id != "" {
		return id, true
	}
	id, err := v.mintFor(context.Background(), rel)
	if err != nil {
		v.cfg.Log.Warn("vault.mint", "path", rel, "err", err)
		return "", false
	}
	return id, true
}

// SyncCases makes each page's `cases` the cases whose vaultLinks name it in
// d (every page with an id when ids is empty): the store is the truth, so
// a crash between a store write and a page write heals here. Only pages
// that differ are written; a broken page is logged and left alone.
func (v *Vault) SyncCases(ctx context.Context, d *wire.Doc, ids ...string) error {
	if !v.Ready() {
		return errLoading
	}
	want := linkedCases(d)
	type target struct{ id, rel string }
	var todo []target
	v.view(func(x *index, dv *derived) {
		if len(ids) == 0 {
			for _, e := range x.sorted {
				if e.page.Fields.ID != "" && dv.byID[e.page.Fields.ID] == e.page.Path {
					ids = append(ids, e.page.Fields.ID)
				}
			}
		}
		for _, id := range ids {
			rel, ok := dv.byID[id]
			if !ok {
				continue
			}
			e := x.pages[rel]
			if e.page.Broken == "" && !e.tooLarge && !sameSet(e.page.Fields.Cases, want[id]) {
				todo = append(todo, target{id, rel})
			}
		}
	})
	var problems []error
	changed := false
	for _, t := range todo {
		if err := ctx.Err(); err != nil {
			return err
		}
		v.writeMu.Lock()
		_, wrote, err := v.update(t.rel, func(p vaultpage.Page) (vaultpage.Fields, string, error) {
			f := p.Fields
			f.Cases = want[t.id]
			return f, p.Body, nil
		})
		v.writeMu.Unlock()
		if err != nil {
			v.cfg.Log.Warn("vault.cases", "page", t.id, "path", t.rel, "err", err)
			problems = append(problems, err)
		}
		changed = changed || wrote
	}
	if changed {
		v.cfg.OnChange()
	}
	return errors.Join(problems...)
}

// linkedCases maps each page id to the cases whose vaultLinks name it, in
// id order (CASE-2 before CASE-10).
func linkedCases(d *wire.Doc) map[string][]string {
	out := map[string][]string{}
	if d == nil {
		return out
	}
	for _, c := range d.Cases.All() {
		for _, id := range c.VaultLinks {
			if !slices.Contains(out[id], c.ID) {
				out[id] = append(out[id], c.ID)
			}
		}
	}
	for _, list := range out {
		slices.SortFunc(list, byNumber)
	}
	return out
}

// byNumber orders ids of one prefix by their number.
func byNumber(a, b string) int {
	pa, na := splitID(a)
	pb, nb := splitID(b)
	return cmp.Or(strings.Compare(pa, pb), cmp.Compare(na, nb), strings.Compare(a, b))
}

func splitID(s string) (string, int) {
	i := strings.LastIndexByte(s, '-')
	if i < 0 {
		return s, 0
	}
	n, err := strconv.Atoi(s[i+1:])
	if err != nil {
		return s, 0
	}
	return s[:i], n
}
