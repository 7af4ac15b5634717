// Package tokenizer reads a Hugging Face tokenizer.json and encodes text the
// way the tokenizers library does for the WordPiece models that static
// embedding models (model2vec "potion" models) ship with: added-token
// splitting, the BERT normalizer and pre-tokenizer (and the common simple
// ones), and greedy longest-match-first WordPiece. Other model types (BPE,
// Unigram) are refused at load time rather than tokenized differently.
package tokenizer

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Tokenizer encodes text to vocabulary ids. It is safe for concurrent use.
type Tokenizer struct {
	vocab     map[string]int // the model's vocabulary
	added     []addedToken   // longest content first
	addedByID map[int]string
	norm      normalizer
	pre       preTokenizer

	unk       string
	unkID     int
	prefix    string
	maxChars  int
	maxID     int
	vocabSize int
}

type addedToken struct {
	ID         int    `json:"id"`
	Content    string `json:"content"`
	SingleWord bool   `json:"single_word"`
	LStrip     bool   `json:"lstrip"`
	RStrip     bool   `json:"rstrip"`
	Normalized bool   `json:"normalized"`
	Special    bool   `json:"special"`
}

type fileJSON struct {
	AddedTokens  []addedToken    `json:"added_tokens"`
	Normalizer   json.RawMessage `json:"normalizer"`
	PreTokenizer json.RawMessage `json:"pre_tokenizer"`
	Model        json.RawMessage `json:"model"`
}

type modelJSON struct {
	Type                    string          `json:"type"`
	UnkToken                *string         `json:"unk_token"`
	ContinuingSubwordPrefix *string         `json:"continuing_subword_prefix"`
	MaxInputCharsPerWord    *int            `json:"max_input_chars_per_word"`
	Vocab                   json.RawMessage `json:"vocab"`
}

// Load reads tokenizer.json at path.
func Load(path string) (*Tokenizer, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read tokenizer: %w", err)
	}
	t, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// Parse reads the contents of a tokenizer.json.
func Parse(data []byte) (*Tokenizer, error) {
	var f fileJSON
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("parse tokenizer.json: %w", err)
	}
	var m modelJSON
	if err := json.Unmarshal(f.Model, &m); err != nil {
		return nil, fmt.Errorf("parse tokenizer model: %w", err)
	}
	// Older files omit the type; a WordPiece model is recognised by its
	// subword prefix and a vocabulary that maps tokens to ids.
	if m.Type == "" && m.ContinuingSubwordPrefix != nil {
		m.Type = "WordPiece"
	}
	if m.Type != "WordPiece" {
		return nil, fmt.Errorf("tokenizer model type %q is not supported (WordPiece only)", m.Type)
	}
	t := &Tokenizer{addedByID: map[int]string{}, prefix: "##", maxChars: 100, unk: "[UNK]"}
	if err := json.Unmarshal(m.Vocab, &t.vocab); err != nil {
		return nil, fmt.Errorf("parse WordPiece vocabulary: %w", err)
	}
	if m.UnkToken != nil {
		t.unk = *m.UnkToken
	}
	if m.ContinuingSubwordPrefix != nil {
		t.prefix = *m.ContinuingSubwordPrefix
	}
	if m.MaxInputCharsPerWord != nil {
		t.maxChars = *m.MaxInputCharsPerWord
	}
	id, ok := t.vocab[t.unk]
	if !ok {
		return nil, fmt.Errorf("unknown token %q is not in the vocabulary", t.unk)
	}
	t.unkID = id
	seen := map[int]bool{}
	for _, i := range t.vocab {
		if i < 0 {
			return nil, fmt.Errorf("vocabulary has a negative id %d", i)
		}
		seen[i] = true
		t.maxID = max(t.maxID, i)
	}
	for _, a := range f.AddedTokens {
		if a.Content == "" {
			continue
		}
		if a.ID < 0 {
			return nil, fmt.Errorf("added token %q has a negative id", a.Content)
		}
		t.added = append(t.added, a)
		t.addedByID[a.ID] = a.Content
		seen[a.ID] = true
		t.maxID = max(t.maxID, a.ID)
	}
	t.vocabSize = len(seen)
	// Longest first, so "[CLS]x" style overlaps pick the longer token, as
	// the tokenizers library's leftmost-longest matcher does.
	sort.SliceStable(t.added, func(i, j int) bool { return len(t.added[i].Content) > len(t.added[j].Content) })
	var err error
	if t.norm, err = parseNormalizer(f.Normalizer); err != nil {
		return nil, err
	}
	if t.pre, err = parsePreTokenizer(f.PreTokenizer); err != nil {
		return nil, err
	}
	return t, nil
}

