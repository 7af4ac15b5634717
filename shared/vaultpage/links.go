package vaultpage

import (
	"strings"
)

// wikiLink is one [[...]] in a body: where it stands and its parts.
type wikiLink struct {
	start, end int    // byte offsets of "[[" and just past "]]"
	target     string // the page named, before any #heading or |text
	rest       string // "#heading", "|text", or both, as written
}

// scanLinks finds every [[link]] in body, in order, in one pass. A link
// does not span lines, and an empty target is no link.
func scanLinks(body string) []wikiLink {
	var out []wikiLink
	for i := 0; i+1 < len(body); {
		j := strings.Index(body[i:], "[[")
		if j < 0 {
			break
		}
		start := i + j
		k := strings.Index(body[start+2:], "]]")
		if k < 0 {
			break
		}
		inner := body[start+2 : start+2+k]
		if strings.ContainsAny(inner, "\n[") {
			i = start + 2
			continue
		}
		cut := strings.IndexAny(inner, "#|")
		target, rest := inner, ""
		if cut >= 0 {
			target, rest = inner[:cut], inner[cut:]
		}
		if strings.TrimSpace(target) != "" {
			out = append(out, wikiLink{start: start, end: start + 2 + k + 2, target: strings.TrimSpace(target), rest: rest})
		}
		i = start + 2 + k + 2
	}
	return out
}

// WikiLinks are the targets of the body's [[Target]], [[Target|text]] and
// [[Target#heading]] links, in order, each once (compared without case).
func WikiLinks(body string) []string {
	var out []string
	seen := map[string]bool{}
	for _, l := range scanLinks(body) {
		k := strings.ToLower(l.target)
		if !seen[k] {
			seen[k] = true
			out = append(out, l.target)
		}
	}
	return out
}

// RewriteLinks points the body's links to from (compared without case) at
// to, keeping any #heading and |text; it returns the new body and how many
// links changed.
func RewriteLinks(body, from, to string) (string, int) {
	links := scanLinks(body)
	var b strings.Builder
	n, last := 0, 0
	for _, l := range links {
		if !strings.EqualFold(l.target, strings.TrimSpace(from)) {
			continue
		}
		b.WriteString(body[last:l.start])
		b.WriteString("[[" + to + l.rest + "]]")
		last = l.end
		n++
	}
	if n == 0 {
		return body, 0
	}
	b.WriteString(body[last:])
	return b.String(), n
}

// timelineHeading is the section an agent's dated lines go under.
const timelineHeading = "## Timeline"

// AppendTimeline adds "- line" at the end of the body's "## Timeline"
// section, creating the heading at the end of the body when it is missing.
// Nothing above the new line changes.
func AppendTimeline(body, line string) string {
	entry := "- " + strings.TrimSpace(line) + "\n"
	lines := strings.SplitAfter(body, "\n")
	at := -1
	for i, l := range lines {
		if strings.TrimRight(l, " \t\r\n") == timelineHeading {
			at = i
			break
		}
	}
	if at < 0 {
		sep := ""
		switch {
		case body == "":
		case strings.HasSuffix(body, "\n\n"):
		case strings.HasSuffix(body, "\n"):
			sep = "\n"
		default:
			sep = "\n\n"
		}
		return body + sep + timelineHeading + "\n" + entry
	}
	// The section ends at the next heading of the same or a higher level.
	end := len(lines)
	for i := at + 1; i < len(lines); i++ {
		if t := strings.TrimLeft(lines[i], " "); strings.HasPrefix(t, "# ") || strings.HasPrefix(t, "## ") {
			end = i
			break
		}
	}
	// Insert after the section's last non-blank line.
	ins := end
	for ins > at+1 && strings.TrimSpace(lines[ins-1]) == "" {
		ins--
	}
	head := strings.Join(lines[:ins], "")
	if !strings.HasSuffix(head, "\n") {
		head += "\n"
	}
	return head + entry + strings.Join(lines[ins:], "")
}
