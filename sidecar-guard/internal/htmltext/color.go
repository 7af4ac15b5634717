package htmltext

import (
	"fmt"
	"strconv"
	"strings"
)

// names are the colour keywords mail templates use for text and
// backgrounds; others read as unknown, which never hides text.
var names = map[string]string{
	"white": "#ffffff", "black": "#000000", "red": "#ff0000", "green": "#008000", "blue": "#0000ff",
	"yellow": "#ffff00", "gray": "#808080", "grey": "#808080", "silver": "#c0c0c0", "navy": "#000080",
	"whitesmoke": "#f5f5f5", "snow": "#fffafa", "ivory": "#fffff0", "ghostwhite": "#f8f8ff",
	"orange": "#ffa500", "purple": "#800080", "teal": "#008080", "maroon": "#800000",
}

// normColor is a colour as "#rrggbb", "transparent", or "" when v is not
// a colour this package reads.
func normColor(v string) string {
	v = strings.ToLower(strings.TrimSpace(v))
	switch {
	case v == "transparent":
		return v
	case strings.HasPrefix(v, "#"):
		return hexColor(v[1:])
	case strings.HasPrefix(v, "rgb"):
		return rgbColor(v)
	}
	if c, ok := names[v]; ok {
		return c
	}
	if len(v) == 6 || len(v) == 3 { // bgcolor="ffffff" without the hash
		return hexColor(v)
	}
	return ""
}

func hexColor(h string) string {
	if len(h) == 3 {
		h = string([]byte{h[0], h[0], h[1], h[1], h[2], h[2]})
	}
	if len(h) != 6 {
		return ""
	}
	if _, err := strconv.ParseUint(h, 16, 32); err != nil {
		return ""
	}
	return "#" + h
}

func rgbColor(v string) string {
	open, close := strings.IndexByte(v, '('), strings.IndexByte(v, ')')
	if open < 0 || close < open {
		return ""
	}
	parts := strings.FieldsFunc(v[open+1:close], func(r rune) bool { return r == ',' || r == ' ' || r == '/' })
	if len(parts) < 3 {
		return ""
	}
	if len(parts) >= 4 && transparent(parts[3]) {
		return "transparent"
	}
	var rgb [3]int
	for i := range 3 {
		n, err := strconv.ParseFloat(strings.TrimSuffix(parts[i], "%"), 64)
		if err != nil {
			return ""
		}
		if strings.HasSuffix(parts[i], "%") {
			n = n * 255 / 100
		}
		rgb[i] = int(min(max(n, 0), 255) + 0.5)
	}
	return fmt.Sprintf("#%02x%02x%02x", rgb[0], rgb[1], rgb[2])
}

// sameColor reports text coloured like its background, or so close to it
// that a reader cannot tell them apart.
func sameColor(fg, bg string) bool {
	if fg == "" || bg == "" || bg == unknownColor || fg == "transparent" || bg == "transparent" {
		return false
	}
	a, b := channels(fg), channels(bg)
	d := 0
	for i := range 3 {
		d += abs(a[i] - b[i])
	}
	return d <= 24
}

func channels(c string) [3]int {
	var out [3]int
	for i := range 3 {
		n, _ := strconv.ParseUint(c[1+2*i:3+2*i], 16, 8)
		out[i] = int(n)
	}
	return out
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
