// Package htmltext splits an HTML mail part into the text a reader sees and
// the text a reader does not see (hidden by style, attribute or comment), so
// the guard can scan what an agent would read but a person would not. It is
// pure: no I/O, no network.
package htmltext

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Text is an HTML part read two ways.
type Text struct {
	Visible string // what a mail client shows
	Hidden  string // text present in the markup that a reader does not see
}

// maxCloseSearch bounds how far down the stack an end tag looks for its
// start tag, so a stream of stray end tags stays linear in the input.
const maxCloseSearch = 64

// frame is one open element and what it passes to its descendants.
type frame struct {
	tag    atom.Atom
	name   string // the tag name when it is not a known atom
	hidden bool
	unseen bool   // hidden, or its text coloured like its background
	skip   bool   // script and style: neither visible nor hidden text
	color  string // text colour, normalised; "" when not set
	bg     string // background colour, normalised; unknownColor when an image or unreadable
}

// Extract walks src once with a tokenizer and an explicit stack (no
// recursion: mail nests tables deeply, and hostile mail nests anything), so
// its cost is linear in the input.
func Extract(src string) Text {
	return walk(src, true)
}

// Hidden is Extract's Hidden alone. A scan needs nothing else, and the
// visible text is most of a mail's HTML: not copying it saves most of the
// walk's allocations.
func Hidden(src string) string {
	return walk(src, false).Hidden
}

// walk is Extract, collecting the visible text only when visible is set.
func walk(src string, visible bool) Text {
	z := html.NewTokenizer(strings.NewReader(src))
	var vis, hid writer
	// The page's own background is white unless the mail says otherwise:
	// white text with no background set is invisible in every client.
	root := frame{color: "#000000", bg: "#ffffff"}
	root.unseen = sameColor(root.color, root.bg)
	stack := []frame{root}
	seen := styles{}
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return Text{Visible: vis.String(), Hidden: hid.String()}
		case html.TextToken:
			top := &stack[len(stack)-1]
			switch {
			case top.skip:
			case top.unseen:
				hid.text(string(z.Text()))
			case visible:
				vis.text(string(z.Text()))
			}
		case html.CommentToken:
			if c := string(z.Text()); !conditional(c) && !stack[len(stack)-1].skip {
				hid.text(c)
				hid.newline()
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			a := atom.Lookup(name)
			if block(a) {
				vis.newline()
				hid.newline()
			}
			if tt == html.StartTagToken && !void(a) {
				stack = append(stack, child(stack[len(stack)-1], z, a, name, hasAttr, seen))
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			stack = closeTag(stack, a, string(name))
			if block(a) {
				vis.newline()
				hid.newline()
			}
		}
	}
}

// conditional reports whether a comment is an Outlook conditional comment
// (or one of its downlevel-revealed halves): markup, not hidden text.
func conditional(c string) bool {
	c = strings.TrimSpace(c)
	return strings.HasPrefix(c, "[if") || strings.HasPrefix(c, "<![endif]") || strings.HasPrefix(c, "[endif]")
}

// closeTag pops the stack down to the nearest open element named like the
// end tag, closing the unclosed ones inside it; a stray end tag changes
// nothing. The root frame is never popped.
func closeTag(stack []frame, a atom.Atom, name string) []frame {
	low := max(1, len(stack)-maxCloseSearch)
	for i := len(stack) - 1; i >= low; i-- {
		f := stack[i]
		if (a != 0 && f.tag == a) || (a == 0 && f.name == name) {
			return stack[:i]
		}
	}
	return stack
}

// child is the frame of an element opened inside parent, read from the
// tokenizer's current start tag without building a Token: most elements of
// a mail carry attributes the walk never looks at.
func child(parent frame, z *html.Tokenizer, a atom.Atom, name []byte, hasAttr bool, seen styles) frame {
	f := frame{tag: a, hidden: parent.hidden, skip: parent.skip, color: parent.color, bg: parent.bg}
	if a == 0 {
		f.name = string(name)
	}
	switch a {
	case atom.Script, atom.Style, atom.Template, atom.Noscript:
		f.skip = true
	case atom.Title:
		f.hidden = true // the title is never shown in a message's body
	}
	var st effect
	for more := hasAttr; more; {
		var key, val []byte
		key, val, more = z.TagAttr() // keys come lower-cased
		switch string(key) {
		case "style":
			st = seen.effect(val)
		case "hidden":
			f.hidden = true
		case "bgcolor":
			if c := normColor(string(val)); c != "" {
				f.bg = c
			}
		case "color":
			if a == atom.Font {
				if c := normColor(string(val)); c != "" {
					f.color = c
				}
			}
		}
	}
	st.apply(&f)
	// By colour per element, once when it opens: a child may recolour.
	f.unseen = f.hidden || sameColor(f.color, f.bg)
	return f
}

func void(a atom.Atom) bool {
	switch a {
	case atom.Area, atom.Base, atom.Br, atom.Col, atom.Embed, atom.Hr, atom.Img, atom.Input,
		atom.Link, atom.Meta, atom.Param, atom.Source, atom.Track, atom.Wbr:
		return true
	}
	return false
}

// block elements break a line, so words of two cells or paragraphs never
// run together.
func block(a atom.Atom) bool {
	switch a {
	case atom.Address, atom.Blockquote, atom.Br, atom.Div, atom.Dl, atom.Dt, atom.Dd, atom.H1, atom.H2,
		atom.H3, atom.H4, atom.H5, atom.H6, atom.Hr, atom.Li, atom.Ol, atom.P, atom.Pre, atom.Table,
		atom.Td, atom.Th, atom.Tr, atom.Ul, atom.Center, atom.Section, atom.Article, atom.Header, atom.Footer:
		return true
	}
	return false
}

// writer collects text with runs of white space collapsed to one space and
// line breaks kept, one per break.
type writer struct {
	b      strings.Builder
	space  bool // white space was seen since the last word
	atLine bool // the last byte written is a line break
}

func (w *writer) text(s string) {
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		if unicode.IsSpace(r) {
			w.space = true
			s = s[n:]
			continue
		}
		end := strings.IndexFunc(s, unicode.IsSpace)
		if end < 0 {
			end = len(s)
		}
		if w.space && w.b.Len() > 0 && !w.atLine {
			w.b.WriteByte(' ')
		}
		w.b.WriteString(s[:end])
		w.atLine, w.space = false, false
		s = s[end:]
	}
}

func (w *writer) newline() {
	w.space = false
	if w.b.Len() > 0 && !w.atLine {
		w.b.WriteByte('\n')
		w.atLine = true
	}
}

func (w *writer) String() string { return strings.TrimSpace(w.b.String()) }
