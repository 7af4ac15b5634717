package embed

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"unicode/utf8"

	"github.com/opsboard/opsboard/shared/wire"
	"github.com/opsboard/opsboard/sidecar-search/internal/safetensors"
	"github.com/opsboard/opsboard/sidecar-search/internal/tokenizer"
)

// MaxLength is the model2vec Python package's default max_length in tokens.
const MaxLength = wire.MaxEmbedTokens

// Model2Vec is static-embedding inference as the model2vec Python package
// does it: tokenize without special tokens, drop the unknown token, keep
// the first MaxLength ids, map and weight the rows, mean-pool, and
// normalize only when the model's config asks for it.
type Model2Vec struct {
	name      string
	tok       *tokenizer.Tokenizer
	emb       []float32 // rows x dim
	rows, dim int
	mapping   []int32   // token id -> row; nil when absent
	weights   []float32 // per token id; nil when absent
	normalize bool
	unkID     int
	maxChars  int // texts are cut to this many characters before tokenizing
}

// LoadModel2Vec reads a model directory: model.safetensors (an
// "embeddings" tensor, optional "mapping" and "weights"), tokenizer.json
// and config.json.
func LoadModel2Vec(dir string) (*Model2Vec, error) {
	if dir == "" {
		return nil, errors.New("model2vec: no model directory configured")
	}
	st, err := safetensors.Open(filepath.Join(dir, "model.safetensors"))
	if err != nil {
		return nil, fmt.Errorf("model2vec: %w", err)
	}
	et := st.Tensors["embeddings"]
	if et == nil {
		et = st.Tensors["embedding.weight"] // sentence-transformers layout
	}
	if et == nil {
		return nil, fmt.Errorf("model2vec %s: model.safetensors has no embeddings tensor", dir)
	}
	if len(et.Shape) != 2 || et.Shape[0] == 0 || et.Shape[1] == 0 {
		return nil, fmt.Errorf("model2vec %s: embeddings shape %v is not a matrix", dir, et.Shape)
	}
	m := &Model2Vec{name: "model2vec:" + filepath.Base(filepath.Clean(dir)), rows: et.Shape[0], dim: et.Shape[1]}
	if m.emb, err = et.Float32s(); err != nil {
		return nil, fmt.Errorf("model2vec %s: %w", dir, err)
	}
	vocab := m.rows
	if mt := st.Tensors["mapping"]; mt != nil {
		ids, err := mt.Int64s()
		if err != nil {
			return nil, fmt.Errorf("model2vec %s: mapping: %w", dir, err)
		}
		m.mapping = make([]int32, len(ids))
		for i, r := range ids {
			if r < 0 || r >= int64(m.rows) {
				return nil, fmt.Errorf("model2vec %s: mapping[%d] = %d is outside the %d embedding rows", dir, i, r, m.rows)
			}
			m.mapping[i] = int32(r)
		}
		vocab = len(ids)
	}
	if wt := st.Tensors["weights"]; wt != nil {
		if m.weights, err = wt.Float32s(); err != nil {
			return nil, fmt.Errorf("model2vec %s: weights: %w", dir, err)
		}
		if len(m.weights) != vocab {
			return nil, fmt.Errorf("model2vec %s: %d weights for a vocabulary of %d", dir, len(m.weights), vocab)
		}
	}
	if m.tok, err = tokenizer.Load(filepath.Join(dir, "tokenizer.json")); err != nil {
		return nil, fmt.Errorf("model2vec: %w", err)
	}
	// The model2vec package refuses a tokenizer whose vocabulary does not
	// match the matrix; so do we, rather than index out of range later.
	if n := m.tok.VocabSize(); n != vocab || m.tok.MaxID() >= vocab {
		return nil, fmt.Errorf("model2vec %s: tokenizer has %d tokens (highest id %d) but the model has %d", dir, n, m.tok.MaxID(), vocab)
	}
	m.unkID = m.tok.UnkID()
	if m.normalize, err = readNormalize(filepath.Join(dir, "config.json")); err != nil {
		return nil, fmt.Errorf("model2vec %s: %w", dir, err)
	}
	m.maxChars = MaxLength * medianTokenLength(m.tok.Tokens())
	return m, nil
}

// readNormalize reads config.json's normalize flag; false when absent.
func readNormalize(path string) (bool, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read config: %w", err)
	}
	var cfg struct {
		Normalize *bool `json:"normalize"`
	}
	if err := json.Unmarshal(data, &cfg); err != nil {
		return false, fmt.Errorf("parse %s: %w", path, err)
	}
	return cfg.Normalize != nil && *cfg.Normalize, nil
}

// medianTokenLength is int(median(len(token))) over the vocabulary, in
// characters, the way the model2vec package computes its pre-truncation
// length.
func medianTokenLength(tokens map[string]int) int {
	lens := make([]int, 0, len(tokens))
	for t := range tokens {
		lens = append(lens, utf8.RuneCountInString(t))
	}
	if len(lens) == 0 {
		return 0
	}
	sort.Ints(lens)
	n := len(lens)
	if n%2 == 1 {
		return lens[n/2]
	}
	return (lens[n/2-1] + lens[n/2]) / 2 // int() of a non-negative .5 truncates
}

// Name identifies the model.
func (m *Model2Vec) Name() string { return m.name }

// Dim is the vector size.
func (m *Model2Vec) Dim() int { return m.dim }

// Normalizes reports whether vectors are L2-normalized (config.json).
func (m *Model2Vec) Normalizes() bool { return m.normalize }

// Tokenize returns the ids the encoder pools for text: pre-truncated to
// maxChars characters, tokenized, unknown tokens dropped, cut to MaxLength.
func (m *Model2Vec) Tokenize(text string) []int {
	if utf8.RuneCountInString(text) > m.maxChars {
		cut, n := 0, 0
		for i := range text {
			if n == m.maxChars {
				cut = i
				break
			}
			n++
		}
		text = text[:cut]
	}
	ids := m.tok.Encode(text)
	kept := ids[:0]
	for _, id := range ids {
		if id != m.unkID {
			kept = append(kept, id)
		}
	}
	if len(kept) > MaxLength {
		kept = kept[:MaxLength]
	}
	return kept
}

// Embed writes the pooled vector of text into dst.
func (m *Model2Vec) Embed(dst []float32, text string) {
	ids := m.Tokenize(text)
	clear(dst)
	if len(ids) == 0 {
		return
	}
	acc := make([]float64, m.dim)
	for _, id := range ids {
		row := id
		if m.mapping != nil {
			row = int(m.mapping[id])
		}
		w := 1.0
		if m.weights != nil {
			w = float64(m.weights[id])
		}
		vec := m.emb[row*m.dim : (row+1)*m.dim]
		for j, x := range vec {
			acc[j] += w * float64(x)
		}
	}
	n := float64(len(ids))
	var norm float64
	for j := range acc {
		acc[j] /= n
		norm += acc[j] * acc[j]
	}
	scale := 1.0
	if m.normalize {
		scale = 1 / (math.Sqrt(norm) + 1e-32)
	}
	for j := range acc {
		dst[j] = float32(acc[j] * scale)
	}
}
