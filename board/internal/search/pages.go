package search

import (
	"strings"

	"github.com/opsboard/opsboard/shared/searchdoc"
	"github.com/opsboard/opsboard/shared/wire"
)

// PageDoc is a vault page as search reads it: its summary and its body.
type PageDoc struct {
	Summary wire.PageSummary
	Body    string
}

// PageSet is the vault's pages analysed for the keyword index. It is
// immutable; the vault changes apart from the store, so its pages are
// analysed apart from the store's records and joined to each index.
type PageSet struct {
	docs    []PageDoc
	entries []entry
	at      map[pageKey]int
}

// pageKey is what a page's analysis depends on besides its body, which
// changes only with the file and so with its updatedAt.
type pageKey struct{ id, path, updatedAt string }

func keyOf(p *wire.PageSummary) pageKey { return pageKey{p.ID, p.Path, p.UpdatedAt} }

// NewPageSet analyses pages; prev, when not nil, lends the analysis of the
// pages it holds unchanged.
func NewPageSet(pages []PageDoc, prev *PageSet) *PageSet {
	s := &PageSet{docs: pages, entries: make([]entry, 0, len(pages)), at: make(map[pageKey]int, len(pages))}
	for i := range pages {
		k := keyOf(&pages[i].Summary)
		s.at[k] = len(s.entries)
		if prev != nil {
			if at, ok := prev.at[k]; ok {
				s.entries = append(s.entries, prev.entries[at])
				continue
			}
		}
		s.entries = append(s.entries, pageEntry(&pages[i]))
	}
	return s
}

// Len is how many pages the set holds.
func (s *PageSet) Len() int {
	if s == nil {
		return 0
	}
	return len(s.entries)
}

// Unchanged reports whether the page p with this summary is in the set as
// it is now, so a caller may reuse its body instead of reading the page.
func (s *PageSet) Unchanged(p *wire.PageSummary) (body string, ok bool) {
	if s == nil {
		return "", false
	}
	at, ok := s.at[keyOf(p)]
	if !ok {
		return "", false
	}
	return s.docs[at].Body, true
}

func pageEntry(p *PageDoc) entry {
	sum := p.Summary
	e := entry{Doc: searchdoc.Page(&sum, p.Body), p: &sum}
	e.analyse(sum.Title + " " + strings.Join(sum.Aliases, " "))
	return e
}

// ScanPages is the vault's part of GET /api/search: a case-insensitive
// substring match of q over each page's title, aliases, addresses,
// domains and body, in the order given. An empty q matches nothing.
func ScanPages(s *PageSet, q string) []wire.PageSummary {
	q = strings.ToLower(strings.TrimSpace(q))
	if q == "" || s == nil {
		return nil
	}
	var out []wire.PageSummary
	for i := range s.docs {
		p := &s.docs[i]
		if strings.Contains(strings.ToLower(s.entries[i].Text), q) || strings.Contains(strings.ToLower(p.Summary.Path), q) {
			out = append(out, p.Summary)
		}
	}
	return out
}
