package embed

import (
	"unicode"
	"unicode/utf8"
)

// Hash is feature hashing: each lowercased word and each character
// trigram of the word (padded with < and >) adds a signed weight to one of
// Dim buckets, and the sum is L2-normalized. Deterministic, no model.
type Hash struct{}

// Name is the embedder's identity.
func (Hash) Name() string { return "hash" }

// Dim is the vector size.
func (Hash) Dim() int { return Dim }

// Feature weights: a whole-word match says more than a shared trigram.
const (
	wordWeight = 1.0
	gramWeight = 0.5
)

// Embed writes the vector of text into dst.
func (Hash) Embed(dst []float32, text string) {
	clear(dst)
	var stack [96]byte
	word := stack[:0]
	flush := func() {
		if len(word) > 0 {
			addWord(dst, word)
			word = word[:0]
		}
	}
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
				word = append(word, c)
			case 'A' <= c && c <= 'Z':
				word = append(word, c+('a'-'A'))
			default:
				flush()
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) {
			word = utf8.AppendRune(word, unicode.ToLower(r))
		} else {
			flush()
		}
	}
	flush()
	Normalize(dst)
}

// FNV-1a, finished with a 64-bit mixer so the low bits (the bucket) and
// the top bit (the sign) are well spread.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func mix(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}

func add(dst []float32, h uint64, w float32) {
	h = mix(h)
	if h>>63 == 1 {
		w = -w
	}
	dst[h%uint64(len(dst))] += w
}

func addWord(dst []float32, word []byte) {
	h := uint64(fnvOffset)
	h = (h ^ 'w') * fnvPrime
	for _, c := range word {
		h = (h ^ uint64(c)) * fnvPrime
	}
	add(dst, h, wordWeight)

	// Trigrams over the runes of "<word>": padded position 0 is '<', n+1 is
	// '>', and p in 1..n is the word's rune p-1, at bytes pos[p-1]:pos[p].
	var offs [48]int
	pos := offs[:0]
	for i := 0; i < len(word); {
		pos = append(pos, i)
		_, size := utf8.DecodeRune(word[i:])
		i += size
	}
	pos = append(pos, len(word))
	n := len(pos) - 1
	for k := 0; k+2 <= n+1; k++ {
		g := uint64(fnvOffset)
		g = (g ^ 'g') * fnvPrime
		for p := k; p <= k+2; p++ {
			switch p {
			case 0:
				g = (g ^ '<') * fnvPrime
			case n + 1:
				g = (g ^ '>') * fnvPrime
			default:
				for _, c := range word[pos[p-1]:pos[p]] {
					g = (g ^ uint64(c)) * fnvPrime
				}
			}
		}
		add(dst, g, gramWeight)
	}
}
