package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/hierarchy"
	"github.com/opsboard/opsboard/shared/wire"
)

// errExisting stops a deduplicated create without writing anything.
var errExisting = errors.New("an exact match exists")

// CreateCase adds a case node. With in.Dedupe, an exact match (same
// normalized title, kind and parent) is returned instead, with existing true.
func (s *Store) CreateCase(ctx context.Context, actor string, in wire.CaseCreate) (out *wire.Case, existing bool, version int64, err error) {
	v, err := s.Update(ctx, actor, nil, func(tx *Tx) error {
		c, found, err := createCaseTx(tx, in)
		out = c
		if found {
			version = tx.d.Version
			return errExisting
		}
		return err
	})
	if errors.Is(err, errExisting) {
		return out, true, version, nil
	}
	return out, false, v, err
}

// createCaseTx is CreateCase inside a write; found reports an exact match
// returned instead of a new node (nothing was changed then).
func createCaseTx(tx *Tx, in wire.CaseCreate) (out *wire.Case, found bool, err error) {
	if in.TemplateID != "" {
		t, ok := tx.Template(in.TemplateID)
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
		for _, old := range tx.d.Cases {
			if normTitle(old.Title) == normTitle(c.Title) && old.Kind == c.Kind && old.ParentID == c.ParentID {
				return CloneCase(old), true, nil
			}
		}
	}
	c.ID = tx.NextID("CASE")
	for i := range c.Tasks {
		c.Tasks[i].ID = fmt.Sprintf("%s-T%d", c.ID, i+1)
	}
	if msg := hierarchy.Violation(tx.d.Cases, hierarchy.Node{ID: c.ID, Kind: c.Kind, ParentID: c.ParentID}); msg != "" {
		return nil, false, errs.BadRequest("%s", msg)
	}
	logActivity(c, tx.actor, "created", c.Kind, c.CreatedAt)
	tx.PutCase(c)
	return c, false, nil
}

func applyTemplate(in *wire.CaseCreate, t *wire.Template) {
	fill := func(dst *string, v string) {
		if *dst == "" {
			*dst = v
		}
	}
	fill(&in.Title, t.Title)
	fill(&in.Summary, t.Summary)
	fill(&in.Status, t.Status)
	fill(&in.Domain, t.Domain)
	fill(&in.Kind, t.Kind)
	in.Labels = append(append([]string(nil), t.Labels...), in.Labels...)
	in.Tags = append(append([]string(nil), t.Tags...), in.Tags...)
	if len(in.Tasks) == 0 {
		for _, title := range t.Tasks {
			in.Tasks = append(in.Tasks, wire.TaskInput{Title: title})
		}
	}
}

// newCase validates a create body into a record without an id.
func newCase(tx *Tx, in wire.CaseCreate) (*wire.Case, error) {
	now := tx.Now()
	c := &wire.Case{
		Title: strings.TrimSpace(in.Title), Summary: in.Summary, Status: in.Status, Domain: in.Domain,
		Kind: in.Kind, ParentID: strings.TrimSpace(in.ParentID), Eta: in.Eta, DueAt: strings.TrimSpace(in.DueAt),
		Tags: cleanList(in.Tags), Labels: cleanList(in.Labels), VaultLinks: cleanList(in.VaultLinks),
		Starred: in.Starred, Position: in.Position, CreatedAt: now, UpdatedAt: now,
	}
	if c.Title == "" {
		return nil, errs.BadRequest("Field 'title' is required.")
	}
	if c.Status == "" {
		c.Status = "todo"
	}
	if c.Domain == "" {
		c.Domain = "work"
	}
	if c.Kind == "" {
		c.Kind = "case"
	}
	for _, err := range []error{
		oneOf("status", c.Status, wire.Lanes), oneOf("domain", c.Domain, wire.Domains),
		oneOf("kind", c.Kind, wire.Kinds), checkDate("dueAt", c.DueAt), checkLabels(tx, c.Labels),
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
		if err := checkDate(fmt.Sprintf("tasks[%d].dueAt", i), t.DueAt); err != nil {
			return nil, err
		}
		c.Tasks = append(c.Tasks, wire.Task{Title: title, Detail: t.Detail, DueAt: t.DueAt, Position: t.Position, CreatedAt: now})
	}
	return c, nil
}

