package hierarchy

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/shared/wire"
)

func fixture() []*wire.Case {
	return []*wire.Case{
		{ID: "CASE-1", Kind: "initiative"},
		{ID: "CASE-2", Kind: "workstream", ParentID: "CASE-1"},
		{ID: "CASE-3", Kind: "case", ParentID: "CASE-2"},
		{ID: "CASE-4", Kind: "case"},
		{ID: "CASE-5", Kind: "initiative", ArchivedAt: "2026-01-01T00:00:00Z"},
		{ID: "CASE-6", Kind: "case", ParentID: "CASE-1"},
		{ID: "CASE-7", Kind: "initiative"},
		{ID: "CASE-8", Kind: "workstream", ParentID: "CASE-7"},
	}
}

// errText is an error's text, or "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestViolation(t *testing.T) {
	for _, tc := range []struct {
		name string
		node Node
		want string // "" means allowed
	}{
		{"1 initiative at the root", Node{ID: "CASE-9", Kind: "initiative"}, ""},
		{"1 initiative cannot have a parent", Node{ID: "CASE-9", Kind: "initiative", ParentID: "CASE-1"}, "initiative CASE-9 cannot have a parent: an initiative is always a root"},
		{"2 workstream under an initiative", Node{ID: "CASE-9", Kind: "workstream", ParentID: "CASE-1"}, ""},
		{"2 workstream without initiative", Node{ID: "CASE-9", Kind: "workstream"}, "workstream CASE-9 needs a parent initiative: convert it to an initiative first or move it under another initiative"},
		{"2 workstream under a workstream", Node{ID: "CASE-9", Kind: "workstream", ParentID: "CASE-2"}, "workstream CASE-9 must sit under an initiative; CASE-2 is a workstream"},
		{"3 case at the root", Node{ID: "CASE-9", Kind: "case"}, ""},
		{"3 case under a workstream", Node{ID: "CASE-9", Kind: "case", ParentID: "CASE-2"}, ""},
		{"3 case under an initiative", Node{ID: "CASE-9", Kind: "case", ParentID: "CASE-1"}, ""},
		{"3 case under a case", Node{ID: "CASE-9", Kind: "case", ParentID: "CASE-4"}, "parent CASE-4 is a case; only an initiative or a workstream can hold children"},
		{"3 empty kind reads as case", Node{ID: "CASE-9", ParentID: "CASE-4"}, "parent CASE-4 is a case; only an initiative or a workstream can hold children"},
		{"4 parent must exist", Node{ID: "CASE-9", Kind: "case", ParentID: "CASE-99"}, "parent CASE-99 not found"},
		{"4 self parent", Node{ID: "CASE-2", Kind: "workstream", ParentID: "CASE-2"}, "CASE-2 cannot be its own parent"},
		{"4 cycle", Node{ID: "CASE-1", Kind: "workstream", ParentID: "CASE-2"}, "moving CASE-1 under CASE-2 would make a cycle"},
		{"4 archived parent tolerated", Node{ID: "CASE-9", Kind: "case", ParentID: "CASE-5"}, ""},
		{"5 container with children cannot become a case", Node{ID: "CASE-2", Kind: "case", ParentID: "CASE-1"}, "CASE-2 has 1 children (CASE-3); a case cannot contain other nodes: move or detach them first"},
		{"5 initiative with a workstream cannot become a workstream", Node{ID: "CASE-7", Kind: "workstream", ParentID: "CASE-1"}, "workstream CASE-7 can contain cases only; child CASE-8 is a workstream"},
		{"5 initiative holding a workstream cannot move under another initiative", Node{ID: "CASE-1", Kind: "workstream", ParentID: "CASE-7"}, "workstream CASE-1 can contain cases only; child CASE-2 is a workstream"},
		{"5 workstream may become an initiative", Node{ID: "CASE-2", Kind: "initiative"}, ""},
		{"6 clearing a workstream's parent", Node{ID: "CASE-2", Kind: "workstream"}, "workstream CASE-2 needs a parent initiative: convert it to an initiative first or move it under another initiative"},
		{"unknown kind", Node{ID: "CASE-9", Kind: "epic"}, `kind "epic" is not valid: use initiative, workstream or case`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, errText(Violation(wire.ListOf(fixture()...), tc.node))); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			if diff := cmp.Diff(tc.want, errText(NewIndex(wire.ListOf(fixture()...)).Violation(tc.node))); diff != "" {
				t.Errorf("index (-want +got)\n%s", diff)
			}
			var bad *errs.BadRequestError
			if err := Violation(wire.ListOf(fixture()...), tc.node); err != nil && !errors.As(err, &bad) {
				t.Errorf("a violation is a %T, want a bad request", err)
			}
		})
	}
}

