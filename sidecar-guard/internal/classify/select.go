package classify

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/opsboard/opsboard/shared/wire"
)

// Deps is what a model directory and this build offer.
type Deps struct {
	Runtime   bool // an inference runtime is available in this binary
	Tokenizer bool // the directory's tokenizer loads
	Weights   bool // the directory holds model weights
}

// Runtime is the model backend as selection sees it: a probe that never
// fails (a failing check is false) and a loader.
type Runtime interface {
	Probe(dir string) Deps
	Load(ctx context.Context, dir string, modelID string) (Backend, error)
}

// SelectConfig is what backend selection reads.
type SelectConfig struct {
	Mode     Mode
	Choice   Choice
	ModelDir string  // directory of the chosen model
	Runtime  Runtime // nil when the binary has no model backend
}

// Select picks the backend. auto takes the model when its directory holds
// weights and it loads, else the heuristic, and says why in reason;
// promptguard fails with a message naming the directory when the model
// cannot load; heuristic (or the heuristic-only preset under auto) never
// touches the model.
func Select(ctx context.Context, cfg SelectConfig) (b Backend, reason string, err error) {
	p := cfg.Choice.Preset
	switch {
	case cfg.Mode == ModeHeuristic:
		return Heuristic{}, "SVC_GUARD_CLASSIFIER is heuristic", nil
	case p.Heuristic && cfg.Mode == ModePromptGuard:
		return nil, "", fmt.Errorf("SVC_GUARD_CLASSIFIER=promptguard needs a model, but SVC_GUARD_MODEL is %s: choose a model preset or set SVC_GUARD_CLASSIFIER=heuristic", p.Key)
	case p.Heuristic:
		return Heuristic{}, "the " + p.Key + " preset routes to the heuristic", nil
	}
	load := func() (Backend, error) {
		if cfg.Runtime == nil {
			return nil, fmt.Errorf("this binary has no model runtime")
		}
		if d := cfg.Runtime.Probe(cfg.ModelDir); !d.Weights {
			return nil, fmt.Errorf("no model weights in %s", cfg.ModelDir)
		}
		return cfg.Runtime.Load(ctx, cfg.ModelDir, p.ModelID)
	}
	m, err := load()
	if err == nil {
		return m, "", nil
	}
	if cfg.Mode == ModePromptGuard && p.Download != nil && !p.Download.Present(cfg.ModelDir) {
		// Refuse at once rather than wait for a download promptguard
		// could not serve without.
		return nil, "", fmt.Errorf("SVC_GUARD_CLASSIFIER=promptguard: model %s is not downloaded yet into directory %s, and only SVC_GUARD_CLASSIFIER=auto downloads it (from %s at %s): start once with auto and wait for download.state done in /config, or put its files there by hand", p.ModelID, cfg.ModelDir, p.Download.ID, p.Download.Revision)
	}
	if cfg.Mode == ModePromptGuard {
		return nil, "", fmt.Errorf("SVC_GUARD_CLASSIFIER=promptguard: cannot load model %s from directory %s (export it to ONNX there, or set SVC_GUARD_MODEL_DIR): %w", p.ModelID, cfg.ModelDir, err)
	}
	return Heuristic{}, fmt.Sprintf("model %s not loaded from %s: %v", p.ModelID, cfg.ModelDir, err), nil
}

// DepsOf maps a probe to the five dependency booleans. ready is always true
// for the heuristic preset; for a model it needs the runtime, the tokenizer
// and the weights. hfToken only matters for downloading a gated model.
func DepsOf(p Preset, d Deps, hfToken bool) wire.GuardDeps {
	g := wire.GuardDeps{Torch: d.Runtime, Transformers: d.Tokenizer, ModelCached: d.Weights, HFToken: hfToken}
	g.Ready = p.Heuristic || (g.Torch && g.Transformers && g.ModelCached)
	return g
}

// Prober probes model directories, remembering each answer for a few
// seconds: reading a tokenizer is not free, and the settings page asks often.
type Prober struct {
	runtime Runtime
	ttl     time.Duration
	now     func() time.Time

	mu    sync.Mutex
	cache map[string]probed
}

type probed struct {
	d  Deps
	at time.Time
}

// NewProber probes through rt (nil: nothing is available).
func NewProber(rt Runtime, ttl time.Duration, now func() time.Time) *Prober {
	if now == nil {
		now = time.Now
	}
	return &Prober{runtime: rt, ttl: ttl, now: now, cache: map[string]probed{}}
}

// Forget drops the remembered answer for dir: its files just changed.
func (p *Prober) Forget(dir string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.cache, dir)
}

// Probe answers for dir; it never panics.
func (p *Prober) Probe(dir string) (d Deps) {
	if p.runtime == nil {
		return Deps{}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if c, ok := p.cache[dir]; ok && p.now().Sub(c.at) < p.ttl {
		return c.d
	}
	func() {
		defer func() {
			if recover() != nil {
				d = Deps{}
			}
		}()
		d = p.runtime.Probe(dir)
	}()
	p.cache[dir] = probed{d, p.now()}
	return d
}

// CatalogConfig is what the model catalogue reads.
type CatalogConfig struct {
	Choice  Choice
	DirOf   func(Preset) string // model directory of a preset
	Probe   func(dir string) Deps
	HFToken bool
	// ActiveModelID is the id the loaded model reports, "" to use the
	// choice's.
	ActiveModelID string
}

// Catalog lists the presets with their dependencies, marking the current
// one; a raw model id appears as a "custom" entry.
func Catalog(cfg CatalogConfig) wire.GuardModels {
	ps := Presets()
	if cfg.Choice.Preset.Key == CustomPreset {
		ps = append(ps, cfg.Choice.Preset)
	}
	out := wire.GuardModels{Active: cfg.Choice.Preset.Key, ActiveModelID: cfg.Choice.Preset.ModelID, Models: make([]wire.GuardModel, 0, len(ps))}
	if cfg.ActiveModelID != "" {
		out.ActiveModelID = cfg.ActiveModelID
	}
	for _, p := range ps {
		cur := p.Key == cfg.Choice.Preset.Key
		th := p.Threshold
		if cur {
			th = cfg.Choice.Threshold
		}
		out.Models = append(out.Models, wire.GuardModel{
			ID: p.Key, ModelID: p.ModelID, Threshold: th, Gated: p.Gated,
			Languages: p.Languages, Description: p.Description,
			Deps:    DepsOf(p, cfg.Probe(cfg.DirOf(p)), cfg.HFToken),
			Current: cur,
		})
	}
	return out
}
