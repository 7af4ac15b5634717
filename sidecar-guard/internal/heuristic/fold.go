package heuristic

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// fold turns normalised text into the form the phrase rules are written
// for: accents and other combining marks dropped, lower case, typographic
// quotes and dashes replaced by ASCII, runs of spaces collapsed to one and
// runs of line breaks to one newline.
func fold(s string) string {
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

// foldRune writes one decomposed rune of fold's output.
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
	b.WriteRune(unicode.ToLower(r))
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

// foldASCII is fold for pure ASCII input, without the Unicode tables.
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