func TestCheckFindsABrokenTree(t *testing.T) {
	if err := Check(fixture()); err != nil {
		t.Fatalf("valid fixture: %v", err)
	}
	bad := append(fixture(), &wire.Case{ID: "CASE-10", Kind: "workstream"})
	if err := Check(bad); err == nil {
		t.Fatal("orphan workstream not reported")
	}
}

func TestTreeRollups(t *testing.T) {
	done := "2026-01-01T00:00:00Z"
	cases := []*wire.Case{
		{ID: "CASE-1", Kind: "initiative", Domain: "work"},
		{ID: "CASE-2", Kind: "workstream", ParentID: "CASE-1", Domain: "work"},
		{ID: "CASE-3", Kind: "case", ParentID: "CASE-2", Status: "done", Tasks: []wire.Task{{ID: "a", CompletedAt: done}, {ID: "b"}}},
		{ID: "CASE-4", Kind: "case", ParentID: "CASE-2", Status: "todo", Tasks: []wire.Task{{ID: "c"}}},
		{ID: "CASE-5", Kind: "case", ParentID: "CASE-1", Status: "done"},
		{ID: "CASE-6", Kind: "case", ParentID: "CASE-1", Status: "done", ArchivedAt: done},
		{ID: "CASE-7", Kind: "case", Domain: "life"},
	}
	tree := Tree(cases, TreeOptions{})
	if len(tree) != 2 {
		t.Fatalf("%d roots, want 2", len(tree))
	}
	want := Rollup{TotalCases: 3, DoneCases: 2, TotalTasks: 3, DoneTasks: 1, Ratio: 2.0 / 3, ChildCount: 2}
	if diff := cmp.Diff(want, tree[0].Rollup); diff != "" {
		t.Errorf("initiative rollup (-want +got)\n%s", diff)
	}
	ws := tree[0].Children[0]
	if diff := cmp.Diff(Rollup{TotalCases: 2, DoneCases: 1, TotalTasks: 3, DoneTasks: 1, Ratio: 0.5, ChildCount: 2}, ws.Rollup); diff != "" {
		t.Errorf("workstream rollup (-want +got)\n%s", diff)
	}
	withArchived := Tree(cases, TreeOptions{IncludeArchived: true})
	if got := withArchived[0].Rollup; got.ChildCount != 3 || got.TotalCases != 3 {
		t.Errorf("archived child must be listed but not counted: %+v", got)
	}
	if got := Tree(cases, TreeOptions{Domain: "life"}); len(got) != 1 || got[0].ID != "CASE-7" {
		t.Errorf("domain filter: %v", got)
	}
	if got := Tree(cases, TreeOptions{RootID: "CASE-2"}); len(got) != 1 || got[0].Rollup.TotalCases != 2 {
		t.Errorf("rootId subtree: %v", got)
	}
}

