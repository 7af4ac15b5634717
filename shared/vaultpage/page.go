// Package vaultpage is the format of a vault page: a Markdown file with YAML
// frontmatter, as Obsidian writes it. It parses a file into the keys the
// board manages and the rest, and writes a file back changing only the
// managed keys that changed, so the person's own keys, their order, their
// comments and the body stay as written. Pure functions over bytes: the
// board's vault engine and the search sidecar both read pages with it.
package vaultpage

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/opsboard/opsboard/shared/wire"
)

// Keys the board manages in a page's frontmatter; every other key, and the
// body, is kept as written.
const (
	KeyID         = "id"
	KeyBoardID    = "boardId"
	KeyType       = "type"
	KeyTitle      = "title"
	KeyAliases    = "aliases"
	KeyEmails     = "emails"
	KeyDomains    = "domains"
	KeyCases      = "cases"
	KeyMergedInto = "mergedInto"
)

// Fields are the managed keys as values. ID is the board's id (V-<n>): the
// page's `id` when it has that form, else its `boardId`; OwnID is a
// person's own `id` that is not V-<n>, kept and never overwritten. Emails
// and domains are lower-cased.
type Fields struct {
	ID, OwnID                       string
	Type                            wire.PageType // "" when absent or not one of the four
	Title                           string        // as written; "" when absent
	Aliases, Emails, Domains, Cases []string
	MergedInto                      string
}

// Page is one parsed file.
type Page struct {
	Path   string // relative to the vault, '/'-separated, with .md
	Fields Fields
	Title  string         // Fields.Title, else the file name without .md
	Front  map[string]any // every frontmatter key as parsed (nil when none or broken)
	Body   string         // the Markdown after the frontmatter, as written
	Broken string         // why the frontmatter does not parse ("" when it does)
	Hash   string         // hex sha256 of the file's bytes
}

// Parse reads one file. It never fails: frontmatter that does not parse
// (an alias bomb included) makes the page Broken, with the reason; a file
// without frontmatter is a page whose body is the whole file.
func Parse(rel string, data []byte) Page {
	sum := sha256.Sum256(data)
	p := Page{Path: rel, Hash: hex.EncodeToString(sum[:])}
	p.Title = strings.TrimSuffix(path.Base(rel), ".md")
	fm, body, ok := split(data)
	p.Body = body
	if !ok {
		return p
	}
	root, err := mapping(fm)
	if err != nil {
		p.Broken = err.Error()
		return p
	}
	if root == nil {
		return p
	}
	var front map[string]any
	if err := root.Decode(&front); err != nil {
		p.Broken = strings.TrimPrefix(err.Error(), "yaml: ")
		return p
	}
	p.Front = front
	p.Fields = fieldsOf(root)
	if p.Fields.Title != "" {
		p.Title = p.Fields.Title
	}
	return p
}

// split cuts a file into its frontmatter (without the fences) and its
// body. ok is false when the file has no frontmatter: the body is then the
// whole file (less a byte-order mark).
func split(data []byte) (fm []byte, body string, ok bool) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	first, rest, found := bytes.Cut(data, []byte("\n"))
	if !found || !fence(first, "---") {
		return nil, string(data), false
	}
	for off := 0; off < len(rest); {
		line, _, more := bytes.Cut(rest[off:], []byte("\n"))
		end := off + len(line)
		if more {
			end++
		}
		if fence(line, "---") || fence(line, "...") {
			return rest[:off], string(rest[end:]), true
		}
		off = end
	}
	return nil, string(data), false // an opening fence never closed is body
}

// fence reports whether line is the fence f, trailing blanks and a
// carriage return aside.
func fence(line []byte, f string) bool {
	return strings.TrimRight(string(line), " \t\r") == f
}

// mapping parses frontmatter into its top-level mapping node; nil for an
// empty frontmatter.
func mapping(fm []byte) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(fm, &doc); err != nil {
		return nil, fmt.Errorf("%s", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("the frontmatter is not a set of keys")
	}
	return root, nil
}

// fieldsOf reads the managed keys of a mapping.
func fieldsOf(root *yaml.Node) Fields {
	var f Fields
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i].Value, root.Content[i+1]
		switch k {
		case KeyID:
			if s := scalar(v); IsBoardID(s) {
				f.ID = s
			} else {
				f.OwnID = s
			}
		case KeyBoardID:
			if s := scalar(v); IsBoardID(s) && f.ID == "" {
				f.ID = s
			}
		case KeyType:
			f.Type = pageType(scalar(v))
		case KeyTitle:
			f.Title = scalar(v)
		case KeyAliases:
			f.Aliases = list(v, false)
		case KeyEmails:
			f.Emails = list(v, true)
		case KeyDomains:
			f.Domains = list(v, true)
		case KeyCases:
			f.Cases = list(v, false)
		case KeyMergedInto:
			f.MergedInto = scalar(v)
		}
	}
	return f
}

func pageType(s string) wire.PageType {
	for _, t := range wire.PageTypes() {
		if string(t) == s {
			return t
		}
	}
	return ""
}

// scalar is a node's text when it is a scalar, "" otherwise.
func scalar(n *yaml.Node) string {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return ""
	}
	return strings.TrimSpace(n.Value)
}

// list reads a YAML list of scalars, or one scalar (Obsidian accepts an
// alias written as a single string), without blanks or repeats.
func list(n *yaml.Node, lower bool) []string {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	var raw []string
	switch n.Kind {
	case yaml.ScalarNode:
		raw = []string{scalar(n)}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			raw = append(raw, scalar(c))
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, s := range raw {
		if lower {
			s = strings.ToLower(s)
		}
		if s == "" || seen[s] {
			continue
		}
		seen[s] = true
		out = append(out, s)
	}
	return out
}

// IsBoardID reports whether s is a board page id: V-<n>, n > 0.
func IsBoardID(s string) bool {
	n, ok := strings.CutPrefix(s, "V-")
	if !ok || n == "" || n[0] == '0' {
		return false
	}
	for _, r := range n {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
