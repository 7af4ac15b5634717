// Package priorities holds the priority notes of the board and the
// Priorities view: the notes in order and the starred nodes by tier.
package priorities

import (
	"context"
	"encoding/json"
	"sort"
	"strings"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/rules/activity"
	"github.com/opsboard/opsboard/board/internal/rules/field"
	"github.com/opsboard/opsboard/board/internal/rules/humanedit"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// Create adds a priority note. The agent sending the same note twice makes
// one: a priority note of the same text is the answer, with existing true,
// and nothing is written.
func Create(ctx context.Context, s *store.Store, actor wire.Actor, in wire.PriorityCreate) (*wire.Priority, bool, int64, error) {
	return store.CreateOrFind(ctx, s, actor, func(tx *store.Tx) (*wire.Priority, bool, error) {
		return CreateTx(tx, actor, in)
	})
}

// CreateTx is Create within a write; found is true when the agent's
// priority note was already there (nothing is written then).
func CreateTx(tx *store.Tx, actor wire.Actor, in wire.PriorityCreate) (*wire.Priority, bool, error) {
	text := strings.TrimSpace(in.Text)
	if text == "" {
		return nil, false, errs.BadRequest("Field 'text' is required.")
	}
	if actor == wire.ActorAgent {
		for _, p := range tx.Doc().Priorities.All() {
			if strings.TrimSpace(p.Text) == text {
				return p, true, nil
			}
		}
	}
	now := tx.Stamp()
	out := &wire.Priority{ID: tx.NextID("PRI"), Text: text, Position: in.Position, CreatedAt: now, UpdatedAt: now}
	tx.Priorities().Put(out)
	return out, false, nil
}

// Patch edits a priority note. Empty or whitespace text is ignored
// (the old text stays); a position that is not a number clears it.
func Patch(ctx context.Context, s *store.Store, actor wire.Actor, id string, p wire.PriorityPatch) (*wire.Priority, int64, error) {
	var out *wire.Priority
	v, err := s.Update(ctx, actor, p.ExpectedVersion, func(tx *store.Tx) error {
		pr, ok := tx.Priorities().Get(id)
		if !ok {
			return errs.NotFound("priority %s not found", id)
		}
		old := *pr
		before := humanedit.Fields(&old)
		if t := field.OptText(p.Text, ""); t != "" {
			pr.Text = t
		}
		if p.Position.Set {
			pr.Position = nil
			var n float64
			if !p.Position.Null && json.Unmarshal(p.Position.V, &n) == nil {
				pr.Position = &n
			}
		}
		if pr.Text != old.Text || !samePosition(pr.Position, old.Position) {
			pr.UpdatedAt = tx.Stamp()
		}
		w := humanedit.For(tx, pr.ID, pr.HumanEdits, before, pr)
		w.Override = p.Override
		edits, over, err := w.Apply()
		if err != nil {
			return err
		}
		if over != nil {
			activity.Override(tx, "", pr.ID, over.Overridden())
		}
		pr.HumanEdits = edits
		tx.Priorities().Put(pr)
		out = pr
		return nil
	})
	return out, v, err
}

func samePosition(a, b *float64) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

// Delete removes a priority note for good.
func Delete(ctx context.Context, s *store.Store, actor wire.Actor, id string) (int64, error) {
	return s.Update(ctx, actor, nil, func(tx *store.Tx) error {
		pr, ok := tx.Priorities().Get(id)
		if !ok {
			return errs.NotFound("priority %s not found", id)
		}
		if err := humanedit.Removal(tx, pr.ID, pr.HumanEdits, pr); err != nil {
			return err
		}
		tx.Priorities().Delete(id)
		return nil
	})
}

// List returns the notes by position ascending (absent last, ties by
// createdAt) and the starred nodes: the non-archived starred cases by tier
// (initiative, workstream, case), then most recently updated first.
func List(d *wire.Doc) (notes []*wire.Priority, starred []*wire.Case) {
	notes = append([]*wire.Priority{}, d.Priorities.Slice()...)
	sort.SliceStable(notes, func(i, j int) bool {
		a, b := notes[i], notes[j]
		if (a.Position == nil) != (b.Position == nil) {
			return b.Position == nil
		}
		if a.Position != nil && *a.Position != *b.Position {
			return *a.Position < *b.Position
		}
		if a.CreatedAt != b.CreatedAt {
			return a.CreatedAt < b.CreatedAt
		}
		return idNumber(a.ID) < idNumber(b.ID)
	})
	starred = []*wire.Case{}
	for _, c := range d.Cases.All() {
		if c.Starred && c.ArchivedAt == "" {
			starred = append(starred, c)
		}
	}
	tier := map[wire.Kind]int{wire.KindInitiative: 0, wire.KindWorkstream: 1, wire.KindCase: 2}
	sort.SliceStable(starred, func(i, j int) bool {
		a, b := starred[i], starred[j]
		if tier[a.Kind] != tier[b.Kind] {
			return tier[a.Kind] < tier[b.Kind]
		}
		return a.UpdatedAt > b.UpdatedAt
	})
	return notes, starred
}

// idNumber is n of an id PREFIX-n, so PRI-10 sorts after PRI-9.
func idNumber(id string) int {
	n := 0
	_, num, _ := strings.Cut(id, "-")
	for _, r := range num {
		if r < '0' || r > '9' {
			return n
		}
		n = n*10 + int(r-'0')
	}
	return n
}
