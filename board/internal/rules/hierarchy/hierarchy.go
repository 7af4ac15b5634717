// Package hierarchy holds the pure rules of the initiative > workstream > case
// tree: the one invariant check every write calls, the whole-tree check, and
// the tree with its rollups.
package hierarchy

import (
	"fmt"
	"strings"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/shared/wire"
)

// Node is the intended kind and parent of a node that a write is about to set.
type Node struct {
	ID       string
	Kind     wire.Kind // initiative, workstream or case ("" reads as case)
	ParentID string    // "" means top-level
}

// Violation returns nil when n may take the given kind and parent among
// cases, or a bad request saying why not. The rules: a known kind; no self-parent, a
// parent that exists, no cycle; only an initiative or a workstream holds
// children; an initiative is a root; a workstream sits under an initiative
// and holds cases only; a case holds nothing. cases may hold n's current
// record; its children are read from cases. An archived parent is
// still a valid parent.
func Violation(cases wire.List[*wire.Case], n Node) error {
	// One pass finds n's children and its parent; the tree is at most three
	// deep, so walking up from the parent takes a few lookups. A map of
	// every case would cost an allocation per write at 10k cases.
	var children []*wire.Case
	var parent *wire.Case
	for _, c := range cases.All() {
		if c.ParentID == n.ID && c.ID != n.ID {
			children = append(children, c)
		}
		if n.ParentID != "" && c.ID == n.ParentID {
			parent = c
		}
	}
	up := func(id string) *wire.Case {
		if id == "" {
			return nil
		}
		if i := cases.IndexFunc(func(c *wire.Case) bool { return c.ID == id }); i >= 0 {
			return cases.At(i)
		}
		return nil
	}
	return refusal(violation(n, parent, children, up, 0))
}

// refusal is a violation's message as the bad request a write answers, or
// nil when there is none.
func refusal(msg string) error {
	if msg == "" {
		return nil
	}
	return errs.BadRequest("%s", msg)
}

// violation is Violation once n's parent and children are found; up finds
// any other node by id. A positive maxUp bounds the walk up from the parent
// that looks for a cycle.
func violation(n Node, parent *wire.Case, children []*wire.Case, up func(id string) *wire.Case, maxUp int) string {
	kind := n.Kind
	if kind == "" {
		kind = "case"
	}
	switch kind {
	case "initiative", "workstream", "case":
	default:
		return fmt.Sprintf("kind %q is not valid: use initiative, workstream or case", n.Kind)
	}
	if n.ParentID != "" {
		if n.ParentID == n.ID {
			return fmt.Sprintf("%s cannot be its own parent", n.ID)
		}
		if parent == nil {
			return fmt.Sprintf("parent %s not found", n.ParentID)
		}
		if !parent.IsContainer() {
			return fmt.Sprintf("parent %s is a case; only an initiative or a workstream can hold children", parent.ID)
		}
		// Walk up; seen stops a cycle that a hand edit left above n.
		seen := map[string]bool{}
		for p, steps := parent, 0; p != nil && !seen[p.ID] && (maxUp <= 0 || steps < maxUp); p, steps = up(p.ParentID), steps+1 {
			if p.ID == n.ID {
				return fmt.Sprintf("moving %s under %s would make a cycle", n.ID, n.ParentID)
			}
			seen[p.ID] = true
		}
	}
	switch kind {
	case "initiative":
		if n.ParentID != "" {
			return fmt.Sprintf("initiative %s cannot have a parent: an initiative is always a root", n.ID)
		}
	case "workstream":
		if n.ParentID == "" {
			return fmt.Sprintf("workstream %s needs a parent initiative: convert it to an initiative first or move it under another initiative", n.ID)
		}
		if parent.Kind != wire.KindInitiative {
			return fmt.Sprintf("workstream %s must sit under an initiative; %s is a %s", n.ID, parent.ID, parent.Kind)
		}
		for _, c := range children {
			if c.Kind != wire.KindCase {
				return fmt.Sprintf("workstream %s can contain cases only; child %s is a %s", n.ID, c.ID, c.Kind)
			}
		}
	case "case":
		if len(children) > 0 {
			return fmt.Sprintf("%s has %d children (%s); a case cannot contain other nodes: move or detach them first", n.ID, len(children), ids(children))
		}
	}
	return ""
}

// find returns the case with id, or nil; "" is never an id.
func find(cases []*wire.Case, id string) *wire.Case {
	if id == "" {
		return nil
	}
	for _, c := range cases {
		if c.ID == id {
			return c
		}
	}
	return nil
}

func ids(cs []*wire.Case) string {
	var out []string
	for i, c := range cs {
		if i == 3 {
			out = append(out, "...")
			break
		}
		out = append(out, c.ID)
	}
	return strings.Join(out, ", ")
}

// Problem is one node that breaks the hierarchy, and why.
type Problem struct {
	ID  string
	Msg string
}

// maxWalk bounds the walk up from a node when checking the whole tree: a
// valid tree is three tiers deep, so a longer chain already breaks a rule at
// some node on it, which the check reports there; the bound keeps a long
// chain typed in by hand from costing quadratic time.
const maxWalk = wire.HierarchyDepth + 1

