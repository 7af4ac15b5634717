package cases

import (
	"context"
	"fmt"
	"strings"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/rules/activity"
	"github.com/opsboard/opsboard/board/internal/rules/field"
	"github.com/opsboard/opsboard/board/internal/rules/hierarchy"
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
		for _, old := range tx.Doc().Cases.All() {
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
