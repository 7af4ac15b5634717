package model

import (
	"unicode"
	"unicode/utf8"
)

// Span is a half-open range [Start, End) of token positions.
type Span struct{ Start, End int }

// Windows splits n tokens into spans of at most size tokens, each starting
// size-overlap tokens after the previous one, so that consecutive windows
// share overlap tokens and the last window ends at n. Zero tokens still give
// one (empty) window: an empty text is scored too. size must exceed overlap
// and overlap must not be negative; Load checks that before any call.
func Windows(n, size, overlap int) []Span {
	if n <= size {
		return []Span{{0, max(n, 0)}}
	}
	stride := size - overlap
	var spans []Span
	for start := 0; ; start += stride {
		end := min(start+size, n)
		spans = append(spans, Span{start, end})
		if end == n {
			return spans
		}
	}
}

// chunkText cuts s into pieces of at most size runes, consecutive pieces
// sharing overlap runes, so the tokenizer never sees one huge string. A cut
// moves back to the last whitespace in the final quarter of a piece, so it
// rarely splits a word. The pieces cover all of s.
func chunkText(s string, size, overlap int) []string {
	runes := []rune(s)
	if len(runes) <= size {
		return []string{s}
	}
	var chunks []string
	for start := 0; ; {
		end := min(start+size, len(runes))
		if end < len(runes) {
			for cut := end; cut > start+size*3/4; cut-- {
				if unicode.IsSpace(runes[cut-1]) {
					end = cut
					break
				}
			}
		}
		chunks = append(chunks, string(runes[start:end]))
		if end == len(runes) {
			return chunks
		}
		start = max(end-overlap, start+1)
	}
}

// sanitize prepares untrusted text for the tokenizer. Invalid UTF-8, U+FFFD,
// control characters other than tab and newlines, format characters
// (zero-width joiners, bidi overrides) and private-use or unassigned code
// points are dropped. Such characters hide text from a reader, and removing
// them inside the pure-Go tokenizer's normalizer has panicked (a multi-byte
// character removed while aligning offsets); the model sees the text a
// person would read.
func sanitize(s string) string {
	out := make([]rune, 0, utf8.RuneCountInString(s))
	for _, r := range s {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			out = append(out, r)
		case unicode.IsControl(r), unicode.Is(unicode.Cf, r), unicode.Is(unicode.Co, r), unicode.Is(unicode.Cs, r):
		case r == utf8.RuneError, !unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z):
			// Invalid bytes, U+FFFD itself, unassigned code points.
		default:
			out = append(out, r)
		}
	}
	return string(out)
}
