// Package cases holds the rules of case nodes (initiatives, workstreams and
// cases): create from a body or a template, patch one or many, archive,
// restore, delete, clean done cases, merge one into another, and the tasks
// and notes a case carries. Each rule is a function over a write (the ...Tx
// forms, which approvals reuse) with a one-call form that runs it as a write.
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

// Create adds a case node. With in.Dedupe, an exact match (same
// normalized title, kind and parent) is returned instead, with existing true
// and nothing written.
func Create(ctx context.Context, s *store.Store, actor wire.Actor, in wire.CaseCreate) (out *wire.Case, existing bool, version int64, err error) {
	return store.CreateOrFind(ctx, s, actor, func(tx *store.Tx) (*wire.Case, bool, error) { return CreateTx(tx, in) })
}

// CreateTx is Create inside a write; found reports an exact match
// returned instead of a new node (nothing was changed then).
func CreateTx(tx *store.Tx, in wire.CaseCreate) (out *wire.Case, found bool, err error) {
	if in.TemplateID != "" {
		t, ok := tx.Templates().Get(in.TemplateID)
		if !ok {
			return nil, false, errs.NotFound("template %s not found", in.TemplateID)
		}
		applyTemplate(&in, t)
	}
	c, err := newCase(tx, in)
	if err != nil {
		return nil, false, err
	}
	if in.Dedupe {
		for _, old := range tx.Doc().Cases {
			if field.NormTitle(old.Title) == field.NormTitle(c.Title) && old.Kind == c.Kind && old.ParentID == c.ParentID {
				c, _ := tx.Cases().Get(old.ID)
				return c, true, nil
			}
		}
	}
	c, err = put(tx, c, treeCheck(tx))
	return c, false, err
}

// CreateCheckedTx is CreateTx without a template or dedupe, with the tree
// check given: a write creating many nodes checks each against one
// hierarchy.Index it keeps up to date, where CreateTx scans every case for
// each node.
func CreateCheckedTx(tx *store.Tx, in wire.CaseCreate, check func(hierarchy.Node) error) (*wire.Case, error) {
	c, err := newCase(tx, in)
	if err != nil {
		return nil, err
	}
	return put(tx, c, check)
}

// put mints the new node's ids, checks its place in the tree and stores it.
func put(tx *store.Tx, c *wire.Case, check func(hierarchy.Node) error) (*wire.Case, error) {
	c.ID = tx.NextID("CASE")
	for i := range c.Tasks {
		c.Tasks[i].ID = fmt.Sprintf("%s-T%d", c.ID, i+1)
	}
	if err := check(hierarchy.Node{ID: c.ID, Kind: c.Kind, ParentID: c.ParentID}); err != nil {
		return nil, err
	}
	activity.Log(c, tx.Actor(), wire.VerbCreated, string(c.Kind), c.CreatedAt)
	tx.Cases().Put(c)
	return c, nil
}

func applyTemplate(in *wire.CaseCreate, t *wire.Template) {
	fill := func(dst *string, v string) {
		if *dst == "" {
			*dst = v
		}
	}
	fill(&in.Title, t.Title)
	fill(&in.Summary, t.Summary)
	fill(&in.Status, string(t.Status))
	fill(&in.Domain, string(t.Domain))
	fill(&in.Kind, string(t.Kind))
	in.Labels = append(append([]string(nil), t.Labels...), in.Labels...)
	in.Tags = append(append([]string(nil), t.Tags...), in.Tags...)
	if len(in.Tasks) == 0 {
		for _, title := range t.Tasks {
			in.Tasks = append(in.Tasks, wire.TaskInput{Title: title})
		}
	}
}

