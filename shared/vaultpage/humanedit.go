package vaultpage

import (
	"encoding/json"
	"strings"
)

// The page fields the person's word covers, by the name a stamp is kept
// under. "body" is the body without its "## Timeline" section.
const (
	EditTitle   = "title"
	EditAliases = "aliases"
	EditEmails  = "emails"
	EditDomains = "domains"
	EditBody    = "body"
)

// OwnBody is the body without its "## Timeline" section and without
// trailing blank space: the person's text. An agent's dated line appended
// to the Timeline (which may also add the heading and a blank line) leaves
// it unchanged, so such an append never counts as changing what the person
// wrote.
func OwnBody(body string) string {
	lines := strings.SplitAfter(body, "\n")
	at := -1
	for i, l := range lines {
		if strings.TrimRight(l, " \t\r\n") == timelineHeading {
			at = i
			break
		}
	}
	if at < 0 {
		return strings.TrimRight(body, " \t\r\n")
	}
	// The section ends where AppendTimeline's does: at the next heading of
	// the same or a higher level.
	end := len(lines)
	for i := at + 1; i < len(lines); i++ {
		if t := strings.TrimLeft(lines[i], " "); strings.HasPrefix(t, "# ") || strings.HasPrefix(t, "## ") {
			end = i
			break
		}
	}
	before := strings.TrimRight(strings.Join(lines[:at], ""), " \t\r\n")
	after := strings.TrimRight(strings.Join(lines[end:], ""), " \t\r\n")
	switch {
	case after == "":
		return before
	case before == "":
		return after
	}
	return before + "\n\n" + after
}

// EditValues are a page's covered fields as the JSON a stamp keeps (the
// value an edit replaced is compared with a later write as JSON). An empty
// field is null, so "absent" and "empty" are one value.
func EditValues(p Page) map[string]json.RawMessage {
	return map[string]json.RawMessage{
		EditTitle:   editJSON(p.Fields.Title),
		EditAliases: editJSON(p.Fields.Aliases),
		EditEmails:  editJSON(p.Fields.Emails),
		EditDomains: editJSON(p.Fields.Domains),
		EditBody:    editJSON(OwnBody(p.Body)),
	}
}

// Changed lists the covered fields whose value differs between two reads
// of a page, each with its old value: what a hand edit replaced. A page
// broken before or after has no comparable fields, so nothing is reported
// for it.
func Changed(old, cur Page) map[string]json.RawMessage {
	if old.Broken != "" || cur.Broken != "" {
		return nil
	}
	was, now := EditValues(old), EditValues(cur)
	out := map[string]json.RawMessage{}
	for k, v := range was {
		if string(v) != string(now[k]) {
			out[k] = v
		}
	}
	return out
}

// editJSON is v as JSON, null when empty.
func editJSON(v any) json.RawMessage {
	switch x := v.(type) {
	case string:
		if x == "" {
			return json.RawMessage("null")
		}
	case []string:
		if len(x) == 0 {
			return json.RawMessage("null")
		}
	}
	b, err := json.Marshal(v)
	if err != nil { // strings and string slices always marshal
		return json.RawMessage("null")
	}
	return b
}
