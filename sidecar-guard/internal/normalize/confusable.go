package normalize

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// lookAlikes maps Cyrillic and Greek letters that look like Latin ones to
// those, keeping case, so "ignоre" with a Cyrillic о reads as "ignore".
var lookAlikes = map[rune]rune{
	// Cyrillic
	'а': 'a', 'А': 'A', 'В': 'B', 'с': 'c', 'С': 'C', 'ԁ': 'd', 'е': 'e', 'Е': 'E',
	'һ': 'h', 'Н': 'H', 'і': 'i', 'І': 'I', 'ј': 'j', 'Ј': 'J', 'К': 'K', 'ӏ': 'l',
	'М': 'M', 'о': 'o', 'О': 'O', 'р': 'p', 'Р': 'P', 'ԛ': 'q', 'ѕ': 's', 'Ѕ': 'S',
	'Т': 'T', 'ԝ': 'w', 'х': 'x', 'Х': 'X', 'у': 'y', 'У': 'Y', 'ү': 'y', 'Ү': 'Y',
	// Greek
	'α': 'a', 'Α': 'A', 'Β': 'B', 'ϲ': 'c', 'Ϲ': 'C', 'Ε': 'E', 'Η': 'H', 'ι': 'i',
	'Ι': 'I', 'ϳ': 'j', 'κ': 'k', 'Κ': 'K', 'Μ': 'M', 'ν': 'v', 'Ν': 'N', 'ο': 'o',
	'Ο': 'O', 'ρ': 'p', 'Ρ': 'P', 'Τ': 'T', 'υ': 'u', 'Υ': 'Y', 'χ': 'x', 'Χ': 'X',
	'Ζ': 'Z',
}

// FoldConfusables replaces look-alike Cyrillic and Greek letters with the
// Latin ones they imitate, in the words that are built to deceive: a word
// that mixes them with Latin letters ("ignоre"), or a word of two letters
// or more made of look-alikes only ("ΑΙ"). A real Russian or Greek word
// has letters with no Latin twin and is left alone. It returns the text
// and how many letters it folded.
func FoldConfusables(s string) (string, int) {
	if !hasGreekOrCyrillic(s) {
		return s, 0
	}
	var b strings.Builder
	copied, n := 0, 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsLetter(r) {
			i += size
			continue
		}
		end := wordEnd(s, i)
		if foldWord(s[i:end]) {
			if b.Cap() == 0 {
				b.Grow(len(s))
			}
			b.WriteString(s[copied:i])
			for _, c := range s[i:end] {
				if l, ok := lookAlikes[c]; ok {
					c = l
					n++
				}
				b.WriteRune(c)
			}
			copied = end
		}
		i = end
	}
	if n == 0 {
		return s, 0
	}
	b.WriteString(s[copied:])
	return b.String(), n
}

// hasGreekOrCyrillic reports whether s holds a byte that starts a Greek
// or Cyrillic letter (U+0370..U+052F lead with 0xCD..0xD4), where every
// look-alike lives; most mail has none and is returned as it is.
func hasGreekOrCyrillic(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0xCD && c <= 0xD4 {
			return true
		}
	}
	return false
}

// wordEnd returns the end of the word of letters and marks starting at i.
func wordEnd(s string, i int) int {
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsLetter(r) && !unicode.Is(unicode.M, r) {
			break
		}
		i += size
	}
	return i
}

// foldWord reports whether a word mixes look-alikes with Latin letters or
// is made of two or more look-alikes only.
func foldWord(w string) bool {
	latin, alike, other := 0, 0, 0
	for _, r := range w {
		switch {
		case !unicode.IsLetter(r):
		case r < 0x80 || unicode.Is(unicode.Latin, r):
			latin++
		case lookAlikes[r] != 0:
			alike++
		default:
			other++
		}
	}
	return alike > 0 && (latin > 0 || (other == 0 && alike >= 2))
}