// newCase validates a create body into a record without an id.
func newCase(tx *store.Tx, in wire.CaseCreate) (*wire.Case, error) {
	now := tx.Stamp()
	c := &wire.Case{
		Title: strings.TrimSpace(in.Title), Summary: in.Summary, Status: wire.Lane(in.Status), Domain: wire.Domain(in.Domain),
		Kind: wire.Kind(in.Kind), ParentID: strings.TrimSpace(in.ParentID), Eta: in.Eta, DueAt: strings.TrimSpace(in.DueAt),
		Tags: field.CleanList(in.Tags), Labels: field.CleanList(in.Labels), VaultLinks: field.CleanList(in.VaultLinks),
		Starred: in.Starred, Position: in.Position, CreatedAt: now, UpdatedAt: now,
	}
	if c.Title == "" {
		return nil, errs.BadRequest("Field 'title' is required.")
	}
	if c.Status == "" {
		c.Status = wire.LaneTodo
	}
	if c.Domain == "" && c.ParentID != "" {
		// A node under a parent belongs where its parent does unless told.
		if parent, ok := tx.Cases().Get(c.ParentID); ok {
			c.Domain = parent.Domain
		}
	}
	if c.Domain == "" {
		c.Domain = wire.DomainWork
	}
	if c.Kind == "" {
		c.Kind = wire.KindCase
	}
	for _, err := range []error{
		field.OneOf("status", c.Status, wire.Lanes()), field.OneOf("domain", c.Domain, wire.Domains()),
		field.OneOf("kind", c.Kind, wire.Kinds()), field.CheckDate("dueAt", c.DueAt), labels.Check(tx, c.Labels),
	} {
		if err != nil {
			return nil, err
		}
	}
	for i, t := range in.Tasks {
		title := strings.TrimSpace(t.Title)
		if title == "" {
			return nil, errs.BadRequest("task %d needs a title", i+1)
		}
		if err := field.CheckDate(fmt.Sprintf("tasks[%d].dueAt", i), t.DueAt); err != nil {
			return nil, err
		}
		rule, err := field.CheckRepeat(fmt.Sprintf("tasks[%d].repeat", i), t.Repeat, fmt.Sprintf("tasks[%d].dueAt", i), t.DueAt)
		if err != nil {
			return nil, err
		}
		c.Tasks = append(c.Tasks, wire.Task{Title: title, Detail: t.Detail, DueAt: t.DueAt, Position: t.Position, Repeat: rule, CreatedAt: now})
	}
	return c, nil
}

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

// Archive soft-deletes a case node to the Trash. Its children keep their
// parent.
func Archive(ctx context.Context, s *store.Store, actor wire.Actor, id string) (*wire.Case, int64, error) {
	return Patch(ctx, s, actor, id, wire.CasePatch{ArchivedAt: wire.Some("now")})
}

// Restore brings a case node back from the Trash.
func Restore(ctx context.Context, s *store.Store, actor wire.Actor, id string) (*wire.Case, int64, error) {
	return Patch(ctx, s, actor, id, wire.CasePatch{ArchivedAt: wire.Null[string]()})
}

// Delete removes a case node for good: children are detached (a
// workstream whose initiative is gone becomes an initiative), linked messages
// unlinked, and events and reminders lose their link.
func Delete(ctx context.Context, s *store.Store, actor wire.Actor, id string) (int64, error) {
	return s.Update(ctx, actor, nil, func(tx *store.Tx) error { return DeleteTx(tx, id) })
}

// DeleteTx is Delete inside a write.
func DeleteTx(tx *store.Tx, id string) error {
	if _, ok := tx.Cases().Get(id); !ok {
		return errs.NotFound("case %s not found", id)
	}
	remove(tx, []string{id}, false)
	return nil
}

// CleanResult reports a clean.
type CleanResult struct {
	Removed         []string `json:"removed"`
	MessagesRemoved int      `json:"messagesRemoved"`
}

