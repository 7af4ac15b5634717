// Package pages is the store's side of the vault: the page ids (V-<n>)
// that cases' vaultLinks and messages' entities hold, minted from the
// store's id counter so none is ever reused; relinking them when pages
// merge; resolving mail to pages; and listing the senders no page names.
// The vault folder itself belongs to package vault; these rules never
// touch it.
package pages

import (
	"context"
	"slices"
	"strings"

	"github.com/opsboard/opsboard/board/internal/rules/activity"
	"github.com/opsboard/opsboard/board/internal/rules/correspondents"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// Prefix is the id counter of vault pages: V-1, V-2, ...
const Prefix = "V"

// MintTx takes the next page id from the store's counter.
func MintTx(tx *store.Tx) string { return tx.NextID(Prefix) }

// RelinkTx replaces the page id from by to in every case's vaultLinks
// (logging the change on the case) and every message's entities, keeping
// each list free of repeats. It answers how many records changed.
func RelinkTx(tx *store.Tx, from, to string) int {
	n := 0
	for _, c := range tx.Doc().Cases.All() {
		if !slices.Contains(c.VaultLinks, from) {
			continue
		}
		cp, _ := tx.Cases().Get(c.ID)
		cp.VaultLinks = replaced(cp.VaultLinks, from, to)
		cp.UpdatedAt = tx.Stamp()
		activity.Log(cp, tx.Actor(), wire.VerbVaultLinksChanged, from+" -> "+to, tx.Stamp())
		tx.Cases().Put(cp)
		n++
	}
	for _, m := range tx.Doc().Messages.All() {
		if !slices.Contains(m.Entities, from) {
			continue
		}
		cp, _ := tx.Messages().Get(m.ID)
		cp.Entities = replaced(cp.Entities, from, to)
		tx.Messages().Put(cp)
		n++
	}
	return n
}

// replaced is list with from swapped for to, to appearing once.
func replaced(list []string, from, to string) []string {
	out := make([]string, 0, len(list))
	for _, s := range list {
		if s == from {
			s = to
		}
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// ResolveTx adds id to the entities of past inbound messages sent from one
// of emails, or (an organisation's page) from an address at one of
// domains. Both lists compare lower-cased. It answers how many messages
// changed.
func ResolveTx(tx *store.Tx, id string, emails, domains []string) int {
	n := 0
	for _, m := range tx.Doc().Messages.All() {
		if !resolves(m, id, emails, domains) {
			continue
		}
		cp, _ := tx.Messages().Get(m.ID)
		cp.Entities = append(cp.Entities, id)
		tx.Messages().Put(cp)
		n++
	}
	return n
}

// resolves says whether m is inbound mail from one of emails or domains
// that does not name id yet.
func resolves(m *wire.Message, id string, emails, domains []string) bool {
	if m.Outbound || slices.Contains(m.Entities, id) {
		return false
	}
	addr, ok := correspondents.Address(m.From)
	if !ok {
		return false
	}
	return containsFold(emails, addr) || containsFold(domains, domainOf(addr))
}

func containsFold(list []string, s string) bool {
	return slices.ContainsFunc(list, func(x string) bool { return strings.EqualFold(strings.TrimSpace(x), s) })
}

// domainOf is the part of a lower-cased address after its @.
func domainOf(addr string) string {
	_, d, _ := strings.Cut(addr, "@")
	return d
}

// Board is the store as the vault engine needs it: minting ids, the
// committed state, and the writes a merge or an attached address makes.
// The writes are the system's: the request that caused them is the
// person's or the agent's own write, logged where it happened.
type Board struct {
	Store *store.Store
}

// Mint takes a new page id in a write of its own, so it is never reused
// even when what it was minted for fails.
func (b Board) Mint(ctx context.Context) (string, error) {
	var id string
	_, err := b.Store.Update(ctx, wire.ActorSystem, nil, func(tx *store.Tx) error {
		id = MintTx(tx)
		return nil
	})
	return id, err
}

// Snapshot is the committed state.
func (b Board) Snapshot() *wire.Doc { return b.Store.Snapshot() }

// Relink moves every reference to page from onto page to in one write;
// nothing is written when nothing refers to from.
func (b Board) Relink(ctx context.Context, from, to string) error {
	if from == to || !referred(b.Store.Snapshot(), from) {
		return nil
	}
	_, err := b.Store.Update(ctx, wire.ActorSystem, nil, func(tx *store.Tx) error {
		RelinkTx(tx, from, to)
		return nil
	})
	return err
}

// Resolve names page id on the past mail of emails and domains in one
// write; nothing is written when no message changes.
func (b Board) Resolve(ctx context.Context, id string, emails, domains []string) error {
	if b.Store.Snapshot().Messages.IndexFunc(func(m *wire.Message) bool { return resolves(m, id, emails, domains) }) < 0 {
		return nil
	}
	_, err := b.Store.Update(ctx, wire.ActorSystem, nil, func(tx *store.Tx) error {
		ResolveTx(tx, id, emails, domains)
		return nil
	})
	return err
}

// referred says whether a case or a message names page id.
func referred(d *wire.Doc, id string) bool {
	return d.Cases.IndexFunc(func(c *wire.Case) bool { return slices.Contains(c.VaultLinks, id) }) >= 0 ||
		d.Messages.IndexFunc(func(m *wire.Message) bool { return slices.Contains(m.Entities, id) }) >= 0
}
