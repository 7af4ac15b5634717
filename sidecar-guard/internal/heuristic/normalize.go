package heuristic

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// hidden records the invisible characters normalisation removed, so the
// scan can say they were there after the phrase rules have looked at the
// cleaned text.
type hidden struct {
	// formatChars counts removed format characters (Unicode category Cf:
	// zero-width spaces and joiners, bidi controls, soft hyphens, tags).
	formatChars int
	// inWord is true when a format character sat between two letters, the
	// usual way to split a trigger word ("ig\u200bnore") past a filter.
	inWord bool
	// bidiOverride is true for U+202D or U+202E, which reverse how text is
	// displayed without changing what a model reads.
	bidiOverride bool
	// tagText is ASCII smuggled in Unicode tag characters (U+E0020..E007E),
	// invisible on screen but read by a model.
	tagText string
}

// stripFormat removes format characters from s and reports what it found.
func stripFormat(s string) (string, hidden) {
	var h hidden
	// Fast path: most text has no format characters at all.
	clean := true
	for _, r := range s {
		if r >= 0x80 && unicode.Is(unicode.Cf, r) {
			clean = false
			break
		}
	}
	if clean {
		return s, h
	}
	var b, tags strings.Builder
	b.Grow(len(s))
	prevLetter := false // the last kept rune was a letter
	pending := false    // a format character was dropped since that rune
	for _, r := range s {
		if r >= 0x80 && unicode.Is(unicode.Cf, r) {
			h.formatChars++
			switch {
			case r == 0x202D || r == 0x202E:
				h.bidiOverride = true
			case r >= 0xE0020 && r <= 0xE007E:
				tags.WriteByte(byte(r - 0xE0000))
			}
			pending = true
			continue
		}
		isLetter := unicode.IsLetter(r)
		if pending && prevLetter && isLetter && isLatin(r) {
			h.inWord = true
		}
		pending = false
		prevLetter = isLetter && isLatin(r)
		b.WriteRune(r)
	}
	h.tagText = tags.String()
	return b.String(), h
}

func isLatin(r rune) bool {
	return r < 0x80 || unicode.Is(unicode.Latin, r)
}

// normalize folds s into the form the phrase rules are written for:
// compatibility forms decomposed (full-width letters, ligatures), accents
// and other combining marks dropped, lower case, typographic quotes and
// dashes replaced by ASCII, runs of spaces collapsed to one and runs of
// line breaks to one newline. Format characters must already be gone.
func normalize(s string) string {
	if isPlainASCII(s) {
		return foldASCII(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	space, newline := false, false
	var buf [64]byte
	for _, r := range s {
		if r < utf8.RuneSelf {
			foldRune(&b, r, &space, &newline)
			continue
		}
		// Decompose one rune at a time: emails are mostly ASCII, and the
		// combining marks a whole-text NFKD would reorder are dropped.
		n := utf8.EncodeRune(buf[:], r)
		for _, d := range string(norm.NFKD.Append(buf[8:8], buf[:n]...)) {
			foldRune(&b, d, &space, &newline)
		}
	}
	return b.String()
}

// foldRune writes one decomposed rune of normalize's output.
func foldRune(b *strings.Builder, r rune, space, newline *bool) {
	if r < utf8.RuneSelf {
		switch r {
		case '\n', '\r', '\v', '\f':
			*newline = true
			return
		case ' ', '\t':
			*space = true
			return
		case '`':
			r = '\''
		}
		flushSpace(b, space, newline)
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		b.WriteByte(byte(r))
		return
	}
	if unicode.Is(unicode.Mn, r) {
		return
	}
	switch r {
	case 0x85, 0x2028, 0x2029:
		*newline = true
		return
	case '\u2018', '\u2019', '\u201A', '\u201B', '\u02BC', '\u2032', '\u00B4':
		r = '\''
	case '\u201C', '\u201D', '\u201E', '\u201F', '\u00AB', '\u00BB', '\u2033':
		r = '"'
	case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212':
		r = '-'
	case '\u00BF', '\u00A1': // ¿ ¡ open a Spanish sentence; a space keeps the word start clean
		*space = true
		return
	case '\u00DF': // ß folds to ss
		flushSpace(b, space, newline)
		b.WriteString("ss")
		return
	}
	if unicode.IsSpace(r) {
		*space = true
		return
	}
	flushSpace(b, space, newline)
	if r < utf8.RuneSelf { // a decomposition can yield ASCII
		foldRune(b, r, space, newline)
		return
	}
	if c, ok := confusables[r]; ok {
		b.WriteByte(c)
		return
	}
	b.WriteRune(unicode.ToLower(r))
}

// confusables maps Cyrillic and Greek letters that look like Latin ones to
// those, so "ignоre" with a Cyrillic о still reads as "ignore". Whole
// words in those scripts become a harmless mix that no rule matches.
var confusables = map[rune]byte{
	// Cyrillic
	'а': 'a', 'А': 'a', 'В': 'b', 'е': 'e', 'Е': 'e', 'Н': 'h', 'һ': 'h', 'і': 'i', 'І': 'i',
	'ј': 'j', 'Ј': 'j', 'К': 'k', 'М': 'm', 'о': 'o', 'О': 'o', 'р': 'p', 'Р': 'p', 'с': 'c',
	'С': 'c', 'ѕ': 's', 'Ѕ': 's', 'Т': 't', 'у': 'y', 'У': 'y', 'х': 'x', 'Х': 'x', 'ԁ': 'd',
	'ԛ': 'q', 'ԝ': 'w', 'ӏ': 'l',
	// Greek
	'Α': 'a', 'α': 'a', 'Β': 'b', 'Ε': 'e', 'Ζ': 'z', 'Η': 'h', 'Ι': 'i', 'ι': 'i', 'Κ': 'k',
	'κ': 'k', 'Μ': 'm', 'Ν': 'n', 'ν': 'v', 'Ο': 'o', 'ο': 'o', 'Ρ': 'p', 'ρ': 'p', 'Τ': 't',
	'Υ': 'y', 'υ': 'u', 'Χ': 'x', 'χ': 'x',
}

// flushSpace writes the pending separator before the next visible rune.
func flushSpace(b *strings.Builder, space, newline *bool) {
	if b.Len() > 0 {
		if *newline {
			b.WriteByte('\n')
		} else if *space {
			b.WriteByte(' ')
		}
	}
	*space, *newline = false, false
}

func isPlainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// foldASCII is normalize for pure ASCII input, without the Unicode tables.
func foldASCII(s string) string {
	b := make([]byte, 0, len(s))
	space, newline := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\n', '\r', '\v', '\f':
			newline = true
			continue
		case ' ', '\t':
			space = true
			continue
		case '`':
			c = '\''
		}
		if len(b) > 0 {
			if newline {
				b = append(b, '\n')
			} else if space {
				b = append(b, ' ')
			}
		}
		space, newline = false, false
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return string(b)
}
