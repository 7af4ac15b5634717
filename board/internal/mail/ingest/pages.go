package ingest

import (
	"strings"

	"github.com/opsboard/opsboard/shared/wire"
)

// pageRoutes maps each address held by a person page to the one open case
// that links such a page. An address whose pages are linked from no open
// case, or from more than one, routes nowhere by this rule: two cases about
// the same person leave the choice to the person. The cases' vaultLinks are
// read rather than the pages' `cases`, because the store is the truth for
// the link and the pages only mirror it.
func pageRoutes(pages []wire.PageSummary, cases []wire.Case) map[string]string {
	openBy := map[string][]string{} // page id -> open cases linking it
	for _, c := range cases {
		if c.Status == wire.LaneDone || c.ArchivedAt != "" {
			continue
		}
		for _, id := range c.VaultLinks {
			openBy[id] = append(openBy[id], c.ID)
		}
	}
	on := map[string]map[string]bool{} // address -> open cases
	for _, p := range pages {
		if p.Type != wire.PagePerson || p.ID == "" || p.Broken != "" {
			continue
		}
		for _, e := range p.Emails {
			a := strings.ToLower(strings.TrimSpace(e))
			if a == "" {
				continue
			}
			if on[a] == nil {
				on[a] = map[string]bool{}
			}
			for _, c := range openBy[p.ID] {
				on[a][c] = true
			}
		}
	}
	out := map[string]string{}
	for a, set := range on {
		if len(set) != 1 {
			continue
		}
		for c := range set {
			out[a] = c
		}
	}
	return out
}