// PatchCase applies a partial update to one case node.
func (s *Store) PatchCase(ctx context.Context, actor, id string, p wire.CasePatch) (*wire.Case, int64, error) {
	var out *wire.Case
	v, err := s.Update(ctx, actor, p.ExpectedVersion, func(tx *Tx) error {
		c, err := patchCaseTx(tx, id, p)
		out = c
		return err
	})
	return out, v, err
}

func patchCaseTx(tx *Tx, id string, p wire.CasePatch) (*wire.Case, error) {
	c, ok := tx.Case(id)
	if !ok {
		return nil, errs.NotFound("case %s not found", id)
	}
	if err := applyCasePatch(tx, c, p, tx.actor); err != nil {
		return nil, err
	}
	return c, nil
}

// PatchCases applies one patch to many case nodes, all or nothing; an error
// names the offending id.
func (s *Store) PatchCases(ctx context.Context, actor string, b wire.CaseBatch) ([]*wire.Case, int64, error) {
	var out []*wire.Case
	if len(cleanList(b.IDs)) == 0 {
		return nil, 0, errs.BadRequest("field 'ids' must list at least one case id")
	}
	expected := b.ExpectedVersion
	if expected == nil {
		expected = b.Patch.ExpectedVersion
	}
	v, err := s.Update(ctx, actor, expected, func(tx *Tx) error {
		cs, err := patchCasesTx(tx, b)
		out = cs
		return err
	})
	return out, v, err
}

