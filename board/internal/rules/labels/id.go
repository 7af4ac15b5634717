package labels

import (
	"strconv"
	"strings"
)

// Kebab turns a label title into an id: lowercase ASCII letters and digits,
// with every run of anything else collapsed into one '-' and none at either
// end. A title with nothing usable yields "label", so an id is never empty.
func Kebab(title string) string {
	var sb strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		if ('a' <= r && r <= 'z') || ('0' <= r && r <= '9') {
			if dash && sb.Len() > 0 {
				sb.WriteByte('-')
			}
			dash = false
			sb.WriteRune(r)
			continue
		}
		dash = true
	}
	if sb.Len() == 0 {
		return "label"
	}
	return sb.String()
}

// MintID returns Kebab(title), or the first of "-2", "-3", ... appended to it
// that taken reports free. Ids are minted by the store rather than supplied
// by callers, so two labels titled alike still get distinct, readable ids.
func MintID(title string, taken func(id string) bool) string {
	base := Kebab(title)
	id := base
	for n := 2; taken(id); n++ {
		id = base + "-" + strconv.Itoa(n)
	}
	return id
}
