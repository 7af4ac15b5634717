// Package saved holds what the page saves besides records: the board
// preferences (a JSON merge patch), saved views and case templates.
package saved

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/rules/activity"
	"github.com/opsboard/opsboard/board/internal/rules/field"
	"github.com/opsboard/opsboard/board/internal/rules/humanedit"
	"github.com/opsboard/opsboard/board/internal/rules/labels"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// prefViews are the values of the board's operational or strategy toggle.
var prefViews = []string{"operational", "strategy"}

// Prefs is the board preferences object with its defaults filled in.
func Prefs(d *wire.Doc) (map[string]json.RawMessage, error) {
	out := map[string]json.RawMessage{}
	if len(d.Prefs) > 0 {
		if err := json.Unmarshal(d.Prefs, &out); err != nil || out == nil {
			// A hand edit left something other than an object: serve the
			// defaults rather than fail every page load.
			out = map[string]json.RawMessage{}
		}
	}
	if _, ok := out["view"]; !ok {
		out["view"] = json.RawMessage(`"operational"`)
	}
	return out, nil
}

// PatchPrefs merges patch into the preferences as a JSON merge patch (RFC
// 7386): null removes a key, an object merges into an object, anything else
// replaces. view must stay operational or strategy.
func PatchPrefs(ctx context.Context, s *store.Store, actor wire.Actor, expected *int64, patch map[string]json.RawMessage) (map[string]json.RawMessage, int64, error) {
	var out map[string]json.RawMessage
	v, err := s.Update(ctx, actor, expected, func(tx *store.Tx) error {
		cur := map[string]any{}
		if len(tx.Doc().Prefs) > 0 {
			if err := json.Unmarshal(tx.Doc().Prefs, &cur); err != nil || cur == nil {
				cur = map[string]any{}
			}
		}
		for k, raw := range patch {
			if err := field.FreeForm(k, raw); err != nil {
				return err
			}
			var val any
			if err := json.Unmarshal(raw, &val); err != nil {
				return errs.BadRequest("field '%s': %v", k, err)
			}
			if val == nil {
				delete(cur, k)
				continue
			}
			cur[k] = mergePatch(cur[k], val)
		}
		if tz, ok := cur["timezone"]; ok {
			name, _ := tz.(string)
			if _, err := LoadZone(name); err != nil {
				return err
			}
		}
		if w, ok := cur[humanedit.WindowPref]; ok {
			if err := humanedit.CheckWindow(w); err != nil {
				return err
			}
		}
		if view, ok := cur["view"]; ok {
			sv, _ := view.(string)
			if err := field.OneOf("view", sv, prefViews); err != nil {
				return err
			}
		}
		data, err := json.Marshal(cur)
		if err != nil {
			return fmt.Errorf("encode prefs: %w", err)
		}
		if len(data) > field.MaxFreeFormBytes {
			return errs.TooLarge("field 'prefs' would be %d bytes; the preferences may hold at most %d", len(data), field.MaxFreeFormBytes)
		}
		tx.SetPrefs(data)
		out, err = Prefs(tx.Doc())
		return err
	})
	return out, v, err
}

// LoadZone reads an IANA time zone name (Europe/Berlin, UTC) for the
// timezone preference, refusing an empty or unknown one.
func LoadZone(name string) (*time.Location, error) {
	if strings.TrimSpace(name) == "" || name == "Local" {
		return nil, errs.BadRequest("field 'timezone' must be an IANA time zone name such as Europe/Berlin")
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, errs.BadRequest("field 'timezone': unknown time zone %q (use an IANA name such as Europe/Berlin)", name)
	}
	return loc, nil
}

// Zone is the board's time zone: the timezone preference when it names a
// known zone, else def (the machine's zone). A date or time the board stores
// without an offset is a wall-clock time in this zone.
func Zone(d *wire.Doc, def *time.Location) *time.Location {
	var p struct {
		Timezone string `json:"timezone"`
	}
	if len(d.Prefs) > 0 && json.Unmarshal(d.Prefs, &p) == nil && p.Timezone != "" {
		if loc, err := LoadZone(p.Timezone); err == nil {
			return loc
		}
	}
	if def == nil {
		return time.UTC
	}
	return def
}

// mergePatch applies one RFC 7386 merge patch value to a target value.
func mergePatch(target, patch any) any {
	p, ok := patch.(map[string]any)
	if !ok {
		return patch
	}
	t, ok := target.(map[string]any)
	if !ok {
		t = map[string]any{}
	}
	for k, v := range p {
		if v == nil {
			delete(t, k)
			continue
		}
		t[k] = mergePatch(t[k], v)
	}
	return t
}