// Clean purges done cases with their linked emails (an email also linked
// to a reminder is kept and unlinked). Anything not done refuses the whole
// clean. A snapshot is taken first, unless the newest snapshot already holds
// every record the clean removes exactly as it removes it.
func Clean(ctx context.Context, s *store.Store, actor wire.Actor, ids []string) (CleanResult, int64, error) {
	ids = field.CleanList(ids)
	if len(ids) == 0 {
		return CleanResult{}, 0, errs.BadRequest("field 'ids' must list the done cases to clean")
	}
	snap := s.Snapshot()
	byID := make(map[string]*wire.Case, len(snap.Cases))
	for _, c := range snap.Cases {
		if _, ok := byID[c.ID]; !ok {
			byID[c.ID] = c
		}
	}
	for _, id := range ids {
		c := byID[id]
		if c == nil {
			return CleanResult{}, 0, errs.NotFound("case %s not found", id)
		}
		if c.Status != wire.LaneDone {
			return CleanResult{}, 0, errs.BadRequest("%s is not done (status %s): clean purges done cases only", id, c.Status)
		}
	}
	// Whether the snapshot covers the clean is decided inside the write, on
	// the records it removes; when it does not, the snapshot is taken
	// outside the write lock and the write tried again. Only a concurrent
	// change to those very records makes a second round necessary.
	for range cleanAttempts {
		held := s.SnapshotState()
		var res CleanResult
		v, err := s.Update(ctx, actor, nil, func(tx *store.Tx) error {
			for _, id := range ids { // re-checked inside the critical section
				c, ok := tx.Cases().Get(id)
				if !ok {
					return errs.NotFound("case %s not found", id)
				}
				if c.Status != wire.LaneDone {
					return errs.BadRequest("%s is not done (status %s): clean purges done cases only", id, c.Status)
				}
			}
			if !snapshotHolds(held, tx.Doc(), ids) {
				return errSnapshotFirst
			}
			res = CleanResult{Removed: ids, MessagesRemoved: remove(tx, ids, true)}
			return nil
		})
		if !errors.Is(err, errSnapshotFirst) {
			return res, v, err
		}
		if err := s.TakeSnapshot(); err != nil {
			return CleanResult{}, 0, fmt.Errorf("snapshot before clean: %w", err)
		}
	}
	return CleanResult{}, 0, &errs.UnavailableError{Msg: "the cases to clean kept changing while the safety snapshot was taken; try again"}
}

// cleanAttempts bounds the rounds of snapshot-then-clean.
const cleanAttempts = 3

// errSnapshotFirst stops a clean the newest snapshot does not cover.
var errSnapshotFirst = errors.New("snapshot first")

// snapshotHolds reports whether snap (the newest snapshot's state, nil when
// unknown) holds every record a clean of ids removes from cur, unchanged:
// the cases and the messages it purges with them. Committed records are
// immutable, so the same pointer means the same record.
func snapshotHolds(snap, cur *wire.Doc, ids []string) bool {
	if snap == nil {
		return false
	}
	gone := make(map[string]bool, len(ids))
	for _, id := range ids {
		gone[id] = true
	}
	held := map[any]bool{}
	for _, c := range snap.Cases {
		if gone[c.ID] {
			held[c] = true
		}
	}
	for _, m := range snap.Messages {
		if gone[m.CaseID] {
			held[m] = true
		}
	}
	for _, c := range cur.Cases {
		if gone[c.ID] && !held[c] {
			return false
		}
	}
	for _, m := range cur.Messages {
		if gone[m.CaseID] && m.ReminderID == "" && !held[m] {
			return false
		}
	}
	return true
}

