package api

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/opsboard/opsboard/board/internal/rules/pages"
	"github.com/opsboard/opsboard/shared/wire"
)

// linkPages turns each entry of a case's vaultLinks (a page id or path)
// into the page's id, minted and written into the page when it has none.
// An unknown or broken page is a 400 naming it. Without a vault the list
// stays as given: free text, as before the board had one.
func (a *API) linkPages(ctx context.Context, links []string) ([]string, error) {
	if a.vault == nil || links == nil {
		return links, nil
	}
	out := make([]string, 0, len(links))
	for _, l := range links {
		if l = strings.TrimSpace(l); l == "" {
			continue
		}
		id, err := a.vault.EnsureID(ctx, l)
		if err != nil {
			return nil, fmt.Errorf("field 'vaultLinks': %w", err)
		}
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out, nil
}

// linksOf are the pages the cases ids link to now, for the pages to sync
// after a write that changes or removes those links.
func linksOf(d *wire.Doc, ids ...string) []string {
	var out []string
	for _, c := range d.Cases.All() {
		if slices.Contains(ids, c.ID) {
			out = append(out, c.VaultLinks...)
		}
	}
	return out
}

// syncPages brings the cases of the pages ids (every page when none) in
// line with the store after a write. One sync runs at a time and each
// reads the store afresh, so a later one never writes an older state. A
// failure is logged, not answered: the write stands, and the store, the
// truth for these links, heals the pages at the next start.
func (a *API) syncPages(ctx context.Context, ids ...string) {
	if a.vault == nil || !a.vault.Ready() {
		return
	}
	a.syncMu.Lock()
	defer a.syncMu.Unlock()
	if err := a.vault.SyncCases(ctx, a.store.Snapshot(), ids...); err != nil {
		a.log.Warn("vault.sync", "pages", ids, "err", err)
	}
}

// syncChanged syncs the pages in before or after, when there are any: a
// case write whose links touched no page writes none.
func (a *API) syncChanged(ctx context.Context, before, after []string) {
	ids := append(slices.Clone(before), after...)
	slices.Sort(ids)
	if ids = slices.Compact(ids); len(ids) > 0 {
		a.syncPages(ctx, ids...)
	}
}

// entities resolves a new message to its pages before its write: the
// sender's person page, else its organisation's (for outbound mail, the
// recipients'). Mail that arrives while the vault loads is not resolved;
// attaching its address to a page later resolves it.
func (a *API) entities(ctx context.Context, in wire.MessageInput) []string {
	if a.vault == nil || !a.vaultReady(ctx) {
		return nil
	}
	return pages.Entities(in, a.vault)
}

// vaultLoadWait bounds how long a message create waits for the vault's
// first scan: it takes a fraction of a second at thousands of pages, and
// mail that comes in right after a start (an ingest run) should still
// resolve its sender.
const vaultLoadWait = 3 * time.Second

// vaultReady reports whether the vault's first scan has ended, waiting up
// to vaultLoadWait for it.
func (a *API) vaultReady(ctx context.Context) bool {
	if a.vault.Ready() {
		return true
	}
	ctx, cancel := context.WithTimeout(ctx, vaultLoadWait)
	defer cancel()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for !a.vault.Ready() {
		select {
		case <-ctx.Done():
			return false
		case <-tick.C:
		}
	}
	return true
}

// linkPatch resolves a patch's vaultLinks to page ids in place and answers
// the links the cases ids held before, for the sync after the write; a
// patch that leaves the links alone answers none.
func (a *API) linkPatch(ctx context.Context, links *wire.Opt[[]string], ids ...string) ([]string, error) {
	if !links.Set || a.vault == nil {
		return nil, nil
	}
	if !links.Null {
		resolved, err := a.linkPages(ctx, links.V)
		if err != nil {
			return nil, err
		}
		links.V = resolved
	}
	return linksOf(a.store.Snapshot(), ids...), nil
}

// proposalLinks turns page paths in a proposal's vaultLinks (at the top of
// its payload, or in a batch's patch or items) into page ids when it is
// filed, so an approved proposal stores ids as a direct write does. An
// unknown or broken page is refused now, in the words a direct write uses.
func (a *API) proposalLinks(ctx context.Context, payload json.RawMessage) (json.RawMessage, error) {
	if a.vault == nil || len(payload) == 0 {
		return payload, nil
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(payload, &top) != nil {
		return payload, nil // not an object: the proposal's own check names it
	}
	changed, err := a.objectLinks(ctx, top)
	if err != nil {
		return nil, err
	}
	if sub, ok, err := a.nestedLinks(ctx, top["patch"]); err != nil {
		return nil, err
	} else if ok {
		top["patch"], changed = sub, true
	}
	var items []json.RawMessage
	if json.Unmarshal(top["items"], &items) == nil && len(items) > 0 {
		itemsChanged := false
		for i, it := range items {
			var item map[string]json.RawMessage
			if json.Unmarshal(it, &item) != nil {
				continue
			}
			if sub, ok, err := a.nestedLinks(ctx, item["patch"]); err != nil {
				return nil, err
			} else if ok {
				item["patch"] = sub
				items[i], _ = json.Marshal(item)
				itemsChanged = true
			}
		}
		if itemsChanged {
			top["items"], _ = json.Marshal(items)
			changed = true
		}
	}
	if !changed {
		return payload, nil
	}
	return json.Marshal(top)
}

// nestedLinks is proposalLinks for an object nested in the payload.
func (a *API) nestedLinks(ctx context.Context, raw json.RawMessage) (json.RawMessage, bool, error) {
	var obj map[string]json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &obj) != nil {
		return raw, false, nil
	}
	changed, err := a.objectLinks(ctx, obj)
	if err != nil || !changed {
		return raw, false, err
	}
	out, err := json.Marshal(obj)
	return out, err == nil, err
}

// objectLinks resolves obj's vaultLinks in place; it reports whether they
// changed.
func (a *API) objectLinks(ctx context.Context, obj map[string]json.RawMessage) (bool, error) {
	var links []string
	if raw, ok := obj["vaultLinks"]; !ok || json.Unmarshal(raw, &links) != nil || len(links) == 0 {
		return false, nil
	}
	ids, err := a.linkPages(ctx, links)
	if err != nil || slices.Equal(ids, links) {
		return false, err
	}
	obj["vaultLinks"], _ = json.Marshal(ids)
	return true, nil
}
