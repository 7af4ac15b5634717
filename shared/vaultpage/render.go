package vaultpage

import (
	"bytes"
	"errors"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// managedOrder is the order new managed keys are written in.
var managedOrder = []string{KeyID, KeyBoardID, KeyType, KeyTitle, KeyAliases, KeyEmails, KeyDomains, KeyCases, KeyMergedInto}

// Render writes a page: old's frontmatter with f's managed keys set,
// changed or removed (when empty), and body after it. A managed key whose
// value is unchanged keeps its original text, and so does every other key,
// with its comments and order: only the lines of a key that changed are
// rewritten, so a write that changes nothing changes no byte. old == nil
// writes a new file. Broken frontmatter is refused: the board never
// rewrites what it cannot read.
func Render(old []byte, f Fields, body string) ([]byte, error) {
	if old == nil {
		return compose(nil, nil, f, body, "\n")
	}
	nl := "\n"
	if bytes.Contains(old, []byte("\r\n")) {
		nl = "\r\n"
	}
	fm, _, ok := split(old)
	if !ok {
		return compose(nil, nil, f, body, nl)
	}
	root, err := mapping(fm)
	if err != nil {
		return nil, err
	}
	if root == nil {
		return compose(nil, nil, f, body, nl)
	}
	var check map[string]any
	if err := root.Decode(&check); err != nil {
		return nil, errors.New(strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if root.Style&yaml.FlowStyle != 0 {
		return nil, errors.New("the frontmatter is written as one {...} map; the board only rewrites block frontmatter")
	}
	return compose(fm, root, f, body, nl)
}

// compose splices the changed managed keys into fm's lines (nil fm: a new
// frontmatter) and puts body after the closing fence.
func compose(fm []byte, root *yaml.Node, f Fields, body, nl string) ([]byte, error) {
	lines := splitLines(fm)
	have := Fields{}
	spans := map[string][2]int{}
	if root != nil {
		have = fieldsOf(root)
		spans = keySpans(root, lines)
	}
	want := values(f)
	var tail []string
	// Work from the bottom so earlier spans keep their line numbers.
	keys := slices.Clone(managedOrder)
	slices.SortFunc(keys, func(a, b string) int { return spans[b][0] - spans[a][0] })
	for _, k := range keys {
		span, present := spans[k]
		v, set := want[k]
		if present && sameValue(have, k, v) {
			continue
		}
		if k == KeyType && f.Type == "" && have.Type == "" {
			continue // a type the board does not know is the person's: kept
		}
		var text []string
		if set {
			enc, err := encodeKey(k, v, nl)
			if err != nil {
				return nil, err
			}
			text = enc
		}
		if present {
			lines = slices.Replace(lines, span[0], span[1], text...)
		} else if set {
			tail = append(tail, k)
		}
	}
	for _, k := range managedOrder { // new keys at the end, in the managed order
		if slices.Contains(tail, k) {
			enc, _ := encodeKey(k, want[k], nl)
			lines = append(lines, enc...)
		}
	}
	var b strings.Builder
	b.WriteString("---" + nl)
	for _, l := range lines {
		b.WriteString(l)
	}
	b.WriteString("---" + nl)
	b.WriteString(body)
	return []byte(b.String()), nil
}

// values maps each managed key to the value f gives it; a key absent from
// the map is to be absent from the file. The person's own id stays in
// `id` and the board's then goes in `boardId`.
func values(f Fields) map[string]any {
	out := map[string]any{}
	str := func(k, v string) {
		if v != "" {
			out[k] = v
		}
	}
	lst := func(k string, v []string) {
		if len(v) > 0 {
			out[k] = v
		}
	}
	if f.OwnID != "" {
		str(KeyID, f.OwnID)
		str(KeyBoardID, f.ID)
	} else {
		str(KeyID, f.ID)
	}
	str(KeyType, string(f.Type))
	str(KeyTitle, f.Title)
	lst(KeyAliases, f.Aliases)
	lst(KeyEmails, f.Emails)
	lst(KeyDomains, f.Domains)
	lst(KeyCases, f.Cases)
	str(KeyMergedInto, f.MergedInto)
	return out
}

// sameValue reports whether the file's key k, read as have, already
// holds v (nil: the key is to go).
func sameValue(have Fields, k string, v any) bool {
	switch k {
	case KeyID:
		if have.OwnID != "" {
			return v == have.OwnID
		}
		return v == have.ID
	case KeyBoardID:
		return have.OwnID != "" && v == have.ID
	case KeyType:
		return v == string(have.Type)
	case KeyTitle:
		return v == have.Title
	case KeyMergedInto:
		return v == have.MergedInto
	}
	got := map[string][]string{KeyAliases: have.Aliases, KeyEmails: have.Emails, KeyDomains: have.Domains, KeyCases: have.Cases}[k]
	want, _ := v.([]string)
	return slices.Equal(got, want)
}

// encodeKey writes one key and its value as frontmatter lines.
func encodeKey(k string, v any, nl string) ([]string, error) {
	var b bytes.Buffer
	e := yaml.NewEncoder(&b)
	e.SetIndent(2)
	if err := e.Encode(map[string]any{k: v}); err != nil {
		return nil, err
	}
	out := splitLines(b.Bytes())
	if nl != "\n" {
		for i, l := range out {
			out[i] = strings.TrimSuffix(l, "\n") + nl
		}
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

// keySpans finds, for each top-level key, the lines it spans: from its own
// line to the next key's, less the blank and comment lines just before
// that next key (they belong to it).
func keySpans(root *yaml.Node, lines []string) map[string][2]int {
	out := map[string][2]int{}
	n := len(root.Content) / 2
	for i := 0; i < n; i++ {
		start := root.Content[2*i].Line - 1
		end := len(lines)
		if i+1 < n {
			end = root.Content[2*(i+1)].Line - 1
		}
		for end > start+1 {
			t := strings.TrimSpace(lines[end-1])
			if t != "" && !strings.HasPrefix(t, "#") {
				break
			}
			end--
		}
		if start >= 0 && start < end && end <= len(lines) {
			if _, dup := out[root.Content[2*i].Value]; !dup {
				out[root.Content[2*i].Value] = [2]int{start, end}
			}
		}
	}
	return out
}