// Problems checks the whole tree in time linear in the number of nodes and
// lists every node that breaks it, in stored order: an empty id, an id held
// by more than one node, and whatever Violation says about a node where it
// stands (a cycle, a self-parent, a missing parent, a kind out of place).
func Problems(cases []*wire.Case) []Problem {
	byID := make(map[string]*wire.Case, len(cases))
	children := map[string][]*wire.Case{}
	var out []Problem
	reported := map[string]bool{}
	for _, c := range cases {
		switch _, dup := byID[c.ID]; {
		case c.ID == "":
			out = append(out, Problem{ID: "", Msg: fmt.Sprintf("a node has an empty id (title %q)", c.Title)})
		case dup && !reported[c.ID]:
			reported[c.ID] = true
			out = append(out, Problem{ID: c.ID, Msg: fmt.Sprintf("%s is the id of more than one node", c.ID)})
		case !dup:
			byID[c.ID] = c
		}
		if c.ParentID != "" && c.ParentID != c.ID {
			children[c.ParentID] = append(children[c.ParentID], c)
		}
	}
	up := func(id string) *wire.Case {
		if id == "" {
			return nil
		}
		return byID[id]
	}
	for _, c := range cases {
		if c.ID == "" || byID[c.ID] != c || reported[c.ID] {
			continue // reported above; its place cannot be told apart from its twin's
		}
		if msg := violation(Node{ID: c.ID, Kind: c.Kind, ParentID: c.ParentID}, up(c.ParentID), children[c.ID], up, maxWalk); msg != "" {
			out = append(out, Problem{ID: c.ID, Msg: msg})
		}
	}
	return out
}

// maxListed bounds how many problems Check's error spells out.
const maxListed = 10

// Check asserts every invariant over the whole tree: ids present and
// unique, and each node's kind and parent allowed where it stands. Its error
// starts with the first violation and lists every offending node.
func Check(cases []*wire.Case) error {
	ps := Problems(cases)
	if len(ps) == 0 {
		return nil
	}
	msgs := make([]string, 0, min(len(ps), maxListed)+1)
	for i, p := range ps {
		if i == maxListed {
			msgs = append(msgs, fmt.Sprintf("and %d more", len(ps)-maxListed))
			break
		}
		msgs = append(msgs, p.Msg)
	}
	return fmt.Errorf("%s", strings.Join(msgs, "; "))
}

// Rollup summarizes a node's non-archived descendant leaf cases at any
// depth. It is the shape GET /api/tree answers with, computed here.
type Rollup = wire.Rollup

// TreeNode is a case node with its children and its rollup, as GET /api/tree
// answers it. It holds a copy of the stored case.
type TreeNode = wire.TreeNode

// TreeOptions filter the tree.
type TreeOptions struct {
	IncludeArchived bool
	Domain          wire.Domain // filters roots by the root's own domain
	RootID          string      // limits the tree to one subtree
}

// Tree builds the forest of case nodes in the cases' stored order. A node
// whose parent is missing (or filtered out as archived) is shown as a root,
// and so is every node of a parent cycle or its own parent, which a hand
// edit can leave: shown detached, never hidden or followed round forever.
func Tree(cases []*wire.Case, opt TreeOptions) []*TreeNode {
	nodes := make(map[string]*TreeNode, len(cases))
	var order []*TreeNode
	for _, c := range cases {
		if c.ArchivedAt != "" && !opt.IncludeArchived {
			continue
		}
		n := &TreeNode{Case: *c, Children: []*TreeNode{}}
		nodes[c.ID] = n
		order = append(order, n)
	}
	parentOf := func(n *TreeNode) *TreeNode {
		if n.ParentID == "" {
			return nil
		}
		if p := nodes[n.ParentID]; p != n {
			return p
		}
		return nil
	}
	cyclic := inCycle(order, parentOf)
	var roots []*TreeNode
	for _, n := range order {
		if p := parentOf(n); p != nil && !cyclic[n] {
			p.Children = append(p.Children, n)
			continue
		}
		roots = append(roots, n)
	}
	for _, r := range roots {
		fill(r)
	}
	if opt.RootID != "" {
		if n, ok := nodes[opt.RootID]; ok {
			return []*TreeNode{n}
		}
		return []*TreeNode{}
	}
	out := []*TreeNode{}
	for _, r := range roots {
		if opt.Domain == "" || r.Domain == opt.Domain {
			out = append(out, r)
		}
	}
	return out
}

// inCycle finds the nodes that lie on a cycle of parent links, visiting
// each node once.
func inCycle(order []*TreeNode, parentOf func(*TreeNode) *TreeNode) map[*TreeNode]bool {
	const (
		onPath = 1
		done   = 2
	)
	state := make(map[*TreeNode]int8, len(order))
	cyclic := map[*TreeNode]bool{}
	var path []*TreeNode
	for _, n := range order {
		path = path[:0]
		cur := n
		for cur != nil && state[cur] == 0 {
			state[cur] = onPath
			path = append(path, cur)
			cur = parentOf(cur)
		}
		if cur != nil && state[cur] == onPath { // the walk came back: cur and above it on the path form the cycle
			for i := len(path) - 1; i >= 0; i-- {
				cyclic[path[i]] = true
				if path[i] == cur {
					break
				}
			}
		}
		for _, p := range path {
			state[p] = done
		}
	}
	return cyclic
}

// fill computes rollups bottom-up. Archived descendants never reach here
// unless asked for, and are still left out of the counts.
func fill(n *TreeNode) Rollup {
	var r Rollup
	r.ChildCount = len(n.Children)
	for _, ch := range n.Children {
		cr := fill(ch)
		if ch.ArchivedAt != "" {
			continue
		}
		if ch.Kind == wire.KindCase {
			r.TotalCases++
			if ch.Status == wire.LaneDone {
				r.DoneCases++
			}
			for _, t := range ch.Tasks {
				r.TotalTasks++
				if t.CompletedAt != "" {
					r.DoneTasks++
				}
			}
			continue
		}
		r.TotalCases += cr.TotalCases
		r.DoneCases += cr.DoneCases
		r.TotalTasks += cr.TotalTasks
		r.DoneTasks += cr.DoneTasks
	}
	if r.TotalCases > 0 {
		r.Ratio = float64(r.DoneCases) / float64(r.TotalCases)
	}
	n.Rollup = r
	return r
}
