package tokenizer_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/sidecar-search/internal/tokenizer"
)

// bertJSON is a BERT-style tokenizer.json as potion models ship it, with a
// tiny vocabulary.
func bertJSON(normalizer string, maxChars int) string {
	return `{"version":"1.0","truncation":null,"padding":null,
"added_tokens":[
 {"id":0,"content":"[PAD]","single_word":false,"lstrip":false,"rstrip":false,"normalized":false,"special":true},
 {"id":1,"content":"[UNK]","single_word":false,"lstrip":false,"rstrip":false,"normalized":false,"special":true},
 {"id":2,"content":"[CLS]","single_word":false,"lstrip":false,"rstrip":false,"normalized":false,"special":true},
 {"id":3,"content":"[SEP]","single_word":false,"lstrip":false,"rstrip":false,"normalized":false,"special":true}],
"normalizer":` + normalizer + `,
"pre_tokenizer":{"type":"BertPreTokenizer"},
"post_processor":{"type":"TemplateProcessing","single":[{"SpecialToken":{"id":"[CLS]","type_id":0}},{"Sequence":{"id":"A","type_id":0}},{"SpecialToken":{"id":"[SEP]","type_id":0}}]},
"decoder":{"type":"WordPiece","prefix":"##","cleanup":true},
"model":{"type":"WordPiece","unk_token":"[UNK]","continuing_subword_prefix":"##","max_input_chars_per_word":` + itoa(maxChars) + `,
 "vocab":{"[PAD]":0,"[UNK]":1,"[CLS]":2,"[SEP]":3,"hello":4,"world":5,"un":6,"##aff":7,"##able":8,"!":9,",":10,"cafe":11,"café":12,"$":13,"x":14}}}`
}

func itoa(n int) string { return strconv.Itoa(n) }

const bertNorm = `{"type":"BertNormalizer","clean_text":true,"handle_chinese_chars":true,"strip_accents":null,"lowercase":true}`

func TestEncodeBertWordPiece(t *testing.T) {
	tok, err := tokenizer.Parse([]byte(bertJSON(bertNorm, 100)))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, text string
		want       []int
	}{
		{"words and punctuation are split", "Hello, World!", []int{4, 10, 5, 9}},
		{"greedy longest match with continuation pieces", "unaffable", []int{6, 7, 8}},
		{"a null strip_accents follows lowercase, so accents go", "Café", []int{11}},
		{"ascii symbols count as punctuation", "x$x", []int{14, 13, 14}},
		{"an uncoverable word is one unknown token", "unaffablez", []int{1}},
		{"added tokens are matched on the raw text", "[CLS]hello [SEP]", []int{2, 4, 3}},
		{"control characters are dropped and whitespace unified", "hel\x00lo\tworld\u00a0x", []int{4, 5, 14}},
		{"CJK ideographs are words of their own", "hello你好", []int{4, 1, 1}},
		{"empty text has no ids", "", nil},
		{"only spaces has no ids", "  \n ", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tok.Encode(tc.text)); diff != "" {
				t.Errorf("Encode(%q) (-want +got)\n%s", tc.text, diff)
			}
		})
	}
	if tok.UnkID() != 1 || tok.VocabSize() != 15 || tok.MaxID() != 14 {
		t.Errorf("unk %d, size %d, max %d", tok.UnkID(), tok.VocabSize(), tok.MaxID())
	}
}

func TestEncodeOptions(t *testing.T) {
	keep, err := tokenizer.Parse([]byte(bertJSON(`{"type":"BertNormalizer","clean_text":true,"handle_chinese_chars":true,"strip_accents":false,"lowercase":true}`, 100)))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{12}, keep.Encode("CAFÉ")); diff != "" {
		t.Errorf("strip_accents false keeps the accent (-want +got)\n%s", diff)
	}
	short, err := tokenizer.Parse([]byte(bertJSON(bertNorm, 4)))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{1, 14}, short.Encode("hello x")); diff != "" {
		t.Errorf("a word longer than max_input_chars_per_word is unknown (-want +got)\n%s", diff)
	}
	seq, err := tokenizer.Parse([]byte(bertJSON(`{"type":"Sequence","normalizers":[{"type":"NFD"},{"type":"Lowercase"},{"type":"StripAccents"}]}`, 100)))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{11, 4}, seq.Encode("Café HELLO")); diff != "" {
		t.Errorf("sequence normalizer (-want +got)\n%s", diff)
	}
}

func TestParseRefusesWhatItCannotFollow(t *testing.T) {
	for name, js := range map[string]string{
		"BPE model":           `{"model":{"type":"BPE","vocab":{},"merges":[]}}`,
		"unknown normalizer":  strings.Replace(bertJSON(bertNorm, 100), `"type":"BertNormalizer"`, `"type":"Precompiled"`, 1),
		"unk not in vocab":    `{"model":{"type":"WordPiece","unk_token":"<unk>","continuing_subword_prefix":"##","vocab":{"a":0}}}`,
		"not json":            `{`,
		"unknown pretokenize": strings.Replace(bertJSON(bertNorm, 100), `"type":"BertPreTokenizer"`, `"type":"Metaspace"`, 1),
	} {
		if _, err := tokenizer.Parse([]byte(js)); err == nil {
			t.Errorf("%s: parsed without error", name)
		}
	}
}
