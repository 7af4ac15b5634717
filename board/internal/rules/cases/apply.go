package cases

import (
	"fmt"
	"slices"
	"strings"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/rules/field"
	"github.com/opsboard/opsboard/board/internal/rules/hierarchy"
	"github.com/opsboard/opsboard/board/internal/rules/labels"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// change is one activity entry a patch logs on the case it changed.
type change struct {
	verb   wire.Verb
	detail string
}

// casePatch is a patch applying itself to one case node inside a write.
type casePatch struct {
	wire.CasePatch
	tx    *store.Tx                  // the write: its stamp and label catalog
	check func(hierarchy.Node) error // judges a new kind or parent
}

// Apply validates the patch against c and changes c field group by field
// group, in a fixed order so the first bad field is the one reported. It
// returns what changed, in the order to log it; on an error c is half
// changed and must be dropped.
func (p casePatch) Apply(c *wire.Case) ([]change, error) {
	var out []change
	for _, group := range []func(*wire.Case) ([]change, error){
		p.title, p.status, p.domain, p.texts, p.lists, p.labels, p.star, p.position, p.archive, p.tree,
	} {
		ch, err := group(c)
		if err != nil {
			return nil, err
		}
		out = append(out, ch...)
	}
	return out, nil
}

func (p casePatch) title(c *wire.Case) ([]change, error) {
	if !p.Title.Set {
		return nil, nil
	}
	t := strings.TrimSpace(p.Title.V)
	if p.Title.Null || t == "" {
		return nil, errs.BadRequest("field 'title' cannot be empty")
	}
	if t == c.Title {
		return nil, nil
	}
	old := c.Title
	c.Title = t
	return []change{{wire.VerbTitleChanged, fmt.Sprintf("%q → %q", old, t)}}, nil
}

func (p casePatch) status(c *wire.Case) ([]change, error) {
	if !p.Status.Set {
		return nil, nil
	}
	if p.Status.Null {
		return nil, errs.BadRequest("field 'status' cannot be null")
	}
	if err := field.OneOf("status", p.Status.V, wire.Lanes()); err != nil {
		return nil, err
	}
	st := wire.Lane(p.Status.V)
	if st == c.Status {
		return nil, nil
	}
	old := c.Status
	c.Status = st
	return []change{{wire.VerbStatusChanged, string(old + " → " + c.Status)}}, nil
}

func (p casePatch) domain(c *wire.Case) ([]change, error) {
	if !p.Domain.Set {
		return nil, nil
	}
	if p.Domain.Null {
		return nil, errs.BadRequest("field 'domain' cannot be null")
	}
	if err := field.OneOf("domain", p.Domain.V, wire.Domains()); err != nil {
		return nil, err
	}
	dom := wire.Domain(p.Domain.V)
	if dom == c.Domain {
		return nil, nil
	}
	c.Domain = dom
	return []change{{wire.VerbDomainChanged, string(c.Domain)}}, nil
}

// texts applies the free-text fields; their entries name the field, not
// the text, which can be long.
func (p casePatch) texts(c *wire.Case) ([]change, error) {
	due := p.DueAt
	if due.Set && !due.Null {
		due.V = strings.TrimSpace(due.V)
		if err := field.CheckDate("dueAt", due.V); err != nil {
			return nil, err
		}
	}
	var out []change
	for _, t := range []struct {
		name string
		o    wire.Opt[string]
		dst  *string
		verb wire.Verb
	}{
		{"summary", p.Summary, &c.Summary, wire.VerbSummaryChanged},
		{"eta", p.Eta, &c.Eta, wire.VerbEtaChanged},
		{"dueAt", due, &c.DueAt, wire.VerbDueChanged},
	} {
		if !t.o.Set {
			continue
		}
		v := t.o.V
		if t.o.Null {
			v = ""
		}
		if v != *t.dst {
			*t.dst = v
			out = append(out, change{t.verb, t.name})
		}
	}
	return out, nil
}

// lists applies tags and vault links, each cleaned of blanks and repeats.
func (p casePatch) lists(c *wire.Case) ([]change, error) {
	var out []change
	if p.Tags.Set {
		if tags := field.CleanList(p.Tags.V); !slices.Equal(tags, c.Tags) {
			c.Tags = tags
			out = append(out, change{wire.VerbTagsChanged, strings.Join(tags, ", ")})
		}
	}
	if p.VaultLinks.Set {
		if links := field.CleanList(p.VaultLinks.V); !slices.Equal(links, c.VaultLinks) {
			c.VaultLinks = links
			out = append(out, change{wire.VerbVaultLinksChanged, ""})
		}
	}
	return out, nil
}

func (p casePatch) labels(c *wire.Case) ([]change, error) {
	if !p.Labels.Set {
		return nil, nil
	}
	ids := field.CleanList(p.Labels.V)
	// Only labels this write adds must exist: a case still carrying a
	// label removed from the catalog stays editable.
	if err := labels.Check(p.tx, field.Added(ids, c.Labels)); err != nil {
		return nil, err
	}
	if slices.Equal(ids, c.Labels) {
		return nil, nil
	}
	c.Labels = ids
	return []change{{wire.VerbLabelsChanged, strings.Join(ids, ", ")}}, nil
}

func (p casePatch) star(c *wire.Case) ([]change, error) {
	if !p.Starred.Set {
		return nil, nil
	}
	star := p.Starred.V && !p.Starred.Null
	if star == c.Starred {
		return nil, nil
	}
	c.Starred = star
	if star {
		return []change{{wire.VerbStarred, ""}}, nil
	}
	return []change{{wire.VerbUnstarred, ""}}, nil
}

func (p casePatch) position(c *wire.Case) ([]change, error) {
	if !p.Position.Set {
		return nil, nil
	}
	var pos *float64
	if !p.Position.Null {
		pos = &p.Position.V
	}
	if (pos == nil) == (c.Position == nil) && (pos == nil || *pos == *c.Position) {
		return nil, nil
	}
	c.Position = pos
	return []change{{wire.VerbPositionChanged, ""}}, nil
}

// archive moves the case to the Trash or back; a restore also forgets the
// merge that archived it.
func (p casePatch) archive(c *wire.Case) ([]change, error) {
	if !p.ArchivedAt.Set {
		return nil, nil
	}
	switch {
	case p.ArchivedAt.Null && c.ArchivedAt != "":
		c.ArchivedAt, c.MergedInto = "", ""
		return []change{{wire.VerbRestored, ""}}, nil
	case !p.ArchivedAt.Null && c.ArchivedAt == "":
		c.ArchivedAt = p.tx.Stamp()
		return []change{{wire.VerbArchived, ""}}, nil
	}
	return nil, nil
}

// tree applies a new kind and parent together, after check has judged the
// node's new place.
func (p casePatch) tree(c *wire.Case) ([]change, error) {
	if !p.Kind.Set && !p.ParentID.Set {
		return nil, nil
	}
	kind, parent := c.Kind, c.ParentID
	if p.Kind.Set {
		kind = wire.KindCase
		if !p.Kind.Null && p.Kind.V != "" {
			kind = wire.Kind(p.Kind.V)
		}
		if err := field.OneOf("kind", kind, wire.Kinds()); err != nil {
			return nil, err
		}
	}
	if p.ParentID.Set {
		parent = ""
		if !p.ParentID.Null {
			parent = strings.TrimSpace(p.ParentID.V)
		}
	}
	if err := p.check(hierarchy.Node{ID: c.ID, Kind: kind, ParentID: parent}); err != nil {
		return nil, err
	}
	var out []change
	if kind != c.Kind {
		out = append(out, change{wire.VerbKindChanged, string(c.Kind + " → " + kind)})
		c.Kind = kind
	}
	if parent != c.ParentID {
		out = append(out, change{wire.VerbParentChanged, orNone(c.ParentID) + " → " + orNone(parent)})
		c.ParentID = parent
	}
	return out, nil
}
