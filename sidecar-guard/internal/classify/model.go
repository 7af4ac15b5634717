package classify

import (
	"context"
	"fmt"

	"github.com/opsboard/opsboard/shared/wire"
	"github.com/opsboard/opsboard/sidecar-guard/internal/model"
)

// ModelRuntime is the local model backend (internal/model) as a Runtime.
type ModelRuntime struct{}

// Probe checks dir; it never panics.
func (ModelRuntime) Probe(dir string) Deps {
	d := model.Probe(dir)
	return Deps{Runtime: d.Runtime, Tokenizer: d.Tokenizer, Weights: d.Weights}
}

// Load reads the model in dir with the standard windows. modelID names it
// when the directory's config does not.
func (ModelRuntime) Load(ctx context.Context, dir, modelID string) (Backend, error) {
	c, err := model.Load(ctx, dir, model.Options{MaxTokens: MaxTokens, Overlap: Overlap})
	if err != nil {
		return nil, err
	}
	id := c.ModelID()
	if id == "" {
		id = modelID
	}
	return &Model{c: c, id: id}, nil
}

// Model is a loaded model as a backend.
type Model struct {
	c  *model.Classifier
	id string
}

// Name is "model:<id>".
func (m *Model) Name() string { return wire.ClassifierModelPrefix + m.id }

// ID is the model's id.
func (m *Model) ID() string { return m.id }

// Score runs the model over text. A panic comes back as an error, so the
// request falls back to the heuristic instead of ending the process.
func (m *Model) Score(ctx context.Context, text string) (sc Score, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("model panicked: %v", p)
		}
	}()
	r, err := m.c.Score(ctx, text)
	if err != nil {
		return Score{}, err
	}
	return Score{Value: r.Score, Windows: r.Windows}, nil
}

// Close releases the model.
func (m *Model) Close() error { return m.c.Close() }
