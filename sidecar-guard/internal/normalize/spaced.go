package normalize

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// minSpaced is the shortest run of split letters that is joined: "a b
// testing" stays as it is, "a l l" becomes "all".
const minSpaced = 3

// CollapseSpaced joins letters split by one space, dot, dash or
// underscore into words: "i g n o r e", "I.g.n.o.r.e" and "i-g-n-o-r-e"
// become "ignore". A run needs at least three single letters and the same
// separator throughout, so "a b testing" is unchanged and "U.S.A." becomes
// "USA.". Anything else between two runs (two spaces, a different
// separator) is a word break, written as one space, so
// "i g n o r e  a l l" becomes "ignore all". It returns the text and the
// number of runs joined.
func CollapseSpaced(s string) (string, int) {
	var b strings.Builder
	copied, n := 0, 0
	for i := 0; i < len(s); {
		i = nextSingle(s, i)
		if i < 0 {
			break
		}
		end, letters := spacedRun(s, i)
		if letters < minSpaced {
			_, size := utf8.DecodeRuneInString(s[i:])
			i += size
			continue
		}
		if b.Cap() == 0 {
			b.Grow(len(s))
		}
		writeBefore(&b, s[copied:i])
		writeLetters(&b, s[i:end])
		n++
		i, copied = breakAfter(&b, s, end)
	}
	if n == 0 {
		return s, 0
	}
	b.WriteString(s[copied:])
	return b.String(), n
}

// nextSingle returns the start of the next one-letter word followed by a
// separator, at or after i, or -1. It looks for separators and checks the
// rune before each: separators are few, and this loop reads every byte.
func nextSingle(s string, i int) int {
	for j := i + 1; j < len(s); j++ {
		if !separatorBytes[s[j]] {
			continue
		}
		r, size := rune(s[j-1]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeLastRuneInString(s[:j])
		}
		if r < utf8.RuneSelf && !asciiLetter(byte(r)) {
			continue
		}
		if start := j - size; start >= i && unicode.IsLetter(r) && !wordBefore(s, start) {
			return start
		}
	}
	return -1
}

var separatorBytes = [256]bool{' ': true, '.': true, '-': true, '_': true}

func asciiLetter(c byte) bool { return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') }

// wordBefore reports whether the rune before i is part of a word.
func wordBefore(s string, i int) bool {
	if i == 0 {
		return false
	}
	if c := s[i-1]; c < utf8.RuneSelf {
		return inWord(rune(c))
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return inWord(r)
}

// spacedRun reads the run of single letters that starts at i, each
// followed by the same one-rune separator, and returns where the last
// letter ends and how many letters there were.
func spacedRun(s string, i int) (end, letters int) {
	var sep rune
	for {
		_, size := utf8.DecodeRuneInString(s[i:])
		letters++
		end = i + size
		if end >= len(s) {
			return end, letters
		}
		c, csize := utf8.DecodeRuneInString(s[end:])
		if !isSeparator(c) || (sep != 0 && c != sep) {
			return end, letters
		}
		next := end + csize
		r, rsize := utf8.DecodeRuneInString(s[next:])
		if next >= len(s) || !unicode.IsLetter(r) || !singleAt(s, next+rsize) {
			return end, letters
		}
		sep, i = c, next
	}
}

// breakAfter writes the word break after a joined run: white space that
// follows it becomes one space, or one line break when it holds one. It
// returns where reading goes on, which is also where copying starts.
func breakAfter(b *strings.Builder, s string, i int) (int, int) {
	j, newline := i, false
	for j < len(s) {
		r, size := utf8.DecodeRuneInString(s[j:])
		if !unicode.IsSpace(r) {
			break
		}
		newline = newline || r == '\n'
		j += size
	}
	switch {
	case j == i:
		return i, i
	case newline:
		b.WriteByte('\n')
	default:
		b.WriteByte(' ')
	}
	return j, j
}

// writeBefore writes the text before a joined run, its trailing white
// space as one word break, like breakAfter.
func writeBefore(b *strings.Builder, before string) {
	trimmed := strings.TrimRightFunc(before, unicode.IsSpace)
	b.WriteString(trimmed)
	switch space := before[len(trimmed):]; {
	case space == "":
	case strings.Contains(space, "\n"):
		b.WriteByte('\n')
	default:
		b.WriteByte(' ')
	}
}

// writeLetters writes the letters of a run without its separators.
func writeLetters(b *strings.Builder, run string) {
	for _, r := range run {
		if unicode.IsLetter(r) {
			b.WriteRune(r)
		}
	}
}

// singleAt reports whether the rune at i ends a one-letter word: the text
// ends there or it is not part of a word.
func singleAt(s string, i int) bool {
	if i >= len(s) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return !inWord(r)
}

func inWord(r rune) bool {
	if r < utf8.RuneSelf {
		return asciiLetter(byte(r)) || ('0' <= r && r <= '9')
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.M, r)
}

func isSeparator(r rune) bool {
	return r == ' ' || r == '.' || r == '-' || r == '_'
}
