package vaultpage

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// managedOrder is the order new managed keys are written in.
var managedOrder = []string{KeyID, KeyBoardID, KeyType, KeyTitle, KeyAliases, KeyEmails, KeyDomains, KeyCases, KeyMergedInto}

// Render writes a page: old's frontmatter with f's managed keys set,
// changed or removed (when empty), and body after it. A managed key whose
// value is unchanged keeps its original text, and so does every other key,
// with its comments and order, the fences and a byte-order mark: only the
// lines of a key that changed are rewritten, so a write that changes
// nothing changes no byte. A note without frontmatter gains one only when
// a managed key is set. A person's own id (OwnID) is never dropped.
// old == nil writes a new file. Broken frontmatter is refused: the board
// never rewrites what it cannot read.
func Render(old []byte, f Fields, body string) ([]byte, error) {
	if old == nil {
		return compose(frame{}, nil, f, body, "\n")
	}
	fr, oldBody, ok := cut(old)
	nl := "\n"
	if strings.HasSuffix(fr.open, "\r\n") || (!ok && strings.Contains(oldBody, "\r\n")) {
		nl = "\r\n"
	}
	if !ok {
		if len(values(f, false)) == 0 {
			return bom(fr, []byte(body)), nil // nothing to add: the note stays a plain note
		}
		return compose(fr, nil, f, body, nl)
	}
	root, err := mapping(fr.fm)
	if err != nil {
		return nil, err
	}
	if root != nil {
		var check map[string]any
		if err := root.Decode(&check); err != nil {
			return nil, errors.New(strings.TrimPrefix(err.Error(), "yaml: "))
		}
		if root.Style&yaml.FlowStyle != 0 {
			return nil, errors.New("the frontmatter is written as one {...} map; the board only rewrites block frontmatter")
		}
	}
	return compose(fr, root, f, body, nl)
}

func bom(fr frame, b []byte) []byte {
	if !fr.bom {
		return b
	}
	return append([]byte("\ufeff"), b...)
}

// compose splices the changed managed keys into the frontmatter's lines
// (root nil: none yet), puts body after the closing fence, and reads the
// result back: a layout the splice cannot handle (a mapping indented as a
// whole, say) is refused rather than written wrong.
func compose(fr frame, root *yaml.Node, f Fields, body, nl string) ([]byte, error) {
	have, inBoardID := Fields{}, f.OwnID != ""
	if root != nil {
		have = fieldsOf(root)
		inBoardID = inBoardID || boardIDKept(root)
	}
	if f.OwnID == "" {
		f.OwnID = have.OwnID
		inBoardID = inBoardID || f.OwnID != ""
	}
	lines, err := splice(splitLines(fr.fm), root, values(have, inBoardID), values(f, inBoardID), nl)
	if err != nil {
		return nil, err
	}
	open, close := fr.open, fr.close
	if open == "" {
		open, close = "---"+nl, "---"+nl
	}
	if body != "" && !strings.HasSuffix(close, "\n") {
		close += nl
	}
	var b bytes.Buffer
	b.WriteString(open)
	for _, l := range lines {
		b.WriteString(l)
	}
	b.WriteString(close)
	b.WriteString(body)
	out := bom(fr, b.Bytes())
	if back := Parse("", out); back.Broken != "" || back.Body != body || !sameFields(back.Fields, f) {
		return nil, errors.New("the frontmatter is laid out in a way the board cannot rewrite in place; edit it by hand")
	}
	return out, nil
}

// splice rewrites the lines of each managed key whose value changes from
// have to want, removes those want drops, and appends the new ones at the
// end in the managed order. A key the board gives no value and the file
// gives none it can read (an empty list, a type it does not know) is the
// person's text and stays.
func splice(lines []string, root *yaml.Node, have, want map[string]any, nl string) ([]string, error) {
	spans, nodes := map[string][2]int{}, map[string]*yaml.Node{}
	if root != nil {
		spans, nodes = keySpans(root, lines)
	}
	// Work from the bottom so earlier spans keep their line numbers.
	keys := slices.Clone(managedOrder)
	slices.SortStableFunc(keys, func(a, b string) int { return spans[b][0] - spans[a][0] })
	var tail []string
	for _, k := range keys {
		span, present := spans[k]
		h, had := have[k]
		v, set := want[k]
		if !set && (!present || !had) || set && had && present && equalValue(h, v) {
			continue
		}
		if !present {
			tail = append(tail, k)
			continue
		}
		var text []string
		if set {
			enc, err := encodeKey(k, v, nodes[k], lines[span[0]:span[1]], nl)
			if err != nil {
				return nil, err
			}
			text = enc
		}
		lines = slices.Replace(lines, span[0], span[1], text...)
	}
	for _, k := range managedOrder {
		if slices.Contains(tail, k) {
			enc, err := encodeKey(k, want[k], nil, nil, nl)
			if err != nil {
				return nil, err
			}
			lines = append(lines, enc...)
		}
	}
	return lines, nil
}

