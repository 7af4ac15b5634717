package tokenizer

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// normalizer rewrites text before pre-tokenization.
type normalizer func(string) string

type normalizerJSON struct {
	Type               string            `json:"type"`
	CleanText          *bool             `json:"clean_text"`
	HandleChineseChars *bool             `json:"handle_chinese_chars"`
	StripAccents       *bool             `json:"strip_accents"`
	Lowercase          *bool             `json:"lowercase"`
	StripLeft          *bool             `json:"strip_left"`
	StripRight         *bool             `json:"strip_right"`
	Normalizers        []json.RawMessage `json:"normalizers"`
	Pattern            map[string]string `json:"pattern"`
	Content            string            `json:"content"`
	Prepend            string            `json:"prepend"`
}

func orDefault(b *bool, def bool) bool {
	if b == nil {
		return def
	}
	return *b
}

// parseNormalizer builds the normalizer a tokenizer.json describes; an
// absent or null one is nil.
func parseNormalizer(raw json.RawMessage) (normalizer, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var n normalizerJSON
	if err := json.Unmarshal(raw, &n); err != nil {
		return nil, fmt.Errorf("parse normalizer: %w", err)
	}
	switch n.Type {
	case "BertNormalizer":
		clean := orDefault(n.CleanText, true)
		chinese := orDefault(n.HandleChineseChars, true)
		lower := orDefault(n.Lowercase, true)
		// An absent or null strip_accents follows lowercase, as in the
		// tokenizers library.
		strip := orDefault(n.StripAccents, lower)
		return func(s string) string { return bertNormalize(s, clean, chinese, strip, lower) }, nil
	case "Lowercase":
		return lowercase, nil
	case "NFD":
		return norm.NFD.String, nil
	case "NFKD":
		return norm.NFKD.String, nil
	case "NFC":
		return norm.NFC.String, nil
	case "NFKC":
		return norm.NFKC.String, nil
	case "StripAccents":
		return stripMarks, nil
	case "Strip":
		return stripSpace(orDefault(n.StripLeft, true), orDefault(n.StripRight, true)), nil
	case "Replace":
		pat, ok := n.Pattern["String"]
		if !ok {
			return nil, fmt.Errorf("normalizer Replace: only string patterns are supported")
		}
		content := n.Content
		return func(s string) string { return strings.ReplaceAll(s, pat, content) }, nil
	case "Prepend":
		return prepend(n.Prepend), nil
	case "Sequence":
		return parseSequence(n.Normalizers)
	}
	return nil, fmt.Errorf("normalizer type %q is not supported", n.Type)
}

// stripMarks drops every combining mark: the StripAccents normalizer, which
// comes after an NFD step that splits accents off their letters.
func stripMarks(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.M, r) {
			return -1
		}
		return r
	}, s)
}

// stripSpace trims white space from the left end, the right end or both.
func stripSpace(left, right bool) normalizer {
	return func(s string) string {
		if left {
			s = strings.TrimLeftFunc(s, unicode.IsSpace)
		}
		if right {
			s = strings.TrimRightFunc(s, unicode.IsSpace)
		}
		return s
	}
}

// prepend puts p before any text that is not empty.
func prepend(p string) normalizer {
	return func(s string) string {
		if s == "" {
			return s
		}
		return p + s
	}
}

// parseSequence parses each step of a Sequence normalizer (a null step is
// skipped) and chains them in order.
func parseSequence(raws []json.RawMessage) (normalizer, error) {
	var steps []normalizer
	for _, r := range raws {
		step, err := parseNormalizer(r)
		if err != nil {
			return nil, err
		}
		if step != nil {
			steps = append(steps, step)
		}
	}
	return func(s string) string {
		for _, step := range steps {
			s = step(s)
		}
		return s
	}, nil
}

// bertNormalize is the BERT normalizer: drop control characters and map
// whitespace to a space, pad CJK ideographs with spaces, strip accents (NFD
// then drop non-spacing marks), lowercase; in that order.
func bertNormalize(s string, clean, chinese, strip, lower bool) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for _, r := range s {
		if clean {
			if r == 0 || r == 0xfffd || isControl(r) {
				continue
			}
			if unicode.IsSpace(r) {
				r = ' '
			}
		}
		if chinese && isChineseChar(r) {
			b.WriteByte(' ')
			b.WriteRune(r)
			b.WriteByte(' ')
			continue
		}
		b.WriteRune(r)
	}
	out := b.String()
	if strip && !isASCII(out) {
		out = strings.Map(func(r rune) rune {
			if unicode.Is(unicode.Mn, r) {
				return -1
			}
			return r
		}, norm.NFD.String(out))
	}
	if lower {
		out = lowercase(out)
	}
	return out
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// lowercase maps each character to its full lowercase form: the simple
// mapping everywhere except U+0130, whose lowercase is two characters.
func lowercase(s string) string {
	if !strings.ContainsRune(s, 'İ') {
		return strings.ToLower(s)
	}
	return strings.ToLower(strings.ReplaceAll(s, "İ", "i\u0307"))
}

// isControl is the tokenizers library's control test: any "other"
// character (Cc, Cf, Cs, Co, unassigned) except tab, newline and carriage
// return.
func isControl(r rune) bool {
	switch r {
	case '\t', '\n', '\r':
		return false
	}
	return isOther(r)
}

func isOther(r rune) bool {
	return !unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z)
}

func isChineseChar(r rune) bool {
	switch {
	case r >= 0x4E00 && r <= 0x9FFF,
		r >= 0x3400 && r <= 0x4DBF,
		r >= 0x20000 && r <= 0x2A6DF,
		r >= 0x2A700 && r <= 0x2B73F,
		r >= 0x2B740 && r <= 0x2B81F,
		r >= 0x2B920 && r <= 0x2CEAF,
		r >= 0xF900 && r <= 0xFAFF,
		r >= 0x2F800 && r <= 0x2FA1F:
		return true
	}
	return false
}
