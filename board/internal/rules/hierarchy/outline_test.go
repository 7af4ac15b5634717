package hierarchy

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/shared/wire"
)

func TestOutline(t *testing.T) {
	d := &wire.Doc{Cases: wire.ListOf(fixture()...)}
	for _, tc := range []struct {
		name    string
		opt     TreeOptions
		roots   []string
		wantErr string
	}{
		{"the whole tree", TreeOptions{}, []string{"CASE-1", "CASE-4", "CASE-7"}, ""},
		{"one subtree", TreeOptions{RootID: "CASE-7"}, []string{"CASE-7"}, ""},
		{"an archived root is held, shown only with the archived", TreeOptions{RootID: "CASE-5", IncludeArchived: true}, []string{"CASE-5"}, ""},
		{"a root the board does not hold", TreeOptions{RootID: "CASE-99"}, nil, "case CASE-99 not found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tree, err := Outline(d, tc.opt)
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			var roots []string
			for _, n := range tree {
				roots = append(roots, n.ID)
			}
			if diff := cmp.Diff(tc.roots, roots); diff != "" || gotErr != tc.wantErr {
				t.Errorf("error %q, want %q; roots (-want +got)\n%s", gotErr, tc.wantErr, diff)
			}
		})
	}
}