func TestProblemsListsEveryOffendingNode(t *testing.T) {
	with := func(extra ...*wire.Case) []*wire.Case { return append(fixture(), extra...) }
	for _, tc := range []struct {
		name  string
		cases []*wire.Case
		want  []Problem
	}{
		{"a valid tree", fixture(), nil},
		{"an empty id", with(&wire.Case{Title: "nameless", Kind: "case"}), []Problem{{"", `a node has an empty id (title "nameless")`}}},
		{"a duplicate id, reported once", with(&wire.Case{ID: "CASE-4", Kind: "case"}, &wire.Case{ID: "CASE-4", Kind: "case"}),
			[]Problem{{"CASE-4", "CASE-4 is the id of more than one node"}}},
		{"a self-parent", with(&wire.Case{ID: "CASE-9", Kind: "case", ParentID: "CASE-9"}), []Problem{{"CASE-9", "CASE-9 cannot be its own parent"}}},
		{"a cycle of two workstreams names both", with(
			&wire.Case{ID: "CASE-10", Kind: "workstream", ParentID: "CASE-11"},
			&wire.Case{ID: "CASE-11", Kind: "workstream", ParentID: "CASE-10"},
		), []Problem{{"CASE-10", "moving CASE-10 under CASE-11 would make a cycle"}, {"CASE-11", "moving CASE-11 under CASE-10 would make a cycle"}}},
		{"a missing parent and a case holding a node", with(
			&wire.Case{ID: "CASE-12", Kind: "case", ParentID: "CASE-99"},
			&wire.Case{ID: "CASE-13", Kind: "case", ParentID: "CASE-4"},
		), []Problem{{"CASE-4", "CASE-4 has 1 children (CASE-13); a case cannot contain other nodes: move or detach them first"},
			{"CASE-12", "parent CASE-99 not found"}, {"CASE-13", "parent CASE-4 is a case; only an initiative or a workstream can hold children"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Problems(tc.cases)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			if err := Check(tc.cases); (err == nil) != (len(tc.want) == 0) {
				t.Errorf("Check: %v, want an error: %v", err, len(tc.want) > 0)
			}
		})
	}
}

func TestCheckNamesEveryOffendingNode(t *testing.T) {
	cases := append(fixture(), &wire.Case{ID: "CASE-9", Kind: "case", ParentID: "CASE-9"}, &wire.Case{ID: "CASE-10", Kind: "workstream"})
	err := Check(cases)
	want := "CASE-9 cannot be its own parent; workstream CASE-10 needs a parent initiative: convert it to an initiative first or move it under another initiative"
	if err == nil || err.Error() != want {
		t.Errorf("Check: %v, want %q", err, want)
	}
}

// ids of a forest, depth first, with the depth of each node.
func forest(ns []*TreeNode, depth int, out *[]string) {
	for _, n := range ns {
		*out = append(*out, fmt.Sprintf("%d %s", depth, n.ID))
		forest(n.Children, depth+1, out)
	}
}

func TestTreeShowsEveryNodeOfABrokenHierarchy(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cases []*wire.Case
		want  []string
	}{
		{"a self-parent is a root", []*wire.Case{{ID: "CASE-1", Kind: "initiative", ParentID: "CASE-1"}, {ID: "CASE-2", ParentID: "CASE-1"}},
			[]string{"0 CASE-1", "1 CASE-2"}},
		{"a cycle shows detached, what hangs below stays below", []*wire.Case{
			{ID: "CASE-1", Kind: "workstream", ParentID: "CASE-2"},
			{ID: "CASE-2", Kind: "workstream", ParentID: "CASE-3"},
			{ID: "CASE-3", Kind: "workstream", ParentID: "CASE-1"},
			{ID: "CASE-4", ParentID: "CASE-2"},
			{ID: "CASE-5"},
		}, []string{"0 CASE-1", "0 CASE-2", "1 CASE-4", "0 CASE-3", "0 CASE-5"}},
		{"a chain into a cycle hangs from it", []*wire.Case{
			{ID: "CASE-3", Kind: "workstream", ParentID: "CASE-2"},
			{ID: "CASE-1", Kind: "workstream", ParentID: "CASE-2"},
			{ID: "CASE-2", Kind: "workstream", ParentID: "CASE-1"},
		}, []string{"0 CASE-1", "0 CASE-2", "1 CASE-3"}},
		{"duplicate ids both show", []*wire.Case{{ID: "CASE-1"}, {ID: "CASE-1"}}, []string{"0 CASE-1", "0 CASE-1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			forest(Tree(tc.cases, TreeOptions{}), 0, &got)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			for _, c := range tc.cases {
				if sub := Tree(tc.cases, TreeOptions{RootID: c.ID}); len(sub) != 1 {
					t.Errorf("rootId %s: %d nodes", c.ID, len(sub))
				}
			}
		})
	}
}

// BenchmarkCheck checks a valid tree of 100 initiatives, each with 10
// workstreams of 10 cases (11,100 nodes): the check the board runs on every
// file it loads, which must stay linear.
func BenchmarkCheck(b *testing.B) {
	var cases []*wire.Case
	n := 0
	next := func(kind wire.Kind, parent string) string {
		n++
		id := fmt.Sprintf("CASE-%d", n)
		cases = append(cases, &wire.Case{ID: id, Kind: kind, ParentID: parent})
		return id
	}
	for i := 0; i < 100; i++ {
		ini := next(wire.KindInitiative, "")
		for w := 0; w < 10; w++ {
			ws := next(wire.KindWorkstream, ini)
			for c := 0; c < 10; c++ {
				next(wire.KindCase, ws)
			}
		}
	}
	b.ResetTimer()
	for range b.N {
		if err := Check(cases); err != nil {
			b.Fatal(err)
		}
	}
}
func TestIndexPutMovesANode(t *testing.T) {
	cases := fixture()
	ix := NewIndex(wire.ListOf(cases...))
	moved := &wire.Case{ID: "CASE-3", Kind: "case", ParentID: "CASE-8"}
	ix.Put(moved)
	cases[2] = moved
	for _, n := range []Node{
		{ID: "CASE-2", Kind: "case", ParentID: "CASE-1"},
		{ID: "CASE-8", Kind: "case", ParentID: "CASE-7"},
		{ID: "CASE-9", Kind: "case", ParentID: "CASE-3"},
	} {
		if diff := cmp.Diff(errText(Violation(wire.ListOf(cases...), n)), errText(ix.Violation(n))); diff != "" {
			t.Errorf("%v (-scan +index)\n%s", n, diff)
		}
	}
}