func patchCasesTx(tx *Tx, b wire.CaseBatch) ([]*wire.Case, error) {
	ids := cleanList(b.IDs)
	if len(ids) == 0 {
		return nil, errs.BadRequest("field 'ids' must list at least one case id")
	}
	var out []*wire.Case
	for _, id := range ids {
		c, ok := tx.Case(id)
		if !ok {
			return nil, errs.NotFound("case %s not found", id)
		}
		if err := applyCasePatch(tx, c, b.Patch, tx.actor); err != nil {
			return nil, prefixID(id, err)
		}
		out = append(out, c)
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

// applyCasePatch validates and applies p to c (a private copy), logs what
// changed and puts c back. Kind and parent are checked against the tree.
func applyCasePatch(tx *Tx, c *wire.Case, p wire.CasePatch, actor string) error {
	now := tx.Now()
	changed := false
	log := func(verb, detail string) {
		logActivity(c, actor, verb, detail, now)
		changed = true
	}
	text := func(field string, o wire.Opt[string], dst *string, verb string) {
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
			log("title_changed", fmt.Sprintf("%q → %q", old, t))
		}
	}
	if p.Status.Set {
		if p.Status.Null {
			return errs.BadRequest("field 'status' cannot be null")
		}
		if err := oneOf("status", p.Status.V, wire.Lanes); err != nil {
			return err
		}
		if p.Status.V != c.Status {
			old := c.Status
			c.Status = p.Status.V
			log("status_changed", old+" → "+c.Status)
		}
	}
	if p.Domain.Set {
		if p.Domain.Null {
			return errs.BadRequest("field 'domain' cannot be null")
		}
		if err := oneOf("domain", p.Domain.V, wire.Domains); err != nil {
			return err
		}
		if p.Domain.V != c.Domain {
			c.Domain = p.Domain.V
			log("domain_changed", c.Domain)
		}
	}
	if p.DueAt.Set && !p.DueAt.Null {
		if err := checkDate("dueAt", strings.TrimSpace(p.DueAt.V)); err != nil {
			return err
		}
		p.DueAt.V = strings.TrimSpace(p.DueAt.V)
	}
	text("summary", p.Summary, &c.Summary, "summary_changed")
	text("eta", p.Eta, &c.Eta, "eta_changed")
	text("dueAt", p.DueAt, &c.DueAt, "due_changed")
	if p.Tags.Set {
		tags := cleanList(p.Tags.V)
		if !slices.Equal(tags, c.Tags) {
			c.Tags = tags
			log("tags_changed", strings.Join(tags, ", "))
		}
	}
	if p.VaultLinks.Set {
		links := cleanList(p.VaultLinks.V)
		if !slices.Equal(links, c.VaultLinks) {
			c.VaultLinks = links
			log("vault_links_changed", "")
		}
	}
	if p.Labels.Set {
		labels := cleanList(p.Labels.V)
		// Only labels this write adds must exist: a case still carrying a
		// label removed from the catalog stays editable.
		var added []string
		for _, l := range labels {
			if !slices.Contains(c.Labels, l) {
				added = append(added, l)
			}
		}
		if err := checkLabels(tx, added); err != nil {
			return err
		}
		if !slices.Equal(labels, c.Labels) {
			c.Labels = labels
			log("labels_changed", strings.Join(labels, ", "))
		}
	}
	if p.Starred.Set {
		star := p.Starred.V && !p.Starred.Null
		if star != c.Starred {
			c.Starred = star
			if star {
				log("starred", "")
			} else {
				log("unstarred", "")
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
			log("position_changed", "")
		}
	}
	if p.ArchivedAt.Set {
		switch {
		case p.ArchivedAt.Null && c.ArchivedAt != "":
			c.ArchivedAt, c.MergedInto = "", ""
			log("restored", "")
		case !p.ArchivedAt.Null && c.ArchivedAt == "":
			c.ArchivedAt = now
			log("archived", "")
		}
	}
	kind, parent := c.Kind, c.ParentID
	if p.Kind.Set {
		kind = "case"
		if !p.Kind.Null && p.Kind.V != "" {
			kind = p.Kind.V
		}
		if err := oneOf("kind", kind, wire.Kinds); err != nil {
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
		if msg := hierarchy.Violation(tx.d.Cases, hierarchy.Node{ID: c.ID, Kind: kind, ParentID: parent}); msg != "" {
			return errs.BadRequest("%s", msg)
		}
		if kind != c.Kind {
			log("kind_changed", c.Kind+" → "+kind)
			c.Kind = kind
		}
		if parent != c.ParentID {
			log("parent_changed", orNone(c.ParentID)+" → "+orNone(parent))
			c.ParentID = parent
		}
	}
	if changed {
		c.UpdatedAt = now
	}
	tx.PutCase(c)
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// ArchiveCase soft-deletes a case node to the Trash. Its children keep their
// parent.
func (s *Store) ArchiveCase(ctx context.Context, actor, id string) (*wire.Case, int64, error) {
	return s.PatchCase(ctx, actor, id, wire.CasePatch{ArchivedAt: wire.Some("now")})
}

// RestoreCase brings a case node back from the Trash.
func (s *Store) RestoreCase(ctx context.Context, actor, id string) (*wire.Case, int64, error) {
	return s.PatchCase(ctx, actor, id, wire.CasePatch{ArchivedAt: wire.Null[string]()})
}

// DeleteCase removes a case node for good: children are detached (a
// workstream whose initiative is gone becomes an initiative), linked messages
// unlinked, and events and reminders lose their link.
func (s *Store) DeleteCase(ctx context.Context, actor, id string) (int64, error) {
	return s.Update(ctx, actor, nil, func(tx *Tx) error { return deleteCaseTx(tx, id) })
}

func deleteCaseTx(tx *Tx, id string) error {
	if _, ok := tx.Case(id); !ok {
		return errs.NotFound("case %s not found", id)
	}
	removeCases(tx, []string{id}, false)
	return nil
}

// CleanResult reports a clean.
type CleanResult struct {
	Removed         []string `json:"removed"`
	MessagesRemoved int      `json:"messagesRemoved"`
}

// CleanCases purges done cases with their linked emails (an email also linked
// to a reminder is kept and unlinked). Anything not done refuses the whole
// clean. A snapshot is taken first.
func (s *Store) CleanCases(ctx context.Context, actor string, ids []string) (CleanResult, int64, error) {
	ids = cleanList(ids)
	if len(ids) == 0 {
		return CleanResult{}, 0, errs.BadRequest("field 'ids' must list the done cases to clean")
	}
	snap := s.Snapshot()
	for _, id := range ids {
		c := findCase(snap.Cases, id)
		if c == nil {
			return CleanResult{}, 0, errs.NotFound("case %s not found", id)
		}
		if c.Status != "done" {
			return CleanResult{}, 0, errs.BadRequest("%s is not done (status %s): clean purges done cases only", id, c.Status)
		}
	}
	if err := s.TakeSnapshot(); err != nil {
		return CleanResult{}, 0, fmt.Errorf("snapshot before clean: %w", err)
	}
	var res CleanResult
	v, err := s.Update(ctx, actor, nil, func(tx *Tx) error {
		for _, id := range ids { // re-checked inside the critical section
			c, ok := tx.Case(id)
			if !ok {
				return errs.NotFound("case %s not found", id)
			}
			if c.Status != "done" {
				return errs.BadRequest("%s is not done (status %s): clean purges done cases only", id, c.Status)
			}
		}
		res = CleanResult{Removed: ids, MessagesRemoved: removeCases(tx, ids, true)}
		return nil
	})
	return res, v, err
}

func findCase(cases []*wire.Case, id string) *wire.Case {
	for _, c := range cases {
		if c.ID == id {
			return c
		}
	}
	return nil
}

// removeCases deletes the given nodes and repairs everything that pointed at
// them. With purgeMessages, their messages go too unless a reminder holds
// them. It returns how many messages were removed.
func removeCases(tx *Tx, ids []string, purgeMessages bool) int {
	gone := map[string]bool{}
	for _, id := range ids {
		gone[id] = true
	}
	kinds := map[string]string{}
	for _, c := range tx.d.Cases {
		if gone[c.ID] {
			kinds[c.ID] = c.Kind
		}
	}
	for _, c := range tx.d.Cases {
		if gone[c.ID] || !gone[c.ParentID] {
			continue
		}
		child := CloneCase(c)
		detail := "detached: parent " + c.ParentID + " was deleted"
		child.ParentID = ""
		if child.Kind == "workstream" {
			child.Kind = "initiative" // a workstream must sit under an initiative
			logActivity(child, tx.actor, "kind_changed", "workstream → initiative: its initiative was deleted", tx.Now())
		}
		logActivity(child, tx.actor, "parent_changed", detail, tx.Now())
		child.UpdatedAt = tx.Now()
		tx.PutCase(child)
	}
	removed := 0
	for _, m := range tx.d.Messages {
		if !gone[m.CaseID] {
			continue
		}
		if purgeMessages && m.ReminderID == "" {
			tx.DeleteMessage(m.ID)
			removed++
			continue
		}
		cp := *m
		cp.CaseID = ""
		tx.PutMessage(&cp)
	}
	for _, e := range tx.d.Events {
		if gone[e.CaseID] {
			cp := *e
			cp.CaseID, cp.UpdatedAt = "", tx.Now()
			tx.PutEvent(&cp)
		}
	}
	for _, r := range tx.d.Reminders {
		if gone[r.CaseID] {
			cp, _ := tx.Reminder(r.ID)
			cp.CaseID, cp.UpdatedAt = "", tx.Now()
			tx.PutReminder(cp)
		}
	}
	for _, id := range ids {
		tx.DeleteCase(id)
	}
	return removed
}

// MergeCase merges source into target: tasks (with fresh ids), notes,
// messages, tags, labels, events and reminders move to the target; children
// are re-parented to it, or detached and noted when it cannot hold them; the
// source is archived with mergedInto and a note pointing to the target.
func (s *Store) MergeCase(ctx context.Context, actor, sourceID, targetID string) (*wire.Case, int64, error) {
	var out *wire.Case
	v, err := s.Update(ctx, actor, nil, func(tx *Tx) error {
		c, err := mergeCaseTx(tx, sourceID, targetID)
		out = c
		return err
	})
	return out, v, err
}

func mergeCaseTx(tx *Tx, sourceID, targetID string) (*wire.Case, error) {
	targetID = strings.TrimSpace(targetID)
	if targetID == "" {
		return nil, errs.BadRequest("field 'targetId' is required")
	}
	if targetID == sourceID {
		return nil, errs.BadRequest("cannot merge %s into itself", sourceID)
	}
	src, ok := tx.Case(sourceID)
	if !ok {
		return nil, errs.NotFound("case %s not found", sourceID)
	}
	dst, ok := tx.Case(targetID)
	if !ok {
		return nil, errs.NotFound("case %s not found", targetID)
	}
	if dst.ArchivedAt != "" {
		return nil, errs.BadRequest("target %s is archived: restore it first", targetID)
	}
	now := tx.Now()
	for _, t := range src.Tasks {
		t.ID = nextChildID(dst.ID, "T", taskIDs(dst))
		dst.Tasks = append(dst.Tasks, t)
	}
	for _, n := range src.Notes {
		n.ID = nextChildID(dst.ID, "N", noteIDs(dst))
		dst.Notes = append(dst.Notes, n)
	}
	dst.Tags = cleanList(append(dst.Tags, src.Tags...))
	dst.Labels = cleanList(append(dst.Labels, src.Labels...))
	for _, m := range tx.d.Messages {
		if m.CaseID == src.ID {
			cp := *m
			cp.CaseID = dst.ID
			tx.PutMessage(&cp)
		}
	}
	for _, e := range tx.d.Events {
		if e.CaseID == src.ID {
			cp := *e
			cp.CaseID, cp.UpdatedAt = dst.ID, now
			tx.PutEvent(&cp)
		}
	}
	for _, r := range tx.d.Reminders {
		if r.CaseID == src.ID {
			cp, _ := tx.Reminder(r.ID)
			cp.CaseID, cp.UpdatedAt = dst.ID, now
			tx.PutReminder(cp)
		}
	}
	src.Tasks, src.Notes = nil, nil
	src.ArchivedAt, src.MergedInto, src.UpdatedAt = now, dst.ID, now
	src.Notes = append(src.Notes, wire.Note{ID: nextChildID(src.ID, "N", nil), Text: fmt.Sprintf("Merged into %s: use %s.", dst.ID, dst.ID), Actor: tx.actor, CreatedAt: now})
	logActivity(src, tx.actor, "merged_into", dst.ID, now)
	logActivity(dst, tx.actor, "merged_from", src.ID, now)
	dst.UpdatedAt = now
	tx.PutCase(dst)
	tx.PutCase(src)
	// Children follow the source, as far as the target can hold them.
	for _, c := range tx.d.Cases {
		if c.ParentID != src.ID {
			continue
		}
		child := CloneCase(c)
		if msg := hierarchy.Violation(tx.d.Cases, hierarchy.Node{ID: child.ID, Kind: child.Kind, ParentID: dst.ID}); msg == "" {
			child.ParentID = dst.ID
			logActivity(child, tx.actor, "parent_changed", src.ID+" → "+dst.ID+" (merge)", now)
		} else {
			child.ParentID = ""
			if child.Kind == "workstream" {
				child.Kind = "initiative"
			}
			logActivity(child, tx.actor, "parent_changed", src.ID+" → none (merge: "+msg+")", now)
			dst, _ = tx.Case(dst.ID)
			dst.Notes = append(dst.Notes, wire.Note{ID: nextChildID(dst.ID, "N", noteIDs(dst)), Text: fmt.Sprintf("%s (%s) was a child of %s but could not move under %s, so it was detached: %s", child.ID, child.Title, src.ID, dst.ID, msg), Actor: wire.ActorSystem, CreatedAt: now})
			logActivity(dst, wire.ActorSystem, "child_detached", child.ID, now)
			tx.PutCase(dst)
		}
		child.UpdatedAt = now
		tx.PutCase(child)
	}
	out, _ := tx.Case(dst.ID)
	return out, nil
}