// remove deletes the given nodes and repairs everything that pointed at
// them. With purgeMessages, their messages go too unless a reminder holds
// them. It returns how many messages were removed.
func remove(tx *store.Tx, ids []string, purgeMessages bool) int {
	gone := map[string]bool{}
	for _, id := range ids {
		gone[id] = true
	}
	for _, c := range tx.Doc().Cases {
		if gone[c.ID] || !gone[c.ParentID] {
			continue
		}
		child, _ := tx.Cases().Get(c.ID)
		detail := "detached: parent " + c.ParentID + " was deleted"
		child.ParentID = ""
		if child.Kind == wire.KindWorkstream {
			child.Kind = wire.KindInitiative // a workstream must sit under an initiative
			activity.Log(child, tx.Actor(), wire.VerbKindChanged, "workstream → initiative: its initiative was deleted", tx.Stamp())
		}
		activity.Log(child, tx.Actor(), wire.VerbParentChanged, detail, tx.Stamp())
		child.UpdatedAt = tx.Stamp()
		tx.Cases().Put(child)
	}
	// Records are removed in one pass per collection at the end: one
	// Delete per record costs a pass each.
	var purged []string
	for _, m := range tx.Doc().Messages {
		if !gone[m.CaseID] {
			continue
		}
		if purgeMessages && m.ReminderID == "" {
			purged = append(purged, m.ID)
			continue
		}
		cp := *m
		cp.CaseID = ""
		tx.Messages().Put(&cp)
	}
	for _, e := range tx.Doc().Events {
		if gone[e.CaseID] {
			cp := *e
			cp.CaseID, cp.UpdatedAt = "", tx.Stamp()
			tx.Events().Put(&cp)
		}
	}
	for _, r := range tx.Doc().Reminders {
		if gone[r.CaseID] {
			cp, _ := tx.Reminders().Get(r.ID)
			cp.CaseID, cp.UpdatedAt = "", tx.Stamp()
			tx.Reminders().Put(cp)
		}
	}
	tx.Messages().DeleteMany(purged)
	tx.Cases().DeleteMany(ids)
	return len(purged)
}

// Merge merges source into target: tasks (with fresh ids), notes,
// messages, tags, labels, events and reminders move to the target; children
// are re-parented to it, or detached and noted when it cannot hold them; the
// source is archived with mergedInto and a note pointing to the target.
func Merge(ctx context.Context, s *store.Store, actor wire.Actor, sourceID, targetID string) (*wire.Case, int64, error) {
	return store.Do(ctx, s, actor, nil, func(tx *store.Tx) (*wire.Case, error) { return MergeTx(tx, sourceID, targetID) })
}

