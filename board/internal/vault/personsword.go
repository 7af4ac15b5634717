package vault

import (
	"context"
	"maps"
	"slices"
	"time"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/rules/humanedit"
	"github.com/opsboard/opsboard/shared/vaultpage"
	"github.com/opsboard/opsboard/shared/wire"
)

// A page is the person's file, so their word stands on it as on a record:
// the fields a person changed (through the page, or by hand on disk) hold
// against the agent as humanedit says. The stamps live on the board, by
// page path, never in the Markdown.

// word is what the rule says of one patch: the edits to keep after the
// write (a person's patch), and the override to log (an agent's).
type word struct {
	keep     bool
	edits    wire.HumanEdits
	override string
}

// pageEdits is the person's changes kept for the page at path.
func pageEdits(d *wire.Doc, path string) wire.HumanEdits {
	for _, p := range d.PageEdits.All() {
		if p.ID == path {
			return p.HumanEdits
		}
	}
	return nil
}

// personsWord checks patch pt on page e: an agent's change that undoes the
// person's is refused (unless it says override); a person's is stamped.
// The agent's Timeline append never changes the body as the rule sees it.
func (v *Vault) personsWord(e entry, pt patch) (word, error) {
	f, body, err := pt.edit(v.cfg.Now().Format("2006-01-02"))(e.page)
	if err != nil {
		return word{}, err
	}
	after := e.page
	after.Fields, after.Body = f, body
	changed := vaultpage.Changed(e.page, after)
	if len(changed) == 0 {
		return word{}, nil
	}
	fields := slices.Sorted(maps.Keys(changed))
	snap := v.cfg.Board.Snapshot()
	edits, now := pageEdits(snap, e.page.Path), v.cfg.Now()
	switch pt.Actor {
	case wire.ActorHuman:
		return word{keep: true, edits: humanedit.Stamp(edits, changed, fields, now)}, nil
	case wire.ActorAgent:
		window := humanedit.WindowOf(snap.Prefs)
		c, ok := humanedit.Find(edits, vaultpage.EditValues(e.page), vaultpage.EditValues(after), fields, window, now)
		switch {
		case !ok:
			return word{}, nil
		case pt.Override:
			return word{override: c.Overridden()}, nil
		}
		return word{}, &errs.HumanChangeError{Record: pageRef(e.page), Field: c.Field, Actor: wire.ActorHuman, TS: c.TS, Value: c.Value, Revert: c.Revert, Window: window}
	}
	return word{}, nil
}

// keepWord records after a patch what its word says: the person's edits,
// the stamps moved with a rename, the agent's override.
func (v *Vault) keepWord(ctx context.Context, w word, pt patch, page vaultpage.Page) error {
	if w.override != "" {
		if err := v.cfg.Board.LogOverride(ctx, pageRef(page), w.override); err != nil {
			return err
		}
	}
	edits := w.edits
	if !w.keep {
		if pt.newRel == pt.rel {
			return nil
		}
		if edits = pageEdits(v.cfg.Board.Snapshot(), pt.rel); edits == nil {
			return nil
		}
	}
	return v.cfg.Board.SavePageEdits(ctx, pt.newRel, pt.rel, edits)
}

// handEdit stamps what a hand edit on disk changed on a page as the
// person's. It runs outside the vault's locks, as every call of the board.
func (v *Vault) handEdit(old, cur vaultpage.Page) {
	changed := vaultpage.Changed(old, cur)
	if len(changed) == 0 {
		return
	}
	fields := slices.Sorted(maps.Keys(changed))
	edits := humanedit.Stamp(pageEdits(v.cfg.Board.Snapshot(), cur.Path), changed, fields, v.cfg.Now())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := v.cfg.Board.SavePageEdits(ctx, cur.Path, "", edits); err != nil {
		v.cfg.Log.Warn("vault.hand_edit", "path", cur.Path, "err", err)
	}
}

// pageRef names a page in a refusal or a log row: its id, else its path.
func pageRef(p vaultpage.Page) string {
	if p.Fields.ID != "" {
		return p.Fields.ID
	}
	return p.Path
}