// boardIDKept reports whether the file keeps the board's id in `boardId`
// rather than `id`: it then stays there.
func boardIDKept(root *yaml.Node) bool {
	var id, board string
	for i := 0; i+1 < len(root.Content); i += 2 {
		switch root.Content[i].Value {
		case KeyID:
			id = scalar(root.Content[i+1])
		case KeyBoardID:
			board = scalar(root.Content[i+1])
		}
	}
	return IsBoardID(board) && !IsBoardID(id)
}

// values maps each managed key to the value f gives it; a key absent from
// the map is to be absent from the file. inBoardID puts the board's id in
// `boardId` (a person's own id holds `id`).
func values(f Fields, inBoardID bool) map[string]any {
	out := map[string]any{}
	str := func(k, v string) {
		if v = strings.TrimSpace(v); v != "" {
			out[k] = v
		}
	}
	lst := func(k string, v []string, lower bool) {
		if v = clean(v, lower); len(v) > 0 {
			out[k] = v
		}
	}
	if inBoardID {
		str(KeyID, f.OwnID)
		str(KeyBoardID, f.ID)
	} else {
		str(KeyID, f.ID)
	}
	str(KeyType, string(f.Type))
	str(KeyTitle, f.Title)
	lst(KeyAliases, f.Aliases, false)
	lst(KeyEmails, f.Emails, true)
	lst(KeyDomains, f.Domains, true)
	lst(KeyCases, f.Cases, false)
	str(KeyMergedInto, f.MergedInto)
	return out
}

func equalValue(a, b any) bool {
	as, aok := a.([]string)
	bs, bok := b.([]string)
	if aok || bok {
		return aok && bok && slices.Equal(as, bs)
	}
	return a == b
}

// sameFields reports whether what was written reads back as f, once f is
// cleaned the way Parse cleans what it reads.
func sameFields(got, f Fields) bool {
	want := values(f, f.OwnID != "")
	back := values(got, got.OwnID != "")
	if len(want) != len(back) {
		return false
	}
	for k, v := range want {
		if !equalValue(v, back[k]) {
			return false
		}
	}
	return true
}

// encodeKey writes one key and its value as frontmatter lines. A list is
// written the way the file had it, when it still can be: one string for a
// single alias written as a string, [a, b] for a flow list, and the same
// indent for the dashes of a block list.
func encodeKey(k string, v any, old *yaml.Node, oldLines []string, nl string) ([]string, error) {
	val := &yaml.Node{}
	if err := val.Encode(v); err != nil {
		return nil, fmt.Errorf("encode %s: %w", k, err)
	}
	dash := "  "
	if list, ok := v.([]string); ok && old != nil {
		switch {
		case old.Kind == yaml.ScalarNode && len(list) == 1:
			val = &yaml.Node{}
			_ = val.Encode(list[0])
		case old.Kind == yaml.SequenceNode && old.Style&yaml.FlowStyle != 0:
			val.Style = yaml.FlowStyle
		case old.Kind == yaml.SequenceNode && len(oldLines) > 1:
			dash = oldLines[1][:len(oldLines[1])-len(strings.TrimLeft(oldLines[1], " "))]
		}
	}
	doc := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: k}, val}}
	var b bytes.Buffer
	e := yaml.NewEncoder(&b)
	e.SetIndent(2)
	if err := e.Encode(doc); err != nil {
		return nil, fmt.Errorf("encode %s: %w", k, err)
	}
	out := splitLines(b.Bytes())
	for i, l := range out {
		if i > 0 && dash != "  " && strings.HasPrefix(l, "  - ") {
			l = dash + strings.TrimPrefix(l, "  ")
		}
		out[i] = strings.TrimSuffix(l, "\n") + nl
	}
	return out, nil
}

// splitLines cuts text into lines, each with its line end.
func splitLines(b []byte) []string {
	var out []string
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			out = append(out, string(b)+"\n")
			break
		}
		out = append(out, string(b[:i+1]))
		b = b[i+1:]
	}
	return out
}

// keySpans finds, for each top-level key, the lines it spans and its
// value: from its own line to the next key's, less the blank lines and
// unindented comments just before that next key (they belong to it).
func keySpans(root *yaml.Node, lines []string) (map[string][2]int, map[string]*yaml.Node) {
	spans, nodes := map[string][2]int{}, map[string]*yaml.Node{}
	n := len(root.Content) / 2
	for i := 0; i < n; i++ {
		start := root.Content[2*i].Line - 1
		end := len(lines)
		if i+1 < n {
			end = root.Content[2*(i+1)].Line - 1
		}
		for end > start+1 {
			l := strings.TrimRight(lines[end-1], "\r\n")
			if strings.TrimSpace(l) != "" && !strings.HasPrefix(l, "#") {
				break
			}
			end--
		}
		k := root.Content[2*i].Value
		if _, dup := spans[k]; !dup && start >= 0 && start < end && end <= len(lines) {
			spans[k] = [2]int{start, end}
			nodes[k] = root.Content[2*i+1]
		}
	}
	return spans, nodes
}
