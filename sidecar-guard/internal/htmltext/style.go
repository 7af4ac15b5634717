package htmltext

import (
	"strconv"
	"strings"
)

// unknownColor is a background the walk cannot read (an image, a
// gradient): text on it is never taken as coloured like its background.
const unknownColor = "?"

// prop is a CSS property the walk reads; every other property is ignored.
type prop int

const (
	pDisplay prop = iota
	pVisibility
	pMsoHide
	pColor
	pFontSize
	pOpacity
	pLeft
	pTop
	pRight
	pTextIndent
	pMarginLeft
	pMarginTop
	pOverflow
	pOverflowX
	pOverflowY
	pHeight
	pMaxHeight
	pWidth
	pMaxWidth
	pBackground
	pBackgroundColor
	pBackgroundImage
	nProps
)

// propNames is read-only: the properties by their lower-case CSS names.
var propNames = map[string]prop{
	"display": pDisplay, "visibility": pVisibility, "mso-hide": pMsoHide, "color": pColor,
	"font-size": pFontSize, "opacity": pOpacity, "left": pLeft, "top": pTop, "right": pRight,
	"text-indent": pTextIndent, "margin-left": pMarginLeft, "margin-top": pMarginTop,
	"overflow": pOverflow, "overflow-x": pOverflowX, "overflow-y": pOverflowY,
	"height": pHeight, "max-height": pMaxHeight, "width": pWidth, "max-width": pMaxWidth,
	"background": pBackground, "background-color": pBackgroundColor, "background-image": pBackgroundImage,
}

// style is what an inline style attribute says about visibility: the value
// of each property the walk reads, in a fixed array rather than a map,
// since every element of a mail may carry one.
type style struct {
	v   [nProps]string
	set [nProps]bool
	any bool
}

// parseStyle reads "a: b; c: d" into lower-case properties, the last
// declaration of a property winning as in CSS; !important is dropped.
func parseStyle(s string) style {
	var st style
	for decl := range strings.SplitSeq(s, ";") {
		k, v, ok := strings.Cut(decl, ":")
		if !ok {
			continue
		}
		p, known := propNames[strings.TrimSpace(strings.ToLower(k))]
		if !known {
			continue
		}
		st.v[p] = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(strings.ToLower(v)), "!important"))
		st.set[p], st.any = true, true
	}
	return st
}

// effect is what a style attribute does to its element: the colours it
// sets ("" when none) and whether it hides the element.
type effect struct {
	color, bg string
	hides     bool
}

// effectOf reads a style attribute's effect.
func effectOf(s string) effect {
	st := parseStyle(s)
	if !st.any {
		return effect{}
	}
	return effect{color: normColor(st.v[pColor]), bg: st.background(), hides: st.hides()}
}

// apply sets f's colours and hides f when its own style hides it.
func (e effect) apply(f *frame) {
	if e.color != "" {
		f.color = e.color
	}
	if e.bg != "" {
		f.bg = e.bg
	}
	if e.hides {
		f.hidden = true
	}
}

// maxStyles bounds the effects one walk remembers, so a part with a
// different style on every element costs no more memory than it would
// without them.
const maxStyles = 256

// styles remembers the effect of each style attribute a walk has read: a
// template repeats the same few on every paragraph and cell.
type styles map[string]effect

func (c styles) effect(val []byte) effect {
	if e, ok := c[string(val)]; ok {
		return e
	}
	s := string(val)
	e := effectOf(s)
	if len(c) < maxStyles {
		c[s] = e
	}
	return e
}

// hides reports the styles that take an element out of a reader's view.
func (st *style) hides() bool {
	p := &st.v
	switch {
	case p[pDisplay] == "none", p[pVisibility] == "hidden", p[pVisibility] == "collapse",
		p[pMsoHide] == "all", p[pColor] == "transparent":
		return true
	case tinyFont(p[pFontSize]), transparent(p[pOpacity]):
		return true
	case offscreen(p[pLeft]) || offscreen(p[pTop]) || offscreen(p[pTextIndent]) ||
		offscreen(p[pMarginLeft]) || offscreen(p[pMarginTop]) || offscreen(p[pRight]):
		return true
	}
	clipped := p[pOverflow] == "hidden" || p[pOverflowY] == "hidden" || p[pOverflowX] == "hidden"
	return clipped && (zero(p[pMaxHeight]) || zero(p[pHeight]) || zero(p[pMaxWidth]) || zero(p[pWidth]))
}

// background is the colour a background declaration sets: "" when none
// does, unknownColor when it is an image or not a colour we can read.
func (st *style) background() string {
	if st.set[pBackgroundColor] {
		if c := normColor(st.v[pBackgroundColor]); c != "" && c != "transparent" {
			return c
		}
	}
	if !st.set[pBackground] {
		if img := st.v[pBackgroundImage]; strings.Contains(img, "url(") || strings.Contains(img, "gradient") {
			return unknownColor
		}
		return ""
	}
	v := st.v[pBackground]
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
	if v == "" {
		return 0, "", false // most properties are absent: no parse, no error value
	}
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
