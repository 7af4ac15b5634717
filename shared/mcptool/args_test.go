package mcptool_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/shared/mcptool"
	"github.com/opsboard/opsboard/shared/wire"
)

func TestArgsConvert(t *testing.T) {
	a := mcptool.NewArgs(map[string]any{
		"title": "  Move  ", "note": "  as given ", "caseId": "", "parentId": nil, "labels": []any{" a ", "", "b"},
		"clear": []any{}, "done": true, "limit": 5.0, "weight": 2.5, "expectedVersion": 7.0,
		"rows": []any{map[string]any{"title": "t"}}, "payload": map[string]any{"k": "v"},
	})
	for _, tc := range []struct {
		name      string
		got, want any
	}{
		{"Str trims", a.Str("title"), "Move"},
		{"Str of an absent argument", a.Str("missing"), ""},
		{"Text keeps spaces", a.Text("note"), "  as given "},
		{"OptStr absent", a.OptStr("missing"), wire.Opt[string]{}},
		{"OptStr null", a.OptStr("parentId"), wire.Null[string]()},
		{"OptStr value", a.OptStr("title"), wire.Some("  Move  ")},
		{"Link \"\" clears", a.Link("caseId"), wire.Null[string]()},
		{"Link null clears", a.Link("parentId"), wire.Null[string]()},
		{"Link trims", a.Link("title"), wire.Some("Move")},
		{"Link absent keeps", a.Link("missing"), wire.Opt[string]{}},
		{"Strs trims and drops empties", a.Strs("labels"), []string{"a", "b"}},
		{"OptStrs [] clears", a.OptStrs("clear"), wire.Some([]string{})},
		{"OptStrs absent", a.OptStrs("missing"), wire.Opt[[]string]{}},
		{"BoolOr value", a.BoolOr("done", false), true},
		{"BoolOr default", a.BoolOr("missing", true), true},
		{"IntOr value", a.IntOr("limit", 50), 5},
		{"IntOr default", a.IntOr("missing", 50), 50},
		{"Num", *a.Num("weight"), 2.5},
		{"Num absent", a.Num("missing"), (*float64)(nil)},
		{"Expected", *a.Expected(), int64(7)},
		{"Objects", a.Objects("rows"), []map[string]any{{"title": "t"}}},
		{"Object", a.Object("payload"), map[string]any{"k": "v"}},
		{"Has counts null", a.Has("parentId"), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tc.got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
	if a.Err() != nil {
		t.Errorf("err %v after well-typed arguments", a.Err())
	}
	if mcptool.NewArgs(nil).Expected() != nil {
		t.Error("an absent expectedVersion is a guard")
	}
}

// TestArgsFailLoudly: a value of the wrong type is an error, and the first
// one is the one reported.
func TestArgsFailLoudly(t *testing.T) {
	for _, tc := range []struct {
		name string
		read func(a *mcptool.Args)
		want string
	}{
		{"string", func(a *mcptool.Args) { a.Str("n") }, `argument "n" must be a string`},
		{"string array", func(a *mcptool.Args) { a.Strs("n") }, `argument "n" must be an array of strings`},
		{"boolean", func(a *mcptool.Args) { a.OptBool("s") }, `argument "s" must be a boolean`},
		{"number", func(a *mcptool.Args) { a.Num("s") }, `argument "s" must be a number`},
		{"whole number", func(a *mcptool.Args) { a.IntOr("f", 0) }, `argument "f" must be a whole number`},
		{"object", func(a *mcptool.Args) { a.Object("s") }, `argument "s" must be an object`},
		{"array item", func(a *mcptool.Args) { a.Objects("l") }, "argument l[0] must be an object"},
		{"first failure wins", func(a *mcptool.Args) { a.Str("n"); a.Object("s") }, `argument "n" must be a string`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := mcptool.NewArgs(map[string]any{"n": 1.0, "s": "x", "f": 1.5, "l": []any{"x"}})
			tc.read(a)
			if a.Err() == nil || a.Err().Error() != tc.want {
				t.Errorf("err %v, want %q", a.Err(), tc.want)
			}
		})
	}
}
