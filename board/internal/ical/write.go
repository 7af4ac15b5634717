package ical

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	goical "github.com/emersion/go-ical"
)

// lineLimit is the longest content line RFC 5545 (3.1) allows, in
// octets, not counting the line break.
const lineLimit = 75

// write writes cal as iCalendar content lines. It stands in for
// go-ical's encoder, which neither folds long lines nor accepts a calendar
// without components (an empty board is a valid, empty feed). Names and
// parameters are checked, and a value holding a control character is
// refused, so nothing can break out of its line; escaping TEXT values is the
// builder's job (go-ical's Prop.SetText). Properties are written sorted by
// name, as go-ical does, so the output is stable.
func write(w io.Writer, cal *goical.Calendar) error {
	var b bytes.Buffer
	if err := writeComponent(&b, cal.Component); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

func writeComponent(b *bytes.Buffer, c *goical.Component) error {
	if !isName(c.Name) {
		return fmt.Errorf("component name %q is not an iCalendar name", c.Name)
	}
	fold(b, "BEGIN:"+c.Name)
	for _, name := range slices.Sorted(maps.Keys(c.Props)) {
		for _, p := range c.Props[name] {
			line, err := contentLine(&p)
			if err != nil {
				return fmt.Errorf("%s: %w", c.Name, err)
			}
			fold(b, line)
		}
	}
	for _, child := range c.Children {
		if err := writeComponent(b, child); err != nil {
			return err
		}
	}
	fold(b, "END:"+c.Name)
	return nil
}

// contentLine is name *(";" param) ":" value, unfolded.
func contentLine(p *goical.Prop) (string, error) {
	if !isName(p.Name) {
		return "", fmt.Errorf("property name %q is not an iCalendar name", p.Name)
	}
	var sb strings.Builder
	sb.WriteString(p.Name)
	for _, name := range slices.Sorted(maps.Keys(p.Params)) {
		if !isName(name) {
			return "", fmt.Errorf("%s: parameter name %q is not an iCalendar name", p.Name, name)
		}
		sb.WriteString(";" + name + "=")
		for i, v := range p.Params[name] {
			if strings.ContainsRune(v, '"') || hasControl(v) {
				return "", fmt.Errorf("%s: parameter %s holds a double quote or a control character", p.Name, name)
			}
			if i > 0 {
				sb.WriteByte(',')
			}
			if strings.ContainsAny(v, ";:,") {
				v = `"` + v + `"`
			}
			sb.WriteString(v)
		}
	}
	if hasControl(p.Value) {
		return "", fmt.Errorf("%s: the value holds a control character", p.Name)
	}
	sb.WriteString(":" + p.Value)
	return sb.String(), nil
}

// isName reports whether s is an iana-token or x-name: letters, digits
// and dashes.
func isName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

// hasControl reports a control character other than the tab, which no
// value or parameter may hold (RFC 5545 3.1, VALUE-CHAR).
func hasControl(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return (r < 0x20 && r != '\t') || r == 0x7f })
}

// fold writes one content line, folded so no line exceeds 75 octets
// without splitting a UTF-8 sequence, and ended with CRLF.
func fold(b *bytes.Buffer, s string) {
	limit := lineLimit
	for len(s) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		b.WriteString(s[:cut])
		b.WriteString("\r\n ")
		s = s[cut:]
		limit = lineLimit - 1 // a continuation line starts with the folding space
	}
	b.WriteString(s)
	b.WriteString("\r\n")
}