// UnkID is the id of the unknown token.
func (t *Tokenizer) UnkID() int { return t.unkID }

// VocabSize is the number of distinct ids (model vocabulary and added tokens).
func (t *Tokenizer) VocabSize() int { return t.vocabSize }

// MaxID is the highest id the tokenizer can produce.
func (t *Tokenizer) MaxID() int { return t.maxID }

// Tokens returns the vocabulary including added tokens, as the tokenizers
// library's get_vocab does: one entry per token string.
func (t *Tokenizer) Tokens() map[string]int {
	out := make(map[string]int, len(t.vocab)+len(t.added))
	for k, v := range t.vocab {
		out[k] = v
	}
	for _, a := range t.added {
		out[a.Content] = a.ID
	}
	return out
}

// Encode returns the ids of text without special tokens around it (the
// equivalent of add_special_tokens=False).
func (t *Tokenizer) Encode(text string) []int {
	var ids []int
	t.splitAdded(text, func(seg string, addedID int) {
		if addedID >= 0 {
			ids = append(ids, addedID)
			return
		}
		if t.norm != nil {
			seg = t.norm(seg)
		}
		words := []string{seg}
		if t.pre != nil {
			words = t.pre(seg)
		}
		for _, w := range words {
			if w != "" {
				ids = t.wordPiece(ids, w)
			}
		}
	})
	return ids
}

// splitAdded cuts text around added tokens, which the tokenizers library
// matches on the raw text before normalization, and hands each piece to
// emit (added pieces with their id, the rest with -1).
func (t *Tokenizer) splitAdded(text string, emit func(seg string, addedID int)) {
	if len(t.added) == 0 {
		emit(text, -1)
		return
	}
	start := 0 // start of the pending plain segment
	for i := 0; i < len(text); {
		a, ok := t.addedAt(text, i)
		if !ok {
			_, size := utf8.DecodeRuneInString(text[i:])
			i += size
			continue
		}
		end := i + len(a.Content)
		plainEnd := i
		if a.LStrip {
			plainEnd = len(strings.TrimRightFunc(text[start:i], unicode.IsSpace)) + start
		}
		if a.RStrip {
			end = len(text) - len(strings.TrimLeftFunc(text[end:], unicode.IsSpace))
		}
		if plainEnd > start {
			emit(text[start:plainEnd], -1)
		}
		emit(a.Content, a.ID)
		start, i = end, end
	}
	if start < len(text) {
		emit(text[start:], -1)
	}
}

func (t *Tokenizer) addedAt(text string, i int) (addedToken, bool) {
	for _, a := range t.added {
		if !strings.HasPrefix(text[i:], a.Content) {
			continue
		}
		if a.SingleWord {
			before, _ := utf8.DecodeLastRuneInString(text[:i])
			after, _ := utf8.DecodeRuneInString(text[i+len(a.Content):])
			if (i > 0 && isWordChar(before)) || (i+len(a.Content) < len(text) && isWordChar(after)) {
				continue
			}
		}
		return a, true
	}
	return addedToken{}, false
}

func isWordChar(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Pc, r)
}

// wordPiece appends the ids of one pre-tokenized word: greedy longest match
// first, continuation pieces carrying the prefix; a word that cannot be
// covered (or is too long) becomes one unknown token.
func (t *Tokenizer) wordPiece(ids []int, word string) []int {
	if utf8.RuneCountInString(word) > t.maxChars {
		return append(ids, t.unkID)
	}
	mark := len(ids)
	buf := make([]byte, 0, len(t.prefix)+len(word))
	for start := 0; start < len(word); {
		found := -1
		end := len(word)
		for start < end {
			var id int
			var ok bool
			if start == 0 {
				id, ok = t.vocab[word[:end]]
			} else {
				buf = append(append(buf[:0], t.prefix...), word[start:end]...)
				id, ok = t.vocab[string(buf)] // the compiler avoids a copy for map lookups
			}
			if ok {
				found = id
				break
			}
			_, size := utf8.DecodeLastRuneInString(word[start:end])
			end -= size
		}
		if found < 0 {
			return append(ids[:mark], t.unkID)
		}
		ids = append(ids, found)
		start = end
	}
	return ids
}
