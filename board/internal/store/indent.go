package store

import "bytes"

// maxIndent is the deepest level that gets its own indentation; deeper
// lines are indented as this level. Without it a value nested n levels
// deep (a hand edit, or one saved before free-form values were bounded)
// costs about n*n/2 spaces: 60 KB of nesting made a 100 MB document.
const maxIndent = 64

// appendIndent indents compact JSON exactly as json.Indent does with an
// empty prefix and a one-space indent, starting at depth, up to maxIndent
// levels deep, so the output stays linear in the input. It assumes valid
// input (it only ever sees json.Marshal output) and is several times faster
// than json.Indent, which dominates the cost of encoding a large document.
func appendIndent(dst, src []byte, depth int) []byte {
	newline := func(dst []byte, depth int) []byte {
		dst = append(dst, '\n')
		for range min(depth, maxIndent) {
			dst = append(dst, ' ')
		}
		return dst
	}
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '"':
			j := i + 1
			for j < len(src) {
				k := bytes.IndexAny(src[j:], `"\`)
				if k < 0 {
					j = len(src)
					break
				}
				j += k
				if src[j] == '\\' {
					j += 2
					continue
				}
				break
			}
			end := min(j+1, len(src))
			dst = append(dst, src[i:end]...)
			i = end - 1
		case '{', '[':
			if i+1 < len(src) && (src[i+1] == '}' || src[i+1] == ']') {
				dst = append(dst, c, src[i+1])
				i++
				continue
			}
			depth++
			dst = newline(append(dst, c), depth)
		case '}', ']':
			depth--
			dst = append(newline(dst, depth), c)
		case ',':
			dst = newline(append(dst, c), depth)
		case ':':
			dst = append(dst, ':', ' ')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}
