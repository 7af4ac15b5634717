package store

import (
	"context"
	"slices"
	"strings"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/labels"
	"github.com/opsboard/opsboard/shared/wire"
)

// Bundles are the built-in label bundles this store installs from.
func (s *Store) Bundles() []labels.Bundle { return s.cfg.Bundles }

// SeedUniversal installs the universal bundle into a new store.
func SeedUniversal(bundles []labels.Bundle) func(tx *Tx) error {
	return func(tx *Tx) error {
		b, ok := labels.Find(bundles, "universal")
		if !ok {
			return nil
		}
		_, err := installBundle(tx, b)
		return err
	}
}

func sources(d *wire.Doc) wire.LabelSources {
	if d.LabelSources == nil {
		return wire.LabelSources{}
	}
	return *d.LabelSources
}

// syncLabels makes the draft's catalog equal to cat, record by record, so the
// journal holds only what changed.
func syncLabels(tx *Tx, cat []*wire.LabelDef) {
	old := map[string]wire.LabelDef{}
	for _, l := range tx.d.Labels {
		old[l.ID] = *l
	}
	keep := map[string]bool{}
	for _, l := range cat {
		keep[l.ID] = true
		if o, ok := old[l.ID]; !ok || o != *l {
			cp := *l
			tx.PutLabel(&cp)
		}
	}
	for id := range old {
		if !keep[id] {
			tx.DeleteLabel(id)
		}
	}
}

func installBundle(tx *Tx, b labels.Bundle) ([]labels.Conflict, error) {
	cat, src, conflicts := labels.Install(tx.d.Labels, sources(tx.d), b)
	syncLabels(tx, cat)
	tx.SetLabelSources(&src)
	return conflicts, nil
}

func checkColor(c string) error {
	if c == "" || slices.Contains(wire.LabelColors, c) {
		return nil
	}
	return errs.BadRequest("field 'color' must be one of %s, not %q", strings.Join(wire.LabelColors, ", "), c)
}

// CreateLabel adds a custom label; its id is minted from the title and
// de-duplicated (-2, -3, ...).
func (s *Store) CreateLabel(ctx context.Context, actor, title, description, color string) (*wire.LabelDef, int64, error) {
	var out *wire.LabelDef
	v, err := s.Update(ctx, actor, nil, func(tx *Tx) error {
		title = strings.TrimSpace(title)
		if title == "" {
			return errs.BadRequest("Field 'title' is required.")
		}
		if err := checkColor(color); err != nil {
			return err
		}
		if color == "" {
			color = "gray"
		}
		id := labels.MintID(title, func(id string) bool { _, ok := tx.Label(id); return ok })
		out = &wire.LabelDef{ID: id, Title: title, Description: strings.TrimSpace(description), Color: color}
		tx.PutLabel(out)
		src := sources(tx.d)
		src.Custom = append(slices.Clone(src.Custom), id)
		tx.SetLabelSources(&src)
		return nil
	})
	return out, v, err
}

// LabelPatch edits a catalog label.
type LabelPatch struct {
	Title       wire.Opt[string] `json:"title,omitzero"`
	Description wire.Opt[string] `json:"description,omitzero"`
	Color       wire.Opt[string] `json:"color,omitzero"`
	Actor       string           `json:"actor,omitempty"`
}

// PatchLabel edits a label's title, description or color.
func (s *Store) PatchLabel(ctx context.Context, actor, id string, p LabelPatch) (*wire.LabelDef, int64, error) {
	var out *wire.LabelDef
	v, err := s.Update(ctx, actor, nil, func(tx *Tx) error {
		l, ok := tx.Label(id)
		if !ok {
			return errs.NotFound("label %s not found", id)
		}
		if p.Title.Set {
			t := strings.TrimSpace(p.Title.V)
			if t == "" {
				return errs.BadRequest("field 'title' cannot be empty")
			}
			l.Title = t
		}
		if p.Description.Set {
			l.Description = strings.TrimSpace(p.Description.V)
		}
		if p.Color.Set {
			if err := checkColor(p.Color.V); err != nil || p.Color.V == "" {
				return errs.BadRequest("field 'color' must be one of %s", strings.Join(wire.LabelColors, ", "))
			}
			l.Color = p.Color.V
		}
		tx.PutLabel(l)
		out = l
		return nil
	})
	return out, v, err
}

