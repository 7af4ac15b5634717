package embed_test

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opsboard/opsboard/sidecar-search/internal/embed"
)

// benchTexts are document-sized texts (about 40 words) of made-up words.
func benchTexts(r *rand.Rand, words []string, n int) []string {
	out := make([]string, n)
	for i := range out {
		ws := make([]string, 40)
		for j := range ws {
			ws[j] = words[r.IntN(len(words))]
		}
		out[i] = strings.Join(ws, " ")
	}
	return out
}

func madeUpWords(r *rand.Rand, n int) []string {
	words := make([]string, n)
	for i := range words {
		var b strings.Builder
		for range 3 + r.IntN(7) {
			b.WriteByte(byte('a' + r.IntN(26)))
		}
		words[i] = b.String()
	}
	return words
}

func BenchmarkHashEmbed(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 3))
	texts := benchTexts(r, madeUpWords(r, 5000), 1024)
	dst := make([]float32, embed.Dim)
	var h embed.Hash
	i := 0
	for b.Loop() {
		h.Embed(dst, texts[i%len(texts)])
		i++
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "docs/s")
}

// BenchmarkModel2VecEmbed runs the model2vec path with a potion-sized
// vocabulary (about 30k WordPiece tokens, 256 dimensions) made up here:
// half the document words are whole tokens, the rest split into pieces.
func BenchmarkModel2VecEmbed(b *testing.B) {
	r := rand.New(rand.NewPCG(4, 4))
	vocab := map[string]int{"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3}
	add := func(t string) {
		if _, ok := vocab[t]; !ok {
			vocab[t] = len(vocab)
		}
	}
	for c := 'a'; c <= 'z'; c++ {
		add(string(c))
		add("##" + string(c))
	}
	words := madeUpWords(r, 40000)
	for _, w := range words[:20000] {
		add(w)
	}
	for _, w := range words[20000:30000] {
		add("##" + w[:min(3, len(w))])
	}
	dir := b.TempDir()
	matrix := make([]float64, len(vocab)*embed.Dim)
	for i := range matrix {
		matrix[i] = r.NormFloat64() / 16
	}
	writeSafetensors(b, filepath.Join(dir, "model.safetensors"), map[string]tensor{"embeddings": {"F32", []int{len(vocab), embed.Dim}, f32bytes(matrix)}}, []string{"embeddings"})
	tok := map[string]any{
		"added_tokens":  []map[string]any{{"id": 1, "content": "[UNK]", "special": true}},
		"normalizer":    map[string]any{"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true, "strip_accents": nil, "lowercase": true},
		"pre_tokenizer": map[string]any{"type": "BertPreTokenizer"},
		"model":         map[string]any{"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##", "max_input_chars_per_word": 100, "vocab": vocab},
	}
	data, _ := json.Marshal(tok)
	if err := os.WriteFile(filepath.Join(dir, "tokenizer.json"), data, 0o600); err != nil {
		b.Fatal(err)
	}
	m, err := embed.LoadModel2Vec(dir)
	if err != nil {
		b.Fatal(err)
	}
	texts := benchTexts(r, words, 1024)
	dst := make([]float32, embed.Dim)
	b.ResetTimer()
	i := 0
	for b.Loop() {
		m.Embed(dst, texts[i%len(texts)])
		i++
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "docs/s")
}
