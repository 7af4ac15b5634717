package tokenizer

import (
	"encoding/json"
	"fmt"
	"unicode"
)

// preTokenizer cuts normalized text into words for the model.
type preTokenizer func(string) []string

type preTokenizerJSON struct {
	Type             string            `json:"type"`
	Behavior         string            `json:"behavior"`
	IndividualDigits bool              `json:"individual_digits"`
	PreTokenizers    []json.RawMessage `json:"pretokenizers"`
}

func parsePreTokenizer(raw json.RawMessage) (preTokenizer, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var p preTokenizerJSON
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, fmt.Errorf("parse pre_tokenizer: %w", err)
	}
	switch p.Type {
	case "BertPreTokenizer":
		return func(s string) []string { return splitIsolated(splitRemoved(s, unicode.IsSpace), isBertPunct) }, nil
	case "WhitespaceSplit":
		return func(s string) []string { return splitRemoved(s, unicode.IsSpace) }, nil
	case "Whitespace":
		return whitespaceWords, nil
	case "Punctuation":
		if p.Behavior != "" && p.Behavior != "Isolated" {
			return nil, fmt.Errorf("pre_tokenizer Punctuation: behavior %q is not supported", p.Behavior)
		}
		return func(s string) []string { return splitIsolated([]string{s}, isBertPunct) }, nil
	case "Digits":
		if p.IndividualDigits {
			return func(s string) []string { return splitIsolated([]string{s}, unicode.IsDigit) }, nil
		}
		return func(s string) []string { return splitContiguous(s, unicode.IsDigit) }, nil
	case "Sequence":
		var steps []preTokenizer
		for _, r := range p.PreTokenizers {
			step, err := parsePreTokenizer(r)
			if err != nil {
				return nil, err
			}
			if step != nil {
				steps = append(steps, step)
			}
		}
		return func(s string) []string {
			words := []string{s}
			for _, step := range steps {
				var next []string
				for _, w := range words {
					next = append(next, step(w)...)
				}
				words = next
			}
			return words
		}, nil
	}
	return nil, fmt.Errorf("pre_tokenizer type %q is not supported", p.Type)
}

// isBertPunct is ASCII punctuation (which includes symbols such as $ and +)
// or any Unicode punctuation.
func isBertPunct(r rune) bool {
	if r < 0x80 {
		return (r >= '!' && r <= '/') || (r >= ':' && r <= '@') || (r >= '[' && r <= '`') || (r >= '{' && r <= '~')
	}
	return unicode.IsPunct(r)
}

// splitRemoved splits on characters matching sep and drops them.
func splitRemoved(s string, sep func(rune) bool) []string {
	var out []string
	start := -1
	for i, r := range s {
		if sep(r) {
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

// splitIsolated splits each piece so that every character matching sep is
// a piece of its own.
func splitIsolated(pieces []string, sep func(rune) bool) []string {
	var out []string
	for _, s := range pieces {
		start := 0
		for i, r := range s {
			if !sep(r) {
				continue
			}
			if i > start {
				out = append(out, s[start:i])
			}
			end := i + len(string(r))
			out = append(out, s[i:end])
			start = end
		}
		if start < len(s) {
			out = append(out, s[start:])
		}
	}
	return out
}

// splitContiguous splits s into runs of matching and non-matching characters.
func splitContiguous(s string, in func(rune) bool) []string {
	var out []string
	start, state := 0, false
	for i, r := range s {
		m := in(r)
		if i > start && m != state {
			out = append(out, s[start:i])
			start = i
		}
		state = m
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// whitespaceWords is the tokenizers library's \w+|[^\w\s]+ split.
func whitespaceWords(s string) []string {
	var out []string
	start, kind := -1, 0 // kind 1: word run, 2: other run
	for i, r := range s {
		k := 2
		switch {
		case unicode.IsSpace(r):
			k = 0
		case isRegexWord(r):
			k = 1
		}
		if k != kind && start >= 0 {
			out = append(out, s[start:i])
			start = -1
		}
		if k != 0 && start < 0 {
			start = i
		}
		kind = k
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

func isRegexWord(r rune) bool {
	return unicode.In(r, unicode.L, unicode.Nl, unicode.M, unicode.Nd, unicode.Pc, unicode.Other_Alphabetic) || r == 0x200C || r == 0x200D
}
