package wire

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Every Verb constant has one row of Verbs, in a category the page knows:
// a verb left out would be filed as an edit and shown as raw words.
func TestEveryVerbHasOneRow(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "verbs.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var declared []string
	ast.Inspect(f, func(n ast.Node) bool {
		if vs, ok := n.(*ast.ValueSpec); ok && vs.Type != nil {
			if id, ok := vs.Type.(*ast.Ident); ok && id.Name == "Verb" {
				s, _ := strconv.Unquote(vs.Values[0].(*ast.BasicLit).Value)
				declared = append(declared, s)
			}
		}
		return true
	})
	var listed []string
	for _, v := range Verbs {
		listed = append(listed, string(v.Verb))
		if !slices.Contains(ActivityCategories, v.Category) {
			t.Errorf("%s is in category %q, which ActivityCategories leaves out", v.Verb, v.Category)
		}
	}
	if diff := cmp.Diff(declared, listed); diff != "" {
		t.Errorf("Verb constants (-) and rows of Verbs (+) differ\n%s", diff)
	}
}

func TestVerbCategory(t *testing.T) {
	for _, tc := range []struct {
		verb Verb
		want string
	}{
		{VerbStatusChanged, CategoryStatus},
		{VerbMergedFrom, CategoryHierarchy},
		{VerbIngestRun, CategoryIngest},
		{"task_from_an_older_board", CategoryTasks},
		{"something_new", CategoryEdit},
	} {
		if got := tc.verb.Category(); got != tc.want {
			t.Errorf("%s: category %q, want %q", tc.verb, got, tc.want)
		}
	}
}
