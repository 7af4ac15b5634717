package embed_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opsboard/opsboard/sidecar-search/internal/embed"
	"github.com/opsboard/opsboard/sidecar-search/internal/safetensors"
)

// The test vocabulary, by id. Token lengths in characters, sorted:
// 1 1 1 2 4 5 5 5 5 5 5 5 5 6 -> the median of 14 values is (5+5)/2 = 5, so
// the encoder pre-truncates texts to 512*5 = 2560 characters.
var vocab = []string{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "hello", "world", "un", "##aff", "##able", "!", ",", "cafe", "x", "y"}

const (
	tHello, tWorld, tUn, tAff, tAble, tBang, tComma, tCafe, tX, tY = 4, 5, 6, 7, 8, 9, 10, 11, 12, 13
)

func tokenizerJSON() []byte {
	v := map[string]int{}
	for i, t := range vocab {
		v[t] = i
	}
	added := []map[string]any{}
	for i, t := range vocab[:4] {
		added = append(added, map[string]any{"id": i, "content": t, "single_word": false, "lstrip": false, "rstrip": false, "normalized": false, "special": true})
	}
	doc := map[string]any{
		"version": "1.0", "truncation": nil, "padding": nil, "added_tokens": added,
		"normalizer":    map[string]any{"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true, "strip_accents": nil, "lowercase": true},
		"pre_tokenizer": map[string]any{"type": "BertPreTokenizer"},
		"model":         map[string]any{"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##", "max_input_chars_per_word": 100, "vocab": v},
	}
	b, _ := json.Marshal(doc)
	return b
}

type tensor struct {
	dtype string
	shape []int
	data  []byte
}

// writeSafetensors writes the format by hand: length, JSON header, data.
func writeSafetensors(t testing.TB, path string, tensors map[string]tensor, order []string) {
	t.Helper()
	hdr := map[string]any{"__metadata__": map[string]string{"format": "pt"}}
	var data []byte
	for _, name := range order {
		tn := tensors[name]
		hdr[name] = map[string]any{"dtype": tn.dtype, "shape": tn.shape, "data_offsets": []int{len(data), len(data) + len(tn.data)}}
		data = append(data, tn.data...)
	}
	h, _ := json.Marshal(hdr)
	var buf bytes.Buffer
	binary.Write(&buf, binary.LittleEndian, uint64(len(h)))
	buf.Write(h)
	buf.Write(data)
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}

func f32bytes(v []float64) []byte {
	out := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(out[4*i:], math.Float32bits(float32(x)))
	}
	return out
}

// f16bytes encodes values of the form k/1024 with |k| <= 1024, which binary16
// holds exactly: 1.m * 2^e with e in [-10, 0] and a 10-bit m.
func f16bytes(t *testing.T, v []float64) []byte {
	out := make([]byte, 2*len(v))
	for i, x := range v {
		var bits uint16
		if x != 0 {
			a := math.Abs(x)
			e := int(math.Floor(math.Log2(a)))
			m := (a/math.Ldexp(1, e) - 1) * 1024
			if m != math.Trunc(m) || e < -14 {
				t.Fatalf("%v is not exact in binary16", x)
			}
			bits = uint16(e+15)<<10 | uint16(m)
			if x < 0 {
				bits |= 0x8000
			}
		}
		binary.LittleEndian.PutUint16(out[2*i:], bits)
	}
	return out
}

func i64bytes(v []int) []byte {
	out := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(out[8*i:], uint64(x))
	}
	return out
}

// randomMatrix has rows x 256 values k/1024, exact in F32 and F16 alike.
func randomMatrix(rows int, seed uint64) [][]float64 {
	r := rand.New(rand.NewPCG(seed, 7))
	m := make([][]float64, rows)
	for i := range m {
		m[i] = make([]float64, embed.Dim)
		for j := range m[i] {
			m[i][j] = float64(r.IntN(2049)-1024) / 1024
		}
	}
	return m
}

func flat(m [][]float64) []float64 {
	var out []float64
	for _, row := range m {
		out = append(out, row...)
	}
	return out
}

type model struct {
	dtype     string
	matrix    [][]float64
	mapping   []int     // nil: none
	weights   []float64 // nil: none
	normalize *bool     // nil: config.json without the key
}

