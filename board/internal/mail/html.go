package mail

import (
	"io"
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

// void elements have no end tag, so they open no level.
var void = map[atom.Atom]bool{
	atom.Area: true, atom.Base: true, atom.Br: true, atom.Col: true, atom.Embed: true,
	atom.Hr: true, atom.Img: true, atom.Input: true, atom.Link: true, atom.Meta: true,
	atom.Param: true, atom.Source: true, atom.Track: true, atom.Wbr: true,
}

// HTMLText reduces an HTML body to readable plain text: block elements become
// line breaks, a link keeps its URL in brackets after its text, scripts and
// styles are dropped, and runs of blank space collapse.
func HTMLText(src string) string {
	s, _ := htmlText(strings.NewReader(src))
	return s
}

// htmlText is HTMLText reading from r; deep reports that elements nested
// past the depth limit were met, their tags ignored and their text kept.
func htmlText(r io.Reader) (text string, deep bool) {
	x := reducer{z: html.NewTokenizer(r)}
	for {
		switch tt := x.z.Next(); tt {
		case html.ErrorToken:
			return x.b.String(), x.deep
		case html.TextToken:
			switch {
			case x.skip > 0:
			case x.pre > 0:
				x.b.verbatim(string(x.z.Text()))
			default:
				x.b.text(string(x.z.Text()))
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			x.start(tt)
		case html.EndTagToken:
			x.end()
		}
	}
}

// reducer is the state of one HTMLText.
type reducer struct {
	z        *html.Tokenizer
	b        textBuilder
	skip     int // depth inside dropped elements
	pre      int // depth inside <pre>, where spacing is kept
	depth    int // open elements, for the depth limit
	deep     bool
	href     []string
	linkText []int // b.len() where each open link's text starts
}

func (x *reducer) start(tt html.TokenType) {
	name, hasAttr := x.z.TagName()
	a := atom.Lookup(name)
	if dropped[a] {
		if tt == html.StartTagToken {
			x.skip++
		}
		return
	}
	if tt == html.StartTagToken && !void[a] {
		x.depth++
		if x.depth > maxHTMLDepth {
			x.deep = true
			return
		}
	}
	if x.skip > 0 {
		return
	}
	x.b.open(a)
	if a == atom.Pre && tt == html.StartTagToken {
		x.pre++
	}
	if a == atom.Li {
		x.b.text("- ")
	}
	if a == atom.A && tt == html.StartTagToken {
		url := ""
		for hasAttr {
			var k, v []byte
			k, v, hasAttr = x.z.TagAttr()
			if string(k) == "href" {
				url = strings.TrimSpace(string(v))
			}
		}
		x.href = append(x.href, url)
		x.linkText = append(x.linkText, x.b.len())
	}
}

func (x *reducer) end() {
	name, _ := x.z.TagName()
	a := atom.Lookup(name)
	if dropped[a] {
		if x.skip > 0 {
			x.skip--
		}
		return
	}
	if !void[a] && x.depth > 0 {
		x.depth--
		if x.depth >= maxHTMLDepth {
			return // closes a tag that was ignored
		}
	}
	if x.skip > 0 {
		return
	}
	if a == atom.A && len(x.href) > 0 {
		url, start := x.href[len(x.href)-1], x.linkText[len(x.linkText)-1]
		x.href, x.linkText = x.href[:len(x.href)-1], x.linkText[:len(x.linkText)-1]
		if url != "" && !strings.HasPrefix(url, "#") && strings.TrimSpace(x.b.since(start)) != url {
			x.b.text(" (" + url + ")")
		}
	}
	if a == atom.Pre && x.pre > 0 {
		x.pre--
	}
	x.b.close(a)
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
