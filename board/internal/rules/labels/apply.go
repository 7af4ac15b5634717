package labels

import (
	"context"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/rules/activity"
	"github.com/opsboard/opsboard/board/internal/rules/humanedit"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// SeedUniversal installs the universal bundle into a new store.
func SeedUniversal(bundles []Bundle) func(tx *store.Tx) error {
	return func(tx *store.Tx) error {
		b, ok := Find(bundles, "universal")
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
func syncLabels(tx *store.Tx, cat []*wire.LabelDef) {
	old := map[string]wire.LabelDef{}
	for _, l := range tx.Doc().Labels.All() {
		old[l.ID] = *l
	}
	keep := map[string]bool{}
	for _, l := range cat {
		keep[l.ID] = true
		if o, ok := old[l.ID]; !ok || !reflect.DeepEqual(o, *l) {
			cp := *l
			tx.Labels().Put(&cp)
		}
	}
	var drop []string
	for id := range old {
		if !keep[id] {
			drop = append(drop, id)
		}
	}
	tx.Labels().DeleteMany(drop)
}

func installBundle(tx *store.Tx, b Bundle) ([]Conflict, error) {
	cat, src, conflicts := Install(tx.Doc().Labels.Slice(), sources(tx.Doc()), b)
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

// Create adds a custom label; its id is minted from the title and
// de-duplicated (-2, -3, ...).
func Create(ctx context.Context, s *store.Store, actor wire.Actor, title, description, color string) (*wire.LabelDef, int64, error) {
	return store.Do(ctx, s, actor, nil, func(tx *store.Tx) (*wire.LabelDef, error) { return CreateTx(tx, "", title, description, color) })
}

// CreateTx is Create inside a write. A non-empty id that the catalog does
// not hold yet is kept (an import of the board's own export keeps its ids);
// otherwise the id is minted from the title.
func CreateTx(tx *store.Tx, id, title, description, color string) (*wire.LabelDef, error) {
	title = strings.TrimSpace(title)
	if title == "" {
		return nil, errs.BadRequest("Field 'title' is required.")
	}
	if err := checkColor(color); err != nil {
		return nil, err
	}
	if color == "" {
		color = "gray"
	}
	taken := func(id string) bool { _, ok := tx.Labels().Get(id); return ok }
	if id == "" || taken(id) || Kebab(id) != id {
		id = MintID(title, taken)
	}
	out := &wire.LabelDef{ID: id, Title: title, Description: strings.TrimSpace(description), Color: color}
	tx.Labels().Put(out)
	src := sources(tx.Doc())
	src.Custom = append(slices.Clone(src.Custom), id)
	tx.SetLabelSources(&src)
	return out, nil
}

// Patch edits a label's title, description or color.
func Patch(ctx context.Context, s *store.Store, actor wire.Actor, id string, p wire.LabelPatch) (*wire.LabelDef, int64, error) {
	var out *wire.LabelDef
	v, err := s.Update(ctx, actor, nil, func(tx *store.Tx) error {
		l, ok := tx.Labels().Get(id)
		if !ok {
			return errs.NotFound("label %s not found", id)
		}
		before := humanedit.Fields(l)
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
		w := humanedit.For(tx, l.ID, l.HumanEdits, before, l)
		w.Override = p.Override
		edits, over, err := w.Apply()
		if err != nil {
			return err
		}
		if over != nil {
			activity.Override(tx, "", l.ID, over.Overridden())
		}
		l.HumanEdits = edits
		tx.Labels().Put(l)
		out = l
		return nil
	})
	return out, v, err
}

// Delete removes a label from the catalog (and from every bundle's
// ownership). With scrub it is also stripped from every case and reminder;
// without, references stay and show as unknown.
func Delete(ctx context.Context, s *store.Store, actor wire.Actor, id string, scrub bool) (int64, error) {
	return s.Update(ctx, actor, nil, func(tx *store.Tx) error {
		if _, ok := tx.Labels().Get(id); !ok {
			return errs.NotFound("label %s not found", id)
		}
		tx.Labels().Delete(id)
		src := sources(tx.Doc())
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
func scrubLabels(tx *store.Tx, ids []string) {
	set := make(map[string]bool, len(ids))
	for _, id := range ids {
		set[id] = true
	}
	gone := func(l string) bool { return set[l] }
	for _, c := range tx.Doc().Cases.All() {
		if !slices.ContainsFunc(c.Labels, gone) {
			continue
		}
		cp, _ := tx.Cases().Get(c.ID)
		cp.Labels = slices.DeleteFunc(cp.Labels, gone)
		cp.UpdatedAt = tx.Stamp()
		activity.Log(cp, tx.Actor(), wire.VerbLabelsChanged, "removed "+strings.Join(ids, ", ")+" (label deleted)", tx.Stamp())
		tx.Cases().Put(cp)
	}
	for _, r := range tx.Doc().Reminders.All() {
		if !slices.ContainsFunc(r.Labels, gone) {
			continue
		}
		cp, _ := tx.Reminders().Get(r.ID)
		cp.Labels = slices.DeleteFunc(cp.Labels, gone)
		if len(cp.Labels) == 0 {
			cp.Labels = nil
		}
		cp.UpdatedAt = tx.Stamp()
		tx.Reminders().Put(cp)
	}
}

// InstallResult reports a bundle install.
type InstallResult struct {
	Bundle    string             `json:"bundle"`
	Added     []string           `json:"added"`
	Conflicts []Conflict         `json:"conflicts"`
	Labels    []*wire.LabelDef   `json:"-"`
	Sources   *wire.LabelSources `json:"-"`
}

// InstallBundle unions a built-in bundle into the catalog; idempotent. An id
// already present with another meaning keeps its definition and is reported.
func InstallBundle(ctx context.Context, s *store.Store, bundles []Bundle, actor wire.Actor, id string) (InstallResult, int64, error) {
	res := InstallResult{Bundle: id, Added: []string{}, Conflicts: []Conflict{}}
	v, err := s.Update(ctx, actor, nil, func(tx *store.Tx) error {
		b, ok := Find(bundles, id)
		if !ok {
			return errs.NotFound("bundle %s not found", id)
		}
		before := map[string]bool{}
		for _, l := range tx.Doc().Labels.All() {
			before[l.ID] = true
		}
		conflicts, err := installBundle(tx, b)
		if err != nil {
			return err
		}
		for _, l := range tx.Doc().Labels.All() {
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
func UninstallBundle(ctx context.Context, s *store.Store, bundles []Bundle, actor wire.Actor, id string, scrub bool) ([]string, int64, error) {
	removed := []string{}
	v, err := s.Update(ctx, actor, nil, func(tx *store.Tx) error {
		if _, ok := Find(bundles, id); !ok {
			return errs.NotFound("bundle %s not found", id)
		}
		cat, src, gone := Uninstall(tx.Doc().Labels.Slice(), sources(tx.Doc()), id)
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

// Check refuses label ids missing from the catalog, naming them and the
// valid set.
func Check(tx *store.Tx, ids []string) error {
	known := map[string]bool{}
	for _, l := range tx.Doc().Labels.All() {
		known[l.ID] = true
	}
	var unknown []string
	for _, id := range ids {
		if !known[id] {
			unknown = append(unknown, id)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	valid := make([]string, 0, len(known))
	for id := range known {
		valid = append(valid, id)
	}
	sort.Strings(valid)
	return errs.BadRequest("unknown label id(s): %s. Valid label ids: %s", strings.Join(unknown, ", "), strings.Join(valid, ", "))
}
