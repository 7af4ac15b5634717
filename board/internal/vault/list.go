package vault

import (
	"encoding/base64"
	"slices"
	"strings"
	"time"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/shared/wire"
)

// Filter narrows List. Type "" is every page; Q matches a title, alias,
// email, domain or path, case-insensitively; Cursor is a NextCursor List
// gave out; Limit 0 is wire.DefaultPageList.
type Filter struct {
	Type   wire.PageType
	Q      string
	Cursor string
	Limit  int
}

// cursorPrefix marks the cursors List gives out, so one it did not give is
// told apart from one that merely points past the end.
const cursorPrefix = "v1:"

// List is the pages matching f, by title, and the cursor of the next page
// of them ("" on the last).
func (v *Vault) List(f Filter) ([]wire.PageSummary, string, error) {
	if !v.Ready() {
		return nil, "", errLoading
	}
	if f.Type != "" && !slices.Contains(wire.PageTypes(), f.Type) {
		return nil, "", errs.BadRequest("field 'type' must be one of person, organization, project, topic, not %q", f.Type)
	}
	limit := f.Limit
	if limit == 0 {
		limit = wire.DefaultPageList
	}
	if limit < 1 || limit > wire.MaxPageList {
		return nil, "", errs.BadRequest("field 'limit' must be 1 to %d, not %d", wire.MaxPageList, f.Limit)
	}
	after, err := decodeCursor(f.Cursor)
	if err != nil {
		return nil, "", err
	}
	q := strings.ToLower(strings.TrimSpace(f.Q))
	var out []wire.PageSummary
	next := ""
	v.view(func(_ *index, d *derived) {
		start, _ := slices.BinarySearchFunc(d.sorted, after, func(e *entry, k string) int {
			if ek := e.key(); ek <= k {
				return -1
			}
			return 1
		})
		if f.Cursor == "" {
			start = 0
		}
		for _, e := range d.sorted[start:] {
			if !matches(e, f.Type, q) {
				continue
			}
			if len(out) == limit {
				next = encodeCursor(out[len(out)-1])
				break
			}
			out = append(out, summary(e))
		}
	})
	if out == nil {
		out = []wire.PageSummary{}
	}
	return out, next, nil
}

func matches(e *entry, t wire.PageType, q string) bool {
	f := e.page.Fields
	if t != "" && f.Type != t {
		return false
	}
	if q == "" {
		return true
	}
	if strings.Contains(strings.ToLower(e.page.Title), q) || strings.Contains(strings.ToLower(e.page.Path), q) {
		return true
	}
	for _, list := range [][]string{f.Aliases, f.Emails, f.Domains} {
		for _, s := range list {
			if strings.Contains(strings.ToLower(s), q) {
				return true
			}
		}
	}
	return false
}

func encodeCursor(s wire.PageSummary) string {
	return base64.RawURLEncoding.EncodeToString([]byte(cursorPrefix + sortKey(s.Title, s.Path)))
}

func decodeCursor(c string) (string, error) {
	if c == "" {
		return "", nil
	}
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || !strings.HasPrefix(string(b), cursorPrefix) {
		return "", errs.BadRequest("field 'cursor': %q is not a cursor the board gave out; start again without one", c)
	}
	return strings.TrimPrefix(string(b), cursorPrefix), nil
}

// Summaries is every page, by title: for search and ingest.
func (v *Vault) Summaries() []wire.PageSummary {
	if !v.Ready() {
		return nil
	}
	var out []wire.PageSummary
	v.view(func(_ *index, d *derived) {
		out = make([]wire.PageSummary, 0, len(d.sorted))
		for _, e := range d.sorted {
			out = append(out, summary(e))
		}
	})
	return out
}

// summary is a page as the list shows it. Lists are never null, so a
// client can range over them without a check.
func summary(e *entry) wire.PageSummary {
	f := e.page.Fields
	return wire.PageSummary{
		ID:        f.ID,
		Path:      e.page.Path,
		Title:     e.page.Title,
		Type:      f.Type,
		Aliases:   orEmpty(f.Aliases),
		Emails:    orEmpty(f.Emails),
		Domains:   orEmpty(f.Domains),
		Cases:     orEmpty(f.Cases),
		Broken:    e.page.Broken,
		UpdatedAt: e.mod.UTC().Format(time.RFC3339),
	}
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return slices.Clone(s)
}

// Suggest is the pages a sender's display name might be: a page whose
// title or alias equals the name, then pages whose title or an alias is
// one of the name's words or holds all of them ("Alice" for "Alice
// Martin"). A page without an id is suggested by its path, which every
// route takes where it takes an id.
func (v *Vault) Suggest(name string) []wire.PageSuggestion {
	name = strings.Join(strings.Fields(strings.ToLower(name)), " ")
	if name == "" || !v.Ready() {
		return nil
	}
	var exact, near []wire.PageSuggestion
	v.view(func(_ *index, d *derived) {
		for _, e := range d.sorted {
			if e.page.Fields.MergedInto != "" {
				continue
			}
			ref := e.page.Fields.ID
			if ref == "" {
				ref = e.page.Path
			}
			switch reason := nameMatch(e, name); {
			case reason == "":
			case strings.HasSuffix(reason, "is the name"):
				exact = append(exact, wire.PageSuggestion{ID: ref, Reason: reason})
			default:
				near = append(near, wire.PageSuggestion{ID: ref, Reason: reason})
			}
		}
	})
	return append(exact, near...)
}

// nameMatch says why a page might be the person called name (lower-cased,
// single-spaced), or "".
func nameMatch(e *entry, name string) string {
	words := strings.Fields(name)
	try := func(what, s string) string {
		s = strings.Join(strings.Fields(strings.ToLower(s)), " ")
		switch {
		case s == "":
			return ""
		case s == name:
			return what + " is the name"
		case slices.Contains(words, s) || containsWords(s, words):
			return what + " matches the name"
		}
		return ""
	}
	if r := try("title", e.page.Title); r != "" {
		return r
	}
	for _, a := range e.page.Fields.Aliases {
		if r := try("alias "+a, a); r != "" {
			return r
		}
	}
	return ""
}

// containsWords reports whether every word is one of s's words.
func containsWords(s string, words []string) bool {
	have := strings.Fields(s)
	for _, w := range words {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return len(words) > 0
}