// DeleteLabel removes a label from the catalog (and from every bundle's
// ownership). With scrub it is also stripped from every case and reminder;
// without, references stay and show as unknown.
func (s *Store) DeleteLabel(ctx context.Context, actor, id string, scrub bool) (int64, error) {
	return s.Update(ctx, actor, nil, func(tx *Tx) error {
		if _, ok := tx.Label(id); !ok {
			return errs.NotFound("label %s not found", id)
		}
		tx.DeleteLabel(id)
		src := sources(tx.d)
		next := wire.LabelSources{Custom: slices.DeleteFunc(slices.Clone(src.Custom), func(x string) bool { return x == id })}
		if len(src.Bundles) > 0 {
			next.Bundles = map[string][]string{}
			for b, ids := range src.Bundles {
				next.Bundles[b] = slices.DeleteFunc(slices.Clone(ids), func(x string) bool { return x == id })
			}
		}
		tx.SetLabelSources(&next)
		if scrub {
			scrubLabels(tx, []string{id})
		}
		return nil
	})
}

// scrubLabels strips ids from every case and reminder that carries them.
func scrubLabels(tx *Tx, ids []string) {
	gone := func(l string) bool { return slices.Contains(ids, l) }
	for _, c := range tx.d.Cases {
		if !slices.ContainsFunc(c.Labels, gone) {
			continue
		}
		cp := CloneCase(c)
		cp.Labels = slices.DeleteFunc(cp.Labels, gone)
		cp.UpdatedAt = tx.Now()
		logActivity(cp, tx.actor, "labels_changed", "removed "+strings.Join(ids, ", ")+" (label deleted)", tx.Now())
		tx.PutCase(cp)
	}
	for _, r := range tx.d.Reminders {
		if !slices.ContainsFunc(r.Labels, gone) {
			continue
		}
		cp, _ := tx.Reminder(r.ID)
		cp.Labels = slices.DeleteFunc(cp.Labels, gone)
		if len(cp.Labels) == 0 {
			cp.Labels = nil
		}
		cp.UpdatedAt = tx.Now()
		tx.PutReminder(cp)
	}
}

// InstallResult reports a bundle install.
type InstallResult struct {
	Bundle    string             `json:"bundle"`
	Added     []string           `json:"added"`
	Conflicts []labels.Conflict  `json:"conflicts"`
	Labels    []*wire.LabelDef   `json:"-"`
	Sources   *wire.LabelSources `json:"-"`
}

// InstallBundle unions a built-in bundle into the catalog; idempotent. An id
// already present with another meaning keeps its definition and is reported.
func (s *Store) InstallBundle(ctx context.Context, actor, id string) (InstallResult, int64, error) {
	res := InstallResult{Bundle: id, Added: []string{}, Conflicts: []labels.Conflict{}}
	v, err := s.Update(ctx, actor, nil, func(tx *Tx) error {
		b, ok := labels.Find(s.cfg.Bundles, id)
		if !ok {
			return errs.NotFound("bundle %s not found", id)
		}
		before := map[string]bool{}
		for _, l := range tx.d.Labels {
			before[l.ID] = true
		}
		conflicts, err := installBundle(tx, b)
		if err != nil {
			return err
		}
		for _, l := range tx.d.Labels {
			if !before[l.ID] {
				res.Added = append(res.Added, l.ID)
			}
		}
		if conflicts != nil {
			res.Conflicts = conflicts
		}
		return nil
	})
	return res, v, err
}

// UninstallBundle removes the labels only this bundle owns; with scrub
// (the default) the removed ids are stripped from cases and reminders.
func (s *Store) UninstallBundle(ctx context.Context, actor, id string, scrub bool) ([]string, int64, error) {
	removed := []string{}
	v, err := s.Update(ctx, actor, nil, func(tx *Tx) error {
		if _, ok := labels.Find(s.cfg.Bundles, id); !ok {
			return errs.NotFound("bundle %s not found", id)
		}
		cat, src, gone := labels.Uninstall(tx.d.Labels, sources(tx.d), id)
		syncLabels(tx, cat)
		tx.SetLabelSources(&src)
		if gone != nil {
			removed = gone
		}
		if scrub && len(gone) > 0 {
			scrubLabels(tx, gone)
		}
		return nil
	})
	return removed, v, err
}
