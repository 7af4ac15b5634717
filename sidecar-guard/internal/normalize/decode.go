package normalize

import (
	"encoding/base64"
	"strings"
	"unicode"
	"unicode/utf8"
)

// minBase64 is the shortest base64 run worth decoding: 32 characters
// carry 24 bytes, a short sentence.
const minBase64 = 32

// maxBase64Run is the longest prefix of a run that is decoded, in whole
// quanta of four characters, so at most MaxRunBytes come out.
const maxBase64Run = MaxRunBytes / 3 * 4

// Base64Runs returns the readable texts decoded from base64 runs of s
// (standard or URL alphabet, padded or not), at most limit of them.
func Base64Runs(s string, limit int) []string {
	var out []string
	for i := 0; i+minBase64 <= len(s) && len(out) < limit; {
		// A run long enough holds no other byte in its first minBase64:
		// reading those backwards skips most text a word at a time.
		k := i + minBase64 - 1
		for k >= i && isBase64Byte(s[k]) {
			k--
		}
		if k >= i {
			i = k + 1
			continue
		}
		j := i + minBase64
		for j < len(s) && isBase64Byte(s[j]) {
			j++
		}
		if text, ok := decodeBase64(s[i:j]); ok {
			out = append(out, text)
		}
		for i = j; i < len(s) && s[i] == '='; i++ {
		}
	}
	return out
}

func isBase64Byte(c byte) bool { return base64Bytes[c] }

// base64Bytes marks the letters of both base64 alphabets.
var base64Bytes = func() (t [256]bool) {
	for _, c := range []byte("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_") {
		t[c] = true
	}
	return t
}()

// decodeBase64 decodes an unpadded run in either alphabet and keeps it
// only when it reads as text.
func decodeBase64(run string) (string, bool) {
	enc := base64.RawStdEncoding
	if strings.ContainsAny(run, "-_") {
		if strings.ContainsAny(run, "+/") {
			return "", false
		}
		enc = base64.RawURLEncoding
	}
	if len(run) > maxBase64Run {
		run = run[:maxBase64Run]
	}
	if len(run)%4 == 1 {
		run = run[:len(run)-1]
	}
	b, err := enc.DecodeString(run)
	if err != nil {
		return "", false
	}
	return readable(trimPartialRune(b))
}

// minQPEscapes is how many =XX escapes make a quoted-printable run: a
// lone "=20" or "a=b" in ordinary text is not one.
const minQPEscapes = 3

// qpGap is how far apart two escapes of one run may be.
const qpGap = 64

// QuotedPrintableRuns returns the readable texts decoded from runs of
// quoted-printable escapes in s ("=49=67=6E=6F=72=65", soft line breaks
// "=\n"), at most limit of them. A run reaches from the word of its first
// escape to the word of its last, escapes no more than qpGap bytes apart.
func QuotedPrintableRuns(s string, limit int) []string {
	var out []string
	for i := 0; i < len(s) && len(out) < limit; {
		first := nextEscape(s, i)
		if first < 0 {
			break
		}
		last, n := first, 0
		for e := first; e >= 0 && e-last <= qpGap; e = nextEscape(s, e+1) {
			last, n = e, n+1
		}
		start, end := wordStart(s, first), wordStop(s, last+escapeLen(s, last))
		i = end
		if n < minQPEscapes {
			continue
		}
		if text, ok := readable(decodeQP(s[start:end])); ok {
			out = append(out, text)
		}
	}
	return out
}

// nextEscape returns the index of the next "=XX" or soft line break at or
// after i, or -1.
func nextEscape(s string, i int) int {
	for i < len(s) {
		k := strings.IndexByte(s[i:], '=')
		if k < 0 {
			return -1
		}
		i += k
		if escapeLen(s, i) > 0 {
			return i
		}
		i++
	}
	return -1
}

// escapeLen is the length of the escape at i ('=' included), or 0.
func escapeLen(s string, i int) int {
	switch {
	case i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
		return 3
	case strings.HasPrefix(s[i+1:], "\r\n"):
		return 3
	case strings.HasPrefix(s[i+1:], "\n"):
		return 2
	}
	return 0
}

func isHex(c byte) bool {
	return ('0' <= c && c <= '9') || ('A' <= c && c <= 'F') || ('a' <= c && c <= 'f')
}

func wordStart(s string, i int) int {
	for i > 0 && !isSpaceByte(s[i-1]) {
		i--
	}
	return i
}

func wordStop(s string, i int) int {
	for i < len(s) && !isSpaceByte(s[i]) {
		i++
	}
	return i
}

func isSpaceByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

// decodeQP decodes escapes and drops soft line breaks, leniently: an
// '=' that starts neither is kept. It stops at MaxRunBytes.
func decodeQP(run string) []byte {
	out := make([]byte, 0, min(len(run), MaxRunBytes))
	for i := 0; i < len(run) && len(out) < MaxRunBytes; {
		if run[i] != '=' {
			out = append(out, run[i])
			i++
			continue
		}
		switch n := escapeLen(run, i); {
		case n == 3 && run[i+1] != '\r':
			out = append(out, unhex(run[i+1])<<4|unhex(run[i+2]))
			i += 3
		case n > 0:
			i += n
		default:
			out = append(out, '=')
			i++
		}
	}
	return trimPartialRune(out)
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

// trimPartialRune drops an incomplete rune a length cap cut at the end.
func trimPartialRune(b []byte) []byte {
	for k := 0; k < utf8.UTFMax-1 && len(b) > 0; k++ {
		if r, size := utf8.DecodeLastRune(b); r != utf8.RuneError || size != 1 {
			break
		}
		b = b[:len(b)-1]
	}
	return b
}

// readable keeps decoded bytes that read as text with words: valid UTF-8,
// nine in ten runes printable, letters and at least two spaces. Binary data, which
// decodes from base64 just as well, is dropped.
func readable(b []byte) (string, bool) {
	if !utf8.Valid(b) {
		return "", false
	}
	text := string(b)
	total, ok, spaces, letters := 0, 0, 0, 0
	for _, r := range text {
		total++
		switch {
		case unicode.IsLetter(r):
			letters++
			ok++
		case r == ' ':
			spaces++
			ok++
		case unicode.IsDigit(r) || unicode.IsPunct(r) || unicode.IsSpace(r) || unicode.IsSymbol(r) || unicode.Is(unicode.M, r):
			ok++
		}
	}
	if letters == 0 || ok*10 < total*9 || spaces < 2 {
		return "", false
	}
	return text, true
}
