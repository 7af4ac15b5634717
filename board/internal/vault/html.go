package vault

import (
	"bytes"
	"net/url"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// markdown renders page bodies. Raw HTML stays off (goldmark's default):
// a page may come from anywhere, and the page shows it inside the board.
var markdown = goldmark.New(goldmark.WithParserOptions(
	parser.WithInlineParsers(util.Prioritized(wikiLinks{}, 199)), // before the link parser (200): "[[" is ours
))

var resolverKey = parser.NewContextKey()

// toHTML renders body, each [[target]] a link to the page it names
// (/vault/<id or path>), or plain text when no page answers to it.
func toHTML(body string, resolve func(string) string) string {
	ctx := parser.NewContext()
	ctx.Set(resolverKey, resolve)
	var b bytes.Buffer
	if err := markdown.Convert([]byte(body), &b, parser.WithContext(ctx)); err != nil {
		// Only the writer can fail, and a bytes.Buffer does not.
		return ""
	}
	return b.String()
}

// wikiLinks parses Obsidian's [[Target]], [[Target|text]] and
// [[Target#heading]] inside a line.
type wikiLinks struct{}

func (wikiLinks) Trigger() []byte { return []byte{'['} }

func (wikiLinks) Parse(_ ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, _ := block.PeekLine()
	if !bytes.HasPrefix(line, []byte("[[")) {
		return nil
	}
	end := bytes.Index(line, []byte("]]"))
	if end < 3 || bytes.ContainsAny(line[2:end], "[\n") {
		return nil
	}
	inner := string(line[2:end])
	target, shown, piped := strings.Cut(inner, "|")
	target, _, _ = strings.Cut(target, "#")
	target = strings.TrimSpace(target)
	if !piped {
		shown = inner
	}
	block.Advance(end + 2)
	href := ""
	if r, ok := pc.Get(resolverKey).(func(string) string); ok && target != "" {
		href = r(target)
	}
	label := ast.NewString([]byte(shown))
	if href == "" {
		return label
	}
	link := ast.NewLink()
	link.Destination = []byte("/vault/" + url.PathEscape(href))
	link.AppendChild(link, label)
	return link
}
