package normalize

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Invisible is what StripInvisible removed.
type Invisible struct {
	Removed      int  // format characters removed, all kinds
	InWord       bool // one sat between two Latin letters
	Bidi         int  // bidi controls among them
	BidiOverride bool // U+202D or U+202E among them
	Tags         int  // tag characters among them
	// TagText is the ASCII the tag characters spelled, in order.
	TagText string
}

// StripInvisible removes format characters (Unicode category Cf: zero-width
// spaces and joiners, soft hyphens, bidi controls, tag characters) from s
// and reports what it removed.
func StripInvisible(s string) (string, Invisible) {
	var inv Invisible
	if !hasFormat(s) {
		return s, inv
	}
	var b, tags strings.Builder
	b.Grow(len(s))
	prevLatin := false // the last kept rune was a Latin letter
	pending := false   // a format character was removed since that rune
	for _, r := range s {
		if r >= 0x80 && unicode.Is(unicode.Cf, r) {
			inv.Removed++
			switch {
			case isBidi(r):
				inv.Bidi++
				inv.BidiOverride = inv.BidiOverride || r == 0x202D || r == 0x202E
			case r >= 0xE0000 && r <= 0xE007F:
				inv.Tags++
				if r >= 0xE0020 && r <= 0xE007E {
					tags.WriteByte(byte(r - 0xE0000))
				}
			}
			pending = true
			continue
		}
		latin := unicode.IsLetter(r) && isLatin(r)
		if pending && prevLatin && latin {
			inv.InWord = true
		}
		pending, prevLatin = false, latin
		b.WriteRune(r)
	}
	inv.TagText = tags.String()
	return b.String(), inv
}

// InvisibleAsSpace reads each run of format characters in s as a word
// break: "Ignore\u200ball\u200bprevious" becomes "Ignore all previous".
// StripInvisible reads the same text as "Ignoreallprevious"; a zero-width
// space may stand for either, so both readings are scanned.
func InvisibleAsSpace(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	gap := false
	for _, r := range s {
		if r >= 0x80 && unicode.Is(unicode.Cf, r) {
			gap = true
			continue
		}
		if gap {
			b.WriteByte(' ')
			gap = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// hasFormat reports whether s holds any format character; most text has
// none, and then nothing is copied.
func hasFormat(s string) bool {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.Is(unicode.Cf, r) {
			return true
		}
		i += size
	}
	return false
}

// isBidi reports whether r is a bidi control: the marks, the embeddings
// and overrides, and the isolates.
func isBidi(r rune) bool {
	return r == 0x061C || r == 0x200E || r == 0x200F ||
		(r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069)
}

func isLatin(r rune) bool {
	return r < 0x80 || unicode.Is(unicode.Latin, r)
}

// NFKC returns s in Unicode normalisation form KC: full-width letters,
// mathematical alphanumerics, ligatures and other compatibility forms
// become the plain letters they stand for.
func NFKC(s string) string {
	if isASCII(s) {
		return s
	}
	return norm.NFKC.String(s)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
