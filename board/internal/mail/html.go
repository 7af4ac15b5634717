package mail

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// para elements stand apart from the text around them by a blank line.
var para = map[atom.Atom]bool{
	atom.Address: true, atom.Article: true, atom.Aside: true, atom.Blockquote: true,
	atom.Div: true, atom.Dl: true, atom.Fieldset: true, atom.Figure: true,
	atom.Footer: true, atom.Form: true, atom.H1: true, atom.H2: true, atom.H3: true,
	atom.H4: true, atom.H5: true, atom.H6: true, atom.Header: true, atom.Main: true,
	atom.Nav: true, atom.Ol: true, atom.P: true, atom.Pre: true, atom.Section: true,
	atom.Table: true, atom.Ul: true, atom.Body: true,
}

// line elements start and end on a line of their own.
var line = map[atom.Atom]bool{
	atom.Li: true, atom.Tr: true, atom.Dt: true, atom.Dd: true, atom.Hr: true,
	atom.Figcaption: true, atom.Caption: true,
}

// cell elements are set apart from their neighbours by a space.
var cell = map[atom.Atom]bool{atom.Td: true, atom.Th: true}

// dropped elements hold no readable text.
var dropped = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Head: true, atom.Title: true,
	atom.Noscript: true, atom.Template: true, atom.Iframe: true, atom.Object: true,
	atom.Svg: true,
}

// HTMLText reduces an HTML body to readable plain text: block elements become
// line breaks, a link keeps its URL in brackets after its text, scripts and
// styles are dropped, and runs of blank space collapse.
func HTMLText(src string) string {
	z := html.NewTokenizer(strings.NewReader(src))
	var b textBuilder
	skip := 0 // depth inside dropped elements
	pre := 0  // depth inside <pre>, where spacing is kept
	var href []string
	var linkText []int // b.len() where each open link's text starts
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return b.String()
		case html.TextToken:
			switch {
			case skip > 0:
			case pre > 0:
				b.verbatim(string(z.Text()))
			default:
				b.text(string(z.Text()))
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			a := atom.Lookup(name)
			if dropped[a] {
				if tt == html.StartTagToken {
					skip++
				}
				continue
			}
			if skip > 0 {
				continue
			}
			b.open(a)
			if a == atom.Pre && tt == html.StartTagToken {
				pre++
			}
			if a == atom.Li {
				b.text("- ")
			}
			if a == atom.A && tt == html.StartTagToken {
				url := ""
				for hasAttr {
					var k, v []byte
					k, v, hasAttr = z.TagAttr()
					if string(k) == "href" {
						url = strings.TrimSpace(string(v))
					}
				}
				href = append(href, url)
				linkText = append(linkText, b.len())
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			if dropped[a] {
				if skip > 0 {
					skip--
				}
				continue
			}
			if skip > 0 {
				continue
			}
			if a == atom.A && len(href) > 0 {
				url, start := href[len(href)-1], linkText[len(linkText)-1]
				href, linkText = href[:len(href)-1], linkText[:len(linkText)-1]
				if url != "" && !strings.HasPrefix(url, "#") && strings.TrimSpace(b.since(start)) != url {
					b.text(" (" + url + ")")
				}
			}
			if a == atom.Pre && pre > 0 {
				pre--
			}
			b.close(a)
		}
	}
}

// textBuilder collects text with collapsed spaces and at most one blank line.
type textBuilder struct {
	sb       strings.Builder
	newlines int  // newlines at the end of sb
	space    bool // a space is pending before the next word
}

func (t *textBuilder) len() int { return t.sb.Len() }

func (t *textBuilder) since(i int) string { return t.sb.String()[i:] }

func (t *textBuilder) text(s string) {
	if s == "" {
		return
	}
	if isSpaceByte(s[0]) {
		t.space = true
	}
	words := strings.Fields(s)
	for i, w := range words {
		if (i > 0 || t.space) && t.sb.Len() > 0 && t.newlines == 0 {
			t.sb.WriteByte(' ')
		}
		t.sb.WriteString(w)
		t.newlines = 0
		t.space = false
	}
	if len(words) > 0 && isSpaceByte(s[len(s)-1]) {
		t.space = true
	}
	// A text of "- " (list marker) keeps its trailing space.
	if s == "- " {
		t.space = true
	}
}

// verbatim adds preformatted text as it is, line ends included.
func (t *textBuilder) verbatim(s string) {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.TrimPrefix(s, "\n") // HTML drops a newline right after <pre>
	if s == "" {
		return
	}
	if t.space && t.newlines == 0 && t.sb.Len() > 0 {
		t.sb.WriteByte(' ')
	}
	t.space = false
	t.sb.WriteString(s)
	t.newlines = len(s) - len(strings.TrimRight(s, "\n"))
}

// open and close put the breaks an element asks for around its text.
func (t *textBuilder) open(a atom.Atom) {
	switch {
	case a == atom.Br:
		// Each <br> ends a line; two in a row make a blank line.
		t.space = false
		if t.sb.Len() > 0 && t.newlines < 2 {
			t.sb.WriteByte('\n')
			t.newlines++
		}
	case para[a]:
		t.newline(2)
	case line[a]:
		t.newline(1)
	}
}

func (t *textBuilder) close(a atom.Atom) {
	switch {
	case para[a]:
		t.newline(2)
	case line[a]:
		t.newline(1)
	case cell[a]:
		t.space = true
	}
}

// newline ends the text so far with at least n line ends (none at the start).
func (t *textBuilder) newline(n int) {
	t.space = false
	for t.sb.Len() > 0 && t.newlines < n {
		t.sb.WriteByte('\n')
		t.newlines++
	}
}

func (t *textBuilder) String() string {
	return strings.TrimSpace(t.sb.String())
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }
