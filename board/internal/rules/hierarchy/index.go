package hierarchy

import "github.com/opsboard/opsboard/shared/wire"

// Index holds a tree's cases by id and by parent, so that checking many
// nodes against one tree costs time linear in the tree and the nodes, where
// calling Violation for each would scan every case each time.
type Index struct {
	byID     map[string]*wire.Case
	children map[string][]*wire.Case
}

// NewIndex indexes cases; it reads them and keeps no copy.
func NewIndex(cases wire.List[*wire.Case]) *Index {
	ix := &Index{byID: make(map[string]*wire.Case, cases.Len()), children: map[string][]*wire.Case{}}
	for _, c := range cases.All() {
		if _, ok := ix.byID[c.ID]; !ok {
			ix.byID[c.ID] = c // the first of a duplicated id, as a scan finds it
		}
		if c.ParentID != "" {
			ix.children[c.ParentID] = append(ix.children[c.ParentID], c)
		}
	}
	return ix
}

// Violation is the package's Violation against the indexed cases.
func (ix *Index) Violation(n Node) error {
	var children []*wire.Case
	for _, c := range ix.children[n.ID] {
		if c.ID != n.ID {
			children = append(children, c)
		}
	}
	var parent *wire.Case
	if n.ParentID != "" {
		parent = ix.byID[n.ParentID]
	}
	return refusal(violation(n, parent, children, ix.find, 0))
}

func (ix *Index) find(id string) *wire.Case {
	if id == "" {
		return nil
	}
	return ix.byID[id]
}

// Put records c's new state in the index: later checks see its kind and
// parent. It costs a scan of c's old siblings when its parent changed, so
// it suits a few changes between many checks.
func (ix *Index) Put(c *wire.Case) {
	if old, ok := ix.byID[c.ID]; ok && old.ParentID != c.ParentID && old.ParentID != "" {
		sib := ix.children[old.ParentID]
		for i, s := range sib {
			if s.ID == c.ID {
				ix.children[old.ParentID] = append(sib[:i:i], sib[i+1:]...)
				break
			}
		}
	}
	if old, ok := ix.byID[c.ID]; !ok || old.ParentID != c.ParentID {
		if c.ParentID != "" {
			ix.children[c.ParentID] = append(ix.children[c.ParentID], c)
		}
	} else if c.ParentID != "" {
		for i, s := range ix.children[c.ParentID] {
			if s.ID == c.ID {
				ix.children[c.ParentID][i] = c
			}
		}
	}
	ix.byID[c.ID] = c
}
