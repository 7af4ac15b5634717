// Package embed turns text into fixed-size vectors for the search index:
// a deterministic feature-hashing embedder that needs no model, and
// model2vec static-embedding inference from a model directory on disk.
package embed

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"math"
	"os"
)

// Dim is the vector size the search index holds.
const Dim = 256

// Embedder maps text to a vector. Implementations are safe for concurrent use.
type Embedder interface {
	// Name identifies the embedder and its model; vectors of two names are
	// not comparable, so a change of name invalidates an index.
	Name() string
	Dim() int
	// Embed writes the vector of text into dst, which has length Dim.
	Embed(dst []float32, text string)
}

// Kinds are the accepted values of the embedder setting.
var Kinds = []string{"auto", "model2vec", "hash"}

// Select returns the embedder the setting asks for: hash; model2vec from
// modelDir (an error when it does not load); or auto, which prefers
// model2vec and degrades to hash, logging why.
func Select(kind, modelDir string, log *slog.Logger) (Embedder, error) {
	if log == nil {
		log = slog.Default()
	}
	switch kind {
	case "hash":
		return Hash{}, nil
	case "model2vec":
		m, err := LoadModel2Vec(modelDir)
		if err != nil {
			return nil, err
		}
		if m.Dim() != Dim {
			return nil, fmt.Errorf("model %s has %d dimensions; the index holds %d", modelDir, m.Dim(), Dim)
		}
		return m, nil
	case "", "auto":
		if modelDir == "" {
			log.Info("embed.auto", "embedder", "hash", "reason", "no model directory configured")
			return Hash{}, nil
		}
		if _, err := os.Stat(modelDir); errors.Is(err, fs.ErrNotExist) {
			log.Info("embed.auto", "embedder", "hash", "reason", "model directory absent", "dir", modelDir)
			return Hash{}, nil
		}
		m, err := Select("model2vec", modelDir, log)
		if err != nil {
			log.Warn("embed.auto", "embedder", "hash", "reason", "model did not load", "err", err)
			return Hash{}, nil
		}
		return m, nil
	}
	return nil, fmt.Errorf("embedder %q is not one of %v", kind, Kinds)
}

// Normalize scales v to unit length in place; a zero vector stays zero.
func Normalize(v []float32) {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(s))
	for i := range v {
		v[i] *= inv
	}
}
