package htmltext

import (
	"strconv"
	"strings"
)

// unknownColor is a background the walk cannot read (an image, a
// gradient): text on it is never taken as coloured like its background.
const unknownColor = "?"

// style is what an inline style attribute says about visibility.
type style struct {
	props map[string]string
}

// parseStyle reads "a: b; c: d" into lower-case properties, the last
// declaration of a property winning as in CSS; !important is dropped.
func parseStyle(s string) style {
	st := style{props: map[string]string{}}
	for _, decl := range strings.Split(s, ";") {
		k, v, ok := strings.Cut(decl, ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(strings.ToLower(v)), "!important"))
		st.props[strings.TrimSpace(strings.ToLower(k))] = v
	}
	return st
}

// apply sets f's colours and hides f when its own style hides it.
func (st style) apply(f *frame) {
	if len(st.props) == 0 {
		return
	}
	p := st.props
	if c := normColor(p["color"]); c != "" {
		f.color = c
	}
	if bg := background(p); bg != "" {
		f.bg = bg
	}
	if st.hides() {
		f.hidden = true
	}
}

// hides reports the styles that take an element out of a reader's view.
func (st style) hides() bool {
	p := st.props
	switch {
	case p["display"] == "none", p["visibility"] == "hidden", p["visibility"] == "collapse",
		p["mso-hide"] == "all", p["color"] == "transparent":
		return true
	case tinyFont(p["font-size"]), transparent(p["opacity"]):
		return true
	case offscreen(p["left"]) || offscreen(p["top"]) || offscreen(p["text-indent"]) ||
		offscreen(p["margin-left"]) || offscreen(p["margin-top"]) || offscreen(p["right"]):
		return true
	}
	clipped := p["overflow"] == "hidden" || p["overflow-y"] == "hidden" || p["overflow-x"] == "hidden"
	return clipped && (zero(p["max-height"]) || zero(p["height"]) || zero(p["max-width"]) || zero(p["width"]))
}

// background is the colour a background declaration sets: "" when none
// does, unknownColor when it is an image or not a colour we can read.
func background(p map[string]string) string {
	if v, ok := p["background-color"]; ok {
		if c := normColor(v); c != "" && c != "transparent" {
			return c
		}
	}
	v, ok := p["background"]
	if !ok {
		if strings.Contains(p["background-image"], "url(") || strings.Contains(p["background-image"], "gradient") {
			return unknownColor
		}
		return ""
	}
	if strings.Contains(v, "url(") || strings.Contains(v, "gradient") {
		return unknownColor
	}
	for _, tok := range colorTokens(v) {
		if c := normColor(tok); c != "" && c != "transparent" {
			return c
		}
	}
	return ""
}

// colorTokens splits a shorthand into its words, keeping rgb(...) whole.
func colorTokens(v string) []string {
	var out []string
	depth, start := 0, -1
	for i, r := range v {
		switch {
		case r == '(':
			depth++
		case r == ')':
			depth--
		}
		sep := depth == 0 && (r == ' ' || r == '\t')
		switch {
		case sep && start >= 0:
			out = append(out, v[start:i])
			start = -1
		case !sep && start < 0:
			start = i
		}
	}
	if start >= 0 {
		out = append(out, v[start:])
	}
	return out
}

// length reads a CSS length: its number and unit; ok false when it is not one.
func length(v string) (n float64, unit string, ok bool) {
	v = strings.TrimSpace(v)
	i := len(v)
	for i > 0 && (v[i-1] < '0' || v[i-1] > '9') && v[i-1] != '.' {
		i--
	}
	n, err := strconv.ParseFloat(v[:i], 64)
	if err != nil {
		return 0, "", false
	}
	return n, v[i:], true
}

func zero(v string) bool {
	n, _, ok := length(v)
	return ok && n == 0
}

// tinyFont is a font too small to read: zero in any unit, at most 2px,
// 1.5pt, or a tenth of the inherited size.
func tinyFont(v string) bool {
	n, unit, ok := length(v)
	if !ok {
		return false
	}
	switch unit {
	case "px":
		return n <= 2
	case "pt":
		return n <= 1.5
	case "em", "rem":
		return n <= 0.15
	case "%":
		return n <= 15
	}
	return n == 0
}

// offscreen is a position or indent far to the left or above the page.
func offscreen(v string) bool {
	n, unit, ok := length(v)
	if !ok || n >= 0 {
		return false
	}
	if unit == "em" || unit == "rem" {
		n *= 16
	}
	return n <= -500
}

// transparent is an opacity a reader cannot see through to the text.
func transparent(v string) bool {
	if v == "" {
		return false
	}
	n, err := strconv.ParseFloat(strings.TrimSuffix(v, "%"), 64)
	if err != nil {
		return false
	}
	if strings.HasSuffix(v, "%") {
		n /= 100
	}
	return n <= 0.05
}
