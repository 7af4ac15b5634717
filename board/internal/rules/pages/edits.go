package pages

import (
	"context"

	"github.com/opsboard/opsboard/board/internal/rules/activity"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// SavePageEdits keeps edits as the person's changes to the vault page at
// path, in a write of the person's, dropping what was kept under from when
// the page moved from there (a rename).
func (b Board) SavePageEdits(ctx context.Context, path, from string, edits wire.HumanEdits) error {
	_, err := b.Store.Update(ctx, wire.ActorHuman, nil, func(tx *store.Tx) error {
		if from != "" && from != path {
			tx.PageEdits().Delete(from)
		}
		if len(edits) == 0 {
			tx.PageEdits().Delete(path)
			return nil
		}
		tx.PageEdits().Put(&wire.PageEdits{ID: path, HumanEdits: edits})
		return nil
	})
	return err
}

// LogOverride logs an agent's write past the person's change to a vault
// page: a page belongs to no case, so the row is the board's own.
func (b Board) LogOverride(ctx context.Context, record, detail string) error {
	_, err := b.Store.Update(ctx, wire.ActorAgent, nil, func(tx *store.Tx) error {
		activity.Override(tx, "", record, detail)
		return nil
	})
	return err
}
