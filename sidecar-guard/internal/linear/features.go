// Package linear is the learned half of the guard's offline detector: a
// logistic regression over hashed word and character n-grams, its binary
// weights file, and the deterministic trainer that writes it. It reads no
// files of its own; the committed weights come in through go:embed.
package linear

import (
	"math"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Feature hashing: every n-gram lands in one of 1<<Bits buckets. Word and
// character n-grams are hashed with distinct prefixes so they do not share
// buckets by construction.
const (
	DefaultBits = 18
	minChar     = 3
	maxChar     = 5
	// MaxRunes is how much of a text is read, as the sidecar's segments are
	// at most 4,000 runes; training reads the same span so long texts do
	// not weigh more than the detector will ever see.
	MaxRunes = 4000
)

const (
	fnvOffset = 2166136261
	fnvPrime  = 16777619
)

// Normalize is the text the features are read from: NFKC, format
// characters (zero-width, bidi, tags) dropped, lower case, every run of
// whitespace one space, at most MaxRunes runes. Case is never a feature:
// one benign source is all lower case, and the model must not learn that
// capitals mean an attack.
func Normalize(s string) string { return string(normalize(s)) }

// normalize is Normalize into a rune slice.
func normalize(s string) []rune {
	return normalizeInto(make([]rune, 0, min(len(s), MaxRunes)), s)
}

// normalizeInto is normalize appending to out, so a caller can reuse it.
func normalizeInto(out []rune, s string) []rune {
	s = norm.NFKC.String(s)
	space, line, skip := true, true, 0
	for i, r := range s {
		if len(out) >= MaxRunes {
			break
		}
		if i < skip {
			continue
		}
		if line && r != ' ' && r != '\t' {
			line = false
			if skip = i + headerLen(s[i:]); skip > i {
				continue
			}
		}
		if r < utf8.RuneSelf { // most mail is ASCII: skip the table lookups
			switch {
			case r == ' ' || (r >= '\t' && r <= '\r'):
				if !space {
					out = append(out, ' ')
				}
				space, line = true, line || r == '\n' || r == '\r'
				continue
			case r >= 'A' && r <= 'Z':
				r += 'a' - 'A'
			}
			out, space = append(out, r), false
			continue
		}
		switch {
		case unicode.Is(unicode.Cf, r):
			continue
		case unicode.IsSpace(r):
			if !space {
				out = append(out, ' ')
			}
			space, line = true, line || r == '\u2028' || r == '\u2029' || r == '\u0085'
			continue
		}
		out, space = append(out, unicode.ToLower(r)), false
	}
	if n := len(out); n > 0 && out[n-1] == ' ' {
		out = out[:n-1]
	}
	return out
}

// headers are the mail header names whose line start is no evidence either
// way: every mail has them, and the data has them on one side more than
// the other by accident (an attack put at the start of a mail keeps its
// subject line in the window around it; a clean mail's later windows do
// not). Reply and forward marks after them are the same kind of noise.
var (
	headers = []string{"subject", "from", "to", "cc", "bcc", "date", "sent", "reply-to", "betreff", "von", "an", "datum", "asunto"}
	replies = []string{"re", "fwd", "fw", "aw", "wg"}
)

// headerLen is how many bytes of s, the start of a line, are a header name
// with its colon and any reply or forward marks after it, with the spaces
// that follow; 0 when the line does not start with a header.
func headerLen(s string) int {
	n := prefixLen(s, headers)
	if n == 0 {
		return prefixLen(s, replies) // a subject line quoted on its own
	}
	for k := n; k > 0; n += k {
		k = prefixLen(s[n:], replies)
	}
	return n
}

// prefixLen is the length of the name of names that s starts with, in any
// case, followed by a colon and spaces; 0 when none does.
func prefixLen(s string, names []string) int {
	for _, name := range names {
		if len(s) <= len(name) || s[len(name)] != ':' || !asciiFold(s[:len(name)], name) {
			continue
		}
		n := len(name) + 1
		for n < len(s) && (s[n] == ' ' || s[n] == '\t') {
			n++
		}
		return n
	}
	return 0
}

// asciiFold reports whether s equals the lower-case ASCII name in any case.
func asciiFold(s, name string) bool {
	for i := range len(name) {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != name[i] {
			return false
		}
	}
	return true
}

// Features calls emit with the bucket of every n-gram occurrence of the
// normalized text (repeats included) and returns how many there were.
func Features(text string, bits uint, emit func(uint32)) int {
	return placed(normalize(text), bits, func(_ int, h uint32) { emit(h) })
}

// placed calls emit with each bucket of the normalized text t and the rune
// position (0 to len(t)+1) the n-gram starts or ends at, and returns how
// many there were.
func placed(t []rune, bits uint, emit func(pos int, h uint32)) int {
	mask := uint32(1)<<bits - 1
	n := 0
	put := func(pos int, h uint32) {
		emit(pos, h&mask)
		n++
	}
	words(t, put)
	chars(t, put)
	return n
}

// Scale is the factor every occurrence's weight is multiplied by: one over
// the square root of the count, so a long text does not score higher for
// its length alone.
func Scale(n int) float64 {
	if n == 0 {
		return 0
	}
	return 1 / math.Sqrt(float64(n))
}

func hashRune(h uint32, r rune) uint32 {
	if r < utf8.RuneSelf {
		return (h ^ uint32(r)) * fnvPrime
	}
	return hashWide(h, r)
}

func hashWide(h uint32, r rune) uint32 {
	var buf [utf8.UTFMax]byte
	for _, c := range buf[:utf8.EncodeRune(buf[:], r)] {
		h = (h ^ uint32(c)) * fnvPrime
	}
	return h
}

// words emits word unigrams and bigrams; a word is a run of letters,
// digits and combining marks. Without the marks, a script that writes its
// vowels as marks (Bengali, Hindi, Thai, Telugu) fell apart into single
// consonants, and those "words" only said which script a text was in.
// A bigram's bucket mixes the two words' hashes.
func words(t []rune, put func(int, uint32)) {
	var prev, cur uint32
	in, hasPrev := false, false
	flush := func(pos int) {
		if !in {
			return
		}
		put(pos, cur)
		if hasPrev {
			put(pos, ((prev^0x9e3779b9)*fnvPrime)^cur*0x85ebca6b)
		}
		prev, hasPrev, in = cur, true, false
	}
	for i, r := range t {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || (r >= utf8.RuneSelf && unicode.IsMark(r)) {
			if !in {
				cur, in = hashRune(fnvOffset, 'w'), true
			}
			cur = hashRune(cur, r)
			continue
		}
		flush(i)
	}
	flush(len(t))
}

// chars emits character 3- to 5-grams of the text padded with a space at
// each end; FNV-1a is a running hash, so the 4- and 5-gram at a position
// extend its 3-gram's hash.
func chars(t []rune, put func(int, uint32)) {
	at := func(i int) rune {
		if i == 0 || i > len(t) {
			return ' '
		}
		return t[i-1]
	}
	start := hashRune(fnvOffset, 'c')
	for i := range len(t) + 2 {
		h := start
		for k := 0; k < maxChar && i+k < len(t)+2; k++ {
			h = hashRune(h, at(i+k))
			if k+1 >= minChar {
				put(i, h)
			}
		}
	}
}