func writeModel(t *testing.T, m model) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "potion-test")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	var data []byte
	if m.dtype == "F16" {
		data = f16bytes(t, flat(m.matrix))
	} else {
		data = f32bytes(flat(m.matrix))
	}
	tensors := map[string]tensor{"embeddings": {m.dtype, []int{len(m.matrix), embed.Dim}, data}}
	order := []string{"embeddings"}
	if m.mapping != nil {
		tensors["mapping"] = tensor{"I64", []int{len(m.mapping)}, i64bytes(m.mapping)}
		order = append(order, "mapping")
	}
	if m.weights != nil {
		tensors["weights"] = tensor{"F32", []int{len(m.weights)}, f32bytes(m.weights)}
		order = append(order, "weights")
	}
	writeSafetensors(t, filepath.Join(dir, "model.safetensors"), tensors, order)
	if err := os.WriteFile(filepath.Join(dir, "tokenizer.json"), tokenizerJSON(), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := map[string]any{"model_type": "model2vec", "hidden_dim": embed.Dim}
	if m.normalize != nil {
		cfg["normalize"] = *m.normalize
	}
	b, _ := json.Marshal(cfg)
	if err := os.WriteFile(filepath.Join(dir, "config.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

// expect is the reference computation done plainly: the mean of the
// (mapped, weighted) rows of ids, then optional normalization.
func expect(m model, ids []int) []float64 {
	out := make([]float64, embed.Dim)
	if len(ids) == 0 {
		return out
	}
	for _, id := range ids {
		row, w := id, 1.0
		if m.mapping != nil {
			row = m.mapping[id]
		}
		if m.weights != nil {
			w = float64(float32(m.weights[id]))
		}
		for j := range out {
			out[j] += w * m.matrix[row][j]
		}
	}
	for j := range out {
		out[j] /= float64(len(ids))
	}
	if m.normalize != nil && *m.normalize {
		var n float64
		for _, x := range out {
			n += x * x
		}
		for j := range out {
			out[j] /= math.Sqrt(n)
		}
	}
	return out
}

func repeat(id, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = id
	}
	return out
}

func checkClose(t *testing.T, what string, want []float64, got []float32) {
	t.Helper()
	for j := range want {
		if math.Abs(want[j]-float64(got[j])) > 1e-5 {
			t.Fatalf("%s: component %d = %v, want %v", what, j, got[j], want[j])
		}
	}
}

func TestModel2VecMatchesReferenceComputation(t *testing.T) {
	yes, no := true, false
	base := randomMatrix(len(vocab), 1)
	small := randomMatrix(5, 2)
	weights := make([]float64, len(vocab))
	for i := range weights {
		weights[i] = 0.25 + float64(i)/8
	}
	mapping := []int{0, 1, 2, 3, 4, 4, 1, 2, 3, 0, 1, 2, 3, 4} // hello and world share a row

	texts := []struct {
		text string
		ids  []int
	}{
		{"Hello, World!", []int{tHello, tComma, tWorld, tBang}},
		{"unaffable CAFÉ", []int{tUn, tAff, tAble, tCafe}},
		{"hello xyzzy world", []int{tHello, tWorld}}, // the unknown token is dropped
		{"[CLS] hello", []int{2, tHello}},            // added tokens in the text still count
		{"xyzzy qqq", nil},                           // only unknown tokens: a zero vector
		{"", nil},
		// 3000 characters of "hello " are cut at 2560 before tokenizing, so
		// the trailing "world"s never reach the tokenizer and the last, cut
		// word ("hell") is unknown.
		{strings.Repeat("hello ", 500) + strings.Repeat("world ", 10), repeat(tHello, 426)},
		// 600 ids within the character budget are cut to the first 512.
		{strings.Repeat("x ", 300) + strings.Repeat("y ", 300), append(repeat(tX, 300), repeat(tY, 212)...)},
	}
	for _, m := range []model{
		{dtype: "F32", matrix: base},
		{dtype: "F16", matrix: base},
		{dtype: "F32", matrix: base, normalize: &yes},
		{dtype: "F16", matrix: base, normalize: &no},
		{dtype: "F32", matrix: base, weights: weights},
		{dtype: "F32", matrix: small, mapping: mapping, weights: weights, normalize: &yes},
	} {
		name := fmt.Sprintf("%s mapping=%v weights=%v normalize=%v", m.dtype, m.mapping != nil, m.weights != nil, m.normalize != nil && *m.normalize)
		t.Run(name, func(t *testing.T) {
			dir := writeModel(t, m)
			e, err := embed.Select("model2vec", dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			if e.Name() != "model2vec:potion-test" || e.Dim() != embed.Dim {
				t.Fatalf("name %q dim %d", e.Name(), e.Dim())
			}
			got := make([]float32, embed.Dim)
			for _, tc := range texts {
				if ids := e.(*embed.Model2Vec).Tokenize(tc.text); len(ids) != len(tc.ids) {
					t.Fatalf("Tokenize(%.30q): %d ids, want %d", tc.text, len(ids), len(tc.ids))
				}
				e.Embed(got, tc.text)
				checkClose(t, fmt.Sprintf("%.30q", tc.text), expect(m, tc.ids), got)
			}
		})
	}
}

func TestSelect(t *testing.T) {
	dir := writeModel(t, model{dtype: "F32", matrix: randomMatrix(len(vocab), 3)})
	for _, tc := range []struct {
		kind, dir, want string
		fails           bool
	}{
		{"auto", dir, "model2vec:potion-test", false},
		{"auto", "", "hash", false},
		{"auto", filepath.Join(t.TempDir(), "absent"), "hash", false},
		{"auto", t.TempDir(), "hash", false}, // present but empty: does not load
		{"hash", dir, "hash", false},
		{"model2vec", dir, "model2vec:potion-test", false},
		{"model2vec", t.TempDir(), "", true},
		{"bogus", dir, "", true},
	} {
		e, err := embed.Select(tc.kind, tc.dir, slog.New(slog.DiscardHandler))
		if tc.fails {
			if err == nil {
				t.Errorf("Select(%s, %s) succeeded, want an error", tc.kind, tc.dir)
			}
			continue
		}
		if err != nil || e.Name() != tc.want {
			t.Errorf("Select(%s, %s) = %v, %v; want %s", tc.kind, tc.dir, e, err, tc.want)
		}
	}
}

func TestModel2VecRefusesMismatchedFiles(t *testing.T) {
	short := randomMatrix(len(vocab)-1, 4) // one row fewer than the vocabulary
	if _, err := embed.LoadModel2Vec(writeModel(t, model{dtype: "F32", matrix: short})); err == nil {
		t.Error("a matrix smaller than the vocabulary loaded")
	}
	bad := writeModel(t, model{dtype: "F32", matrix: randomMatrix(len(vocab), 5), mapping: repeat(99, len(vocab))})
	if _, err := embed.LoadModel2Vec(bad); err == nil {
		t.Error("a mapping outside the matrix loaded")
	}
}

func TestHashEmbedder(t *testing.T) {
	var h embed.Hash
	v := func(s string) []float32 {
		out := make([]float32, h.Dim())
		h.Embed(out, s)
		return out
	}
	dot := func(a, b []float32) float64 {
		var s float64
		for i := range a {
			s += float64(a[i]) * float64(b[i])
		}
		return s
	}
	a := v("Renew the passport before the Lisbon trip")
	if n := dot(a, a); math.Abs(n-1) > 1e-5 {
		t.Errorf("norm² = %v, want 1", n)
	}
	if !equal(a, v("Renew the passport before the Lisbon trip")) {
		t.Error("not deterministic")
	}
	if !equal(a, v("RENEW the   passport, before the lisbon TRIP!")) {
		t.Error("case, spacing and punctuation change the vector")
	}
	near, far := dot(a, v("passport renewal")), dot(a, v("quarterly revenue forecast"))
	if near <= far {
		t.Errorf("related text scores %v, unrelated %v", near, far)
	}
	if z := v("  ,.;  "); dot(z, z) != 0 {
		t.Error("text without words is not the zero vector")
	}
}

func equal(a, b []float32) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestHalfToFloat32(t *testing.T) {
	for bits, want := range map[uint16]float64{
		0x0000: 0, 0x3C00: 1, 0xC000: -2, 0x3555: 0.333251953125, 0x7BFF: 65504,
		0x0001: math.Ldexp(1, -24), 0x03FF: 1023 * math.Ldexp(1, -24), 0x0400: math.Ldexp(1, -14),
		0x7C00: math.Inf(1), 0xFC00: math.Inf(-1),
	} {
		if got := float64(safetensors.HalfToFloat32(bits)); got != want {
			t.Errorf("%#04x = %v, want %v", bits, got, want)
		}
	}
	if got := safetensors.HalfToFloat32(0x7E00); !math.IsNaN(float64(got)) {
		t.Errorf("0x7e00 = %v, want NaN", got)
	}
}