// jsonObject checks that raw is a JSON object within the free-form limits
// and returns it compacted.
func jsonObject(name string, raw json.RawMessage) (json.RawMessage, error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, errs.BadRequest("field '%s' must be a JSON object", name)
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, trimmed); err != nil {
		return nil, errs.BadRequest("field '%s' must be a JSON object: %v", name, err)
	}
	if err := field.FreeForm(name, buf.Bytes()); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// SaveView creates a saved view, or, when a view of the same name (compared
// like titles) exists, replaces its filters; created tells which.
func SaveView(ctx context.Context, s *store.Store, actor wire.Actor, in wire.ViewInput) (out *wire.View, created bool, version int64, err error) {
	version, err = s.Update(ctx, actor, nil, func(tx *store.Tx) error {
		name := field.OptText(in.Name, "")
		if name == "" {
			return errs.BadRequest("Field 'name' is required.")
		}
		filters := json.RawMessage(`{}`)
		if in.Filters.Set && !in.Filters.Null {
			f, err := jsonObject("filters", in.Filters.V)
			if err != nil {
				return err
			}
			filters = f
		}
		now := tx.Stamp()
		for _, v := range tx.Doc().Views.All() {
			if field.NormTitle(v.Name) == field.NormTitle(name) {
				out, _ = tx.Views().Get(v.ID)
				out.Name, out.Filters, out.UpdatedAt = name, filters, now
				tx.Views().Put(out)
				return nil
			}
		}
		out = &wire.View{ID: tx.NextID("VIEW"), Name: name, Filters: filters, CreatedAt: now, UpdatedAt: now}
		created = true
		tx.Views().Put(out)
		return nil
	})
	return out, created, version, err
}

// PatchView renames a saved view or replaces its filters.
func PatchView(ctx context.Context, s *store.Store, actor wire.Actor, id string, in wire.ViewInput) (*wire.View, int64, error) {
	var out *wire.View
	v, err := s.Update(ctx, actor, nil, func(tx *store.Tx) error {
		view, ok := tx.Views().Get(id)
		if !ok {
			return errs.NotFound("view %s not found", id)
		}
		before := humanedit.Fields(view)
		if in.Name.Set {
			name := field.OptText(in.Name, "")
			if name == "" {
				return errs.BadRequest("field 'name' cannot be empty")
			}
			for _, other := range tx.Doc().Views.All() {
				if other.ID != id && field.NormTitle(other.Name) == field.NormTitle(name) {
					return errs.BadRequest("a view named %q exists already (%s)", other.Name, other.ID)
				}
			}
			view.Name = name
		}
		if in.Filters.Set {
			view.Filters = json.RawMessage(`{}`)
			if !in.Filters.Null {
				f, err := jsonObject("filters", in.Filters.V)
				if err != nil {
					return err
				}
				view.Filters = f
			}
		}
		w := humanedit.For(tx, view.ID, view.HumanEdits, before, view)
		w.Override = in.Override
		edits, over, err := w.Apply()
		if err != nil {
			return err
		}
		if over != nil {
			activity.Override(tx, "", view.ID, over.Overridden())
		}
		view.HumanEdits, view.UpdatedAt = edits, tx.Stamp()
		tx.Views().Put(view)
		out = view
		return nil
	})
	return out, v, err
}

// DeleteView removes a saved view.
func DeleteView(ctx context.Context, s *store.Store, actor wire.Actor, id string) (int64, error) {
	return s.Update(ctx, actor, nil, func(tx *store.Tx) error {
		if _, ok := tx.Views().Get(id); !ok {
			return errs.NotFound("view %s not found", id)
		}
		tx.Views().Delete(id)
		return nil
	})
}

// SaveTemplate creates a case template, or, when a template of the same
// name exists, replaces it whole; created tells which.
func SaveTemplate(ctx context.Context, s *store.Store, actor wire.Actor, in wire.TemplateInput) (out *wire.Template, created bool, version int64, err error) {
	version, err = s.Update(ctx, actor, nil, func(tx *store.Tx) error {
		name := field.OptText(in.Name, "")
		if name == "" {
			return errs.BadRequest("Field 'name' is required.")
		}
		now := tx.Stamp()
		t := &wire.Template{Name: name, CreatedAt: now}
		for _, old := range tx.Doc().Templates.All() {
			if field.NormTitle(old.Name) == field.NormTitle(name) {
				t.ID, t.CreatedAt = old.ID, old.CreatedAt
			}
		}
		if err := applyTemplateInput(tx, t, in, true); err != nil {
			return err
		}
		if err := templateSize(t); err != nil {
			return err
		}
		if t.ID == "" {
			t.ID = tx.NextID("TPL")
			created = true
		}
		t.UpdatedAt = now
		tx.Templates().Put(t)
		out = t
		return nil
	})
	return out, created, version, err
}