// MergeTx is Merge inside a write; it returns the target as merged.
func MergeTx(tx *store.Tx, sourceID, targetID string) (*wire.Case, error) {
	targetID = strings.TrimSpace(targetID)
	if targetID == "" {
		return nil, errs.BadRequest("field 'targetId' is required")
	}
	if targetID == sourceID {
		return nil, errs.BadRequest("cannot merge %s into itself", sourceID)
	}
	src, ok := tx.Cases().Get(sourceID)
	if !ok {
		return nil, errs.NotFound("case %s not found", sourceID)
	}
	dst, ok := tx.Cases().Get(targetID)
	if !ok {
		return nil, errs.NotFound("case %s not found", targetID)
	}
	if dst.ArchivedAt != "" {
		return nil, errs.BadRequest("target %s is archived: restore it first", targetID)
	}
	now := tx.Stamp()
	taskMint, noteMint := field.ChildIDsAfter(dst.ID, "T", taskIDs(dst)), field.ChildIDsAfter(dst.ID, "N", noteIDs(dst))
	renamed := make(map[string]string, len(src.Tasks))
	first := len(dst.Tasks)
	for _, t := range src.Tasks {
		old := t.ID
		t.ID = taskMint.Next()
		renamed[old] = t.ID
		dst.Tasks = append(dst.Tasks, t)
	}
	for i := first; i < len(dst.Tasks); i++ {
		if to, ok := renamed[dst.Tasks[i].NextID]; ok {
			dst.Tasks[i].NextID = to // a repeating task's pointer follows the renumbering
		}
	}
	for _, n := range src.Notes {
		n.ID = noteMint.Next()
		dst.Notes = append(dst.Notes, n)
	}
	dst.Tags = field.CleanList(append(dst.Tags, src.Tags...))
	dst.Labels = field.CleanList(append(dst.Labels, src.Labels...))
	for _, m := range tx.Doc().Messages {
		if m.CaseID == src.ID {
			cp := *m
			cp.CaseID = dst.ID
			tx.Messages().Put(&cp)
		}
	}
	for _, e := range tx.Doc().Events {
		if e.CaseID == src.ID {
			cp := *e
			cp.CaseID, cp.UpdatedAt = dst.ID, now
			tx.Events().Put(&cp)
		}
	}
	for _, r := range tx.Doc().Reminders {
		if r.CaseID == src.ID {
			cp, _ := tx.Reminders().Get(r.ID)
			cp.CaseID, cp.UpdatedAt = dst.ID, now
			tx.Reminders().Put(cp)
		}
	}
	src.Tasks, src.Notes = nil, nil
	src.ArchivedAt, src.MergedInto, src.UpdatedAt = now, dst.ID, now
	src.Notes = append(src.Notes, wire.Note{ID: field.NextChildID(src.ID, "N", nil), Text: fmt.Sprintf("Merged into %s: use %s.", dst.ID, dst.ID), Actor: tx.Actor(), CreatedAt: now})
	activity.Log(src, tx.Actor(), wire.VerbMergedInto, dst.ID, now)
	activity.Log(dst, tx.Actor(), wire.VerbMergedFrom, src.ID, now)
	dst.UpdatedAt = now
	tx.Cases().Put(dst)
	tx.Cases().Put(src)
	// Children follow the source, as far as the target can hold them. One
	// index serves every check: moving a child changes nothing another
	// child's check reads, except when the child is the target itself.
	ix := hierarchy.NewIndex(tx.Doc().Cases)
	for _, c := range tx.Doc().Cases {
		if c.ParentID != src.ID {
			continue
		}
		child, _ := tx.Cases().Get(c.ID)
		if err := ix.Violation(hierarchy.Node{ID: child.ID, Kind: child.Kind, ParentID: dst.ID}); err == nil {
			child.ParentID = dst.ID
			activity.Log(child, tx.Actor(), wire.VerbParentChanged, src.ID+" → "+dst.ID+" (merge)", now)
		} else {
			child.ParentID = ""
			if child.Kind == wire.KindWorkstream {
				child.Kind = wire.KindInitiative
			}
			msg := err.Error()
			activity.Log(child, tx.Actor(), wire.VerbParentChanged, src.ID+" → none (merge: "+msg+")", now)
			dst, _ = tx.Cases().Get(dst.ID)
			dst.Notes = append(dst.Notes, wire.Note{ID: noteMint.Next(), Text: fmt.Sprintf("%s (%s) was a child of %s but could not move under %s, so it was detached: %s", child.ID, child.Title, src.ID, dst.ID, msg), Actor: wire.ActorSystem, CreatedAt: now})
			activity.Log(dst, wire.ActorSystem, wire.VerbChildDetached, child.ID, now)
			tx.Cases().Put(dst)
		}
		child.UpdatedAt = now
		tx.Cases().Put(child)
		if child.ID == dst.ID {
			ix.Put(child)
		}
	}
	out, _ := tx.Cases().Get(dst.ID)
	return out, nil
}

// CheckLink refuses a caseId that names no case node (a 400: the body is
// wrong, not the route).
func CheckLink(tx *store.Tx, caseID string) error {
	if caseID == "" {
		return nil
	}
	if !tx.Cases().Has(caseID) {
		return errs.BadRequest("field 'caseId': case %s not found", caseID)
	}
	return nil
}

func taskIDs(c *wire.Case) []string {
	out := make([]string, len(c.Tasks))
	for i, t := range c.Tasks {
		out[i] = t.ID
	}
	return out
}

func noteIDs(c *wire.Case) []string {
	out := make([]string, len(c.Notes))
	for i, n := range c.Notes {
		out[i] = n.ID
	}
	return out
}

func findCase(cases []*wire.Case, id string) *wire.Case {
	for _, c := range cases {
		if c.ID == id {
			return c
		}
	}
	return nil
}
