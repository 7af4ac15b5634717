// Package searchdoctest makes synthetic text for search benchmarks: made-up
// words drawn with a Zipf distribution, as words are in real text, so a
// benchmark's term statistics resemble a real board's.
package searchdoctest

import (
	"math/rand/v2"
	"strings"
)

// Vocabulary makes n made-up words of 3 to 8 letters from r and returns
// them with a function that joins k of them, drawn Zipf-distributed (a few
// words common, most rare), into a text. Both use r, so one seed gives one
// sequence of words and texts.
func Vocabulary(r *rand.Rand, n int) (words []string, text func(k int) string) {
	words = make([]string, n)
	for i := range words {
		var b strings.Builder
		for range 3 + r.IntN(6) {
			b.WriteByte(byte('a' + r.IntN(26)))
		}
		words[i] = b.String()
	}
	zipf := rand.NewZipf(r, 1.1, 2, uint64(n-1))
	text = func(k int) string {
		ws := make([]string, k)
		for i := range ws {
			ws[i] = words[zipf.Uint64()]
		}
		return strings.Join(ws, " ")
	}
	return words, text
}