// PatchTemplate edits a case template; null clears a field.
func PatchTemplate(ctx context.Context, s *store.Store, actor wire.Actor, id string, in wire.TemplateInput) (*wire.Template, int64, error) {
	var out *wire.Template
	v, err := s.Update(ctx, actor, nil, func(tx *store.Tx) error {
		t, ok := tx.Templates().Get(id)
		if !ok {
			return errs.NotFound("template %s not found", id)
		}
		before := humanedit.Fields(t)
		if in.Name.Set {
			name := field.OptText(in.Name, "")
			if name == "" {
				return errs.BadRequest("field 'name' cannot be empty")
			}
			for _, other := range tx.Doc().Templates.All() {
				if other.ID != id && field.NormTitle(other.Name) == field.NormTitle(name) {
					return errs.BadRequest("a template named %q exists already (%s)", other.Name, other.ID)
				}
			}
			t.Name = name
		}
		if err := applyTemplateInput(tx, t, in, false); err != nil {
			return err
		}
		if err := templateSize(t); err != nil {
			return err
		}
		w := humanedit.For(tx, t.ID, t.HumanEdits, before, t)
		w.Override = in.Override
		edits, over, err := w.Apply()
		if err != nil {
			return err
		}
		if over != nil {
			activity.Override(tx, "", t.ID, over.Overridden())
		}
		t.HumanEdits, t.UpdatedAt = edits, tx.Stamp()
		tx.Templates().Put(t)
		out = t
		return nil
	})
	return out, v, err
}

// applyTemplateInput validates and sets the case fields of a template. With
// whole, every label must exist; on a patch only the labels it adds must.
func applyTemplateInput(tx *store.Tx, t *wire.Template, in wire.TemplateInput, whole bool) error {
	t.Title = field.OptText(in.Title, t.Title)
	t.Summary = field.OptText(in.Summary, t.Summary)
	t.Status = wire.Lane(field.OptText(in.Status, string(t.Status)))
	t.Domain = wire.Domain(field.OptText(in.Domain, string(t.Domain)))
	t.Kind = wire.Kind(field.OptText(in.Kind, string(t.Kind)))
	for _, f := range []struct {
		name, v string
		allowed []string
	}{{"status", string(t.Status), wire.Lanes()}, {"domain", string(t.Domain), wire.Domains()}, {"kind", string(t.Kind), wire.Kinds()}} {
		if f.v != "" {
			if err := field.OneOf(f.name, f.v, f.allowed); err != nil {
				return err
			}
		}
	}
	list := func(o wire.Opt[[]string], cur []string) []string {
		if !o.Set {
			return cur
		}
		return field.CleanList(o.V) // null decodes to an empty list
	}
	ids := list(in.Labels, t.Labels)
	check := ids
	if !whole {
		check = field.Added(ids, t.Labels)
	}
	if err := labels.Check(tx, check); err != nil {
		return err
	}
	t.Labels = ids
	t.Tags = list(in.Tags, t.Tags)
	t.Tasks = list(in.Tasks, t.Tasks)
	return nil
}

// templateSize bounds a template as a whole like any free-form value: its
// text and lists are stored as sent.
func templateSize(t *wire.Template) error {
	raw, err := json.Marshal(t)
	if err != nil {
		return fmt.Errorf("encode template: %w", err)
	}
	if len(raw) > field.MaxFreeFormBytes {
		return errs.TooLarge("field 'template' would be %d bytes; a template may hold at most %d", len(raw), field.MaxFreeFormBytes)
	}
	return nil
}

// DeleteTemplate removes a case template; cases made from it are unaffected.
func DeleteTemplate(ctx context.Context, s *store.Store, actor wire.Actor, id string) (int64, error) {
	return s.Update(ctx, actor, nil, func(tx *store.Tx) error {
		if _, ok := tx.Templates().Get(id); !ok {
			return errs.NotFound("template %s not found", id)
		}
		tx.Templates().Delete(id)
		return nil
	})
}
