package cases

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/rules/activity"
	"github.com/opsboard/opsboard/board/internal/rules/field"
	"github.com/opsboard/opsboard/board/internal/rules/hierarchy"
	"github.com/opsboard/opsboard/board/internal/rules/humanedit"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// Patch applies a partial update to one case node. An agent's patch may
// not change a field the person changed within the last day unless it
// says override (see humanedit).
func Patch(ctx context.Context, s *store.Store, actor wire.Actor, id string, p wire.CasePatch) (*wire.Case, int64, error) {
	return store.Do(ctx, s, actor, p.ExpectedVersion, func(tx *store.Tx) (*wire.Case, error) {
		c, before, err := patchTracked(tx, id, p, treeCheck(tx))
		if err != nil {
			return nil, err
		}
		return c, protectEdits(tx, c, before, p.Override)
	})
}

// PatchTx is Patch inside a write, without protecting the person's edits: an
// approved proposal is the person's decision.
func PatchTx(tx *store.Tx, id string, p wire.CasePatch) (*wire.Case, error) {
	c, _, err := patchTracked(tx, id, p, treeCheck(tx))
	return c, err
}

// treeCheck judges a node's place in the tree of the write's draft at once.
func treeCheck(tx *store.Tx) func(hierarchy.Node) error {
	return func(n hierarchy.Node) error { return hierarchy.Violation(tx.Doc().Cases, n) }
}

// patchTracked applies p, stamps the fields a person changed, and returns
// the case with its fields from before the patch. check judges the node's
// place in the tree (a batch defers it until every node has moved).
func patchTracked(tx *store.Tx, id string, p wire.CasePatch, check func(hierarchy.Node) error) (*wire.Case, map[string]json.RawMessage, error) {
	c, ok := tx.Cases().Get(id)
	if !ok {
		return nil, nil, errs.NotFound("case %s not found", id)
	}
	before := humanedit.Fields(c)
	if err := applyPatch(tx, c, p, tx.Actor(), check); err != nil {
		return nil, nil, err
	}
	if tx.Actor() == wire.ActorHuman || tx.Decided() {
		if changed := humanedit.Changed(before, humanedit.Fields(c), humanedit.Untracked); len(changed) > 0 {
			c.HumanEdits = humanedit.Stamp(c.HumanEdits, before, changed, tx.Now())
			tx.Cases().Put(c)
		}
	}
	return c, before, nil
}

// protectEdits refuses an agent's change to a field the person changed
// recently, or logs the override when the write says override.
func protectEdits(tx *store.Tx, c *wire.Case, before map[string]json.RawMessage, override bool) error {
	if tx.Actor() != wire.ActorAgent || len(c.HumanEdits) == 0 {
		return nil // only an agent is refused, and only over a person's edit: skip the window lookup
	}
	w := humanedit.For(tx, c.ID, c.HumanEdits, before, c)
	w.Override = override
	over, err := w.Check()
	if err != nil {
		return err
	}
	if over != nil {
		activity.Log(c, tx.Actor(), wire.VerbOverride, over.Overridden(), tx.Stamp())
		tx.Cases().Put(c)
	}
	return nil
}

// PatchMany applies one patch to many case nodes, all or nothing; an error
// names the offending id. The person's recent edits hold against the
// agent for each node.
func PatchMany(ctx context.Context, s *store.Store, actor wire.Actor, b wire.CaseBatch) ([]*wire.Case, int64, error) {
	var out []*wire.Case
	if len(field.CleanList(b.IDs)) == 0 {
		return nil, 0, errs.BadRequest("field 'ids' must list at least one case id")
	}
	expected := b.ExpectedVersion
	if expected == nil {
		expected = b.Patch.ExpectedVersion
	}
	v, err := s.Update(ctx, actor, expected, func(tx *store.Tx) error {
		cs, err := patchMany(tx, b, true)
		out = cs
		return err
	})
	return out, v, err
}

// PatchManyTx is PatchMany inside a write: every id or none.
func PatchManyTx(tx *store.Tx, b wire.CaseBatch) ([]*wire.Case, error) {
	return patchMany(tx, b, false)
}

// patchMany patches every id of b; with protect, an agent's change to a
// field the person changed recently is refused as in Patch.
func patchMany(tx *store.Tx, b wire.CaseBatch, protect bool) ([]*wire.Case, error) {
	ids := field.CleanList(b.IDs)
	if len(ids) == 0 {
		return nil, errs.BadRequest("field 'ids' must list at least one case id")
	}
	// The tree is checked once, after every node has its new kind and
	// parent: checking each node as it moves scans every case each time,
	// which made a batch over the whole board quadratic.
	var moved []hierarchy.Node
	later := func(n hierarchy.Node) error { moved = append(moved, n); return nil }
	var out []*wire.Case
	for _, id := range ids {
		c, before, err := patchTracked(tx, id, b.Patch, later)
		if err != nil {
			return nil, prefixID(id, err)
		}
		if protect {
			if err := protectEdits(tx, c, before, b.Override || b.Patch.Override); err != nil {
				return nil, err
			}
		}
		out = append(out, c)
	}
	if len(moved) > 0 {
		ix := hierarchy.NewIndex(tx.Doc().Cases)
		for _, n := range moved {
			if err := ix.Violation(n); err != nil {
				return nil, prefixID(n.ID, err)
			}
		}
	}
	return out, nil
}

func prefixID(id string, err error) error {
	var bad *errs.BadRequestError
	if errors.As(err, &bad) && !strings.Contains(bad.Msg, id) {
		return errs.BadRequest("%s: %s", id, bad.Msg)
	}
	return err
}

// applyPatch validates and applies p to c (a private copy), logs what
// changed and puts c back. A new kind or parent is checked by check, which
// answers a hierarchy violation or nil.
func applyPatch(tx *store.Tx, c *wire.Case, p wire.CasePatch, actor wire.Actor, check func(hierarchy.Node) error) error {
	now := tx.Stamp()
	changes, err := casePatch{CasePatch: p, tx: tx, check: check}.Apply(c)
	if err != nil {
		return err
	}
	for _, ch := range changes {
		activity.Log(c, actor, ch.verb, ch.detail, now)
	}
	if len(changes) > 0 {
		c.UpdatedAt = now
	}
	tx.Cases().Put(c)
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
