package cases

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/rules/activity"
	"github.com/opsboard/opsboard/board/internal/rules/field"
	"github.com/opsboard/opsboard/board/internal/rules/hierarchy"
	"github.com/opsboard/opsboard/board/internal/rules/humanedit"
	"github.com/opsboard/opsboard/board/internal/rules/labels"
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
	if tx.Actor() == wire.ActorHuman {
		if changed := humanedit.Changed(before, humanedit.Fields(c), humanedit.Untracked); len(changed) > 0 {
			c.HumanEdits = humanedit.Stamp(c.HumanEdits, changed, tx.Now())
			tx.Cases().Put(c)
		}
	}
	return c, before, nil
}

// protectEdits refuses an agent's change to a field the person changed
// recently, or logs the override when the write says override.
func protectEdits(tx *store.Tx, c *wire.Case, before map[string]json.RawMessage, override bool) error {
	over, err := humanedit.Write{Actor: tx.Actor(), Override: override, Record: c.ID, Edits: c.HumanEdits, Before: before, After: c, Ignore: humanedit.Untracked, Now: tx.Now()}.Check()
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
	changed := false
	log := func(verb wire.Verb, detail string) {
		activity.Log(c, actor, verb, detail, now)
		changed = true
	}
	text := func(field string, o wire.Opt[string], dst *string, verb wire.Verb) {
		if !o.Set {
			return
		}
		v := o.V
		if o.Null {
			v = ""
		}
		if v != *dst {
			*dst = v
			log(verb, field)
		}
	}
	if p.Title.Set {
		t := strings.TrimSpace(p.Title.V)
		if p.Title.Null || t == "" {
			return errs.BadRequest("field 'title' cannot be empty")
		}
		if t != c.Title {
			old := c.Title
			c.Title = t
			log(wire.VerbTitleChanged, fmt.Sprintf("%q → %q", old, t))
		}
	}
	if p.Status.Set {
		if p.Status.Null {
			return errs.BadRequest("field 'status' cannot be null")
		}
		if err := field.OneOf("status", p.Status.V, wire.Lanes()); err != nil {
			return err
		}
		if st := wire.Lane(p.Status.V); st != c.Status {
			old := c.Status
			c.Status = st
			log(wire.VerbStatusChanged, string(old+" → "+c.Status))
		}
	}
	if p.Domain.Set {
		if p.Domain.Null {
			return errs.BadRequest("field 'domain' cannot be null")
		}
		if err := field.OneOf("domain", p.Domain.V, wire.Domains()); err != nil {
			return err
		}
		if dom := wire.Domain(p.Domain.V); dom != c.Domain {
			c.Domain = dom
			log(wire.VerbDomainChanged, string(c.Domain))
		}
	}
	if p.DueAt.Set && !p.DueAt.Null {
		if err := field.CheckDate("dueAt", strings.TrimSpace(p.DueAt.V)); err != nil {
			return err
		}
		p.DueAt.V = strings.TrimSpace(p.DueAt.V)
	}
	text("summary", p.Summary, &c.Summary, wire.VerbSummaryChanged)
	text("eta", p.Eta, &c.Eta, wire.VerbEtaChanged)
	text("dueAt", p.DueAt, &c.DueAt, wire.VerbDueChanged)
	if p.Tags.Set {
		tags := field.CleanList(p.Tags.V)
		if !slices.Equal(tags, c.Tags) {
			c.Tags = tags
			log(wire.VerbTagsChanged, strings.Join(tags, ", "))
		}
	}
	if p.VaultLinks.Set {
		links := field.CleanList(p.VaultLinks.V)
		if !slices.Equal(links, c.VaultLinks) {
			c.VaultLinks = links
			log(wire.VerbVaultLinksChanged, "")
		}
	}
	if p.Labels.Set {
		ids := field.CleanList(p.Labels.V)
		// Only labels this write adds must exist: a case still carrying a
		// label removed from the catalog stays editable.
		if err := labels.Check(tx, field.Added(ids, c.Labels)); err != nil {
			return err
		}
		if !slices.Equal(ids, c.Labels) {
			c.Labels = ids
			log(wire.VerbLabelsChanged, strings.Join(ids, ", "))
		}
	}
	if p.Starred.Set {
		star := p.Starred.V && !p.Starred.Null
		if star != c.Starred {
			c.Starred = star
			if star {
				log(wire.VerbStarred, "")
			} else {
				log(wire.VerbUnstarred, "")
			}
		}
	}
	if p.Position.Set {
		var pos *float64
		if !p.Position.Null {
			pos = &p.Position.V
		}
		if (pos == nil) != (c.Position == nil) || (pos != nil && *pos != *c.Position) {
			c.Position = pos
			log(wire.VerbPositionChanged, "")
		}
	}
	if p.ArchivedAt.Set {
		switch {
		case p.ArchivedAt.Null && c.ArchivedAt != "":
			c.ArchivedAt, c.MergedInto = "", ""
			log(wire.VerbRestored, "")
		case !p.ArchivedAt.Null && c.ArchivedAt == "":
			c.ArchivedAt = now
			log(wire.VerbArchived, "")
		}
	}
	kind, parent := c.Kind, c.ParentID
	if p.Kind.Set {
		kind = wire.KindCase
		if !p.Kind.Null && p.Kind.V != "" {
			kind = wire.Kind(p.Kind.V)
		}
		if err := field.OneOf("kind", kind, wire.Kinds()); err != nil {
			return err
		}
	}
	if p.ParentID.Set {
		parent = ""
		if !p.ParentID.Null {
			parent = strings.TrimSpace(p.ParentID.V)
		}
	}
	if p.Kind.Set || p.ParentID.Set {
		if err := check(hierarchy.Node{ID: c.ID, Kind: kind, ParentID: parent}); err != nil {
			return err
		}
		if kind != c.Kind {
			log(wire.VerbKindChanged, string(c.Kind+" → "+kind))
			c.Kind = kind
		}
		if parent != c.ParentID {
			log(wire.VerbParentChanged, orNone(c.ParentID)+" → "+orNone(parent))
			c.ParentID = parent
		}
	}
	if changed {
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
