package training

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestExpand(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"no groups", []string{"no groups"}},
		{"{a|b} c", []string{"a c", "b c"}},
		{"x {a|b} {c|d}.", []string{"x a c.", "x a d.", "x b c.", "x b d."}},
		{"{a|} b", []string{"a b", "b"}},
		{"open { never closed", []string{"open { never closed"}},
	} {
		if diff := cmp.Diff(tc.want, Expand(tc.in)); diff != "" {
			t.Errorf("Expand(%q) (-want +got)\n%s", tc.in, diff)
		}
	}
}

func TestInsertAt(t *testing.T) {
	email := "Hello Ann,\nthe invoice is attached.\nBest, Tom"
	for _, tc := range []struct{ where, want string }{
		{"start", "X\n" + email},
		{"end", email + "\nX"},
		{"middle", "Hello Ann,\nX\n\nthe invoice is attached.\nBest, Tom"},
	} {
		if got := InsertAt(email, "X", tc.where); got != tc.want {
			t.Errorf("InsertAt %s = %q, want %q", tc.where, got, tc.want)
		}
	}
}

// TestGermanTemplates: our own templates read, expand, and keep both
// classes, under a source name of their own.
func TestGermanTemplates(t *testing.T) {
	rows, files, err := ReadTemplates("../../testdata/german")
	if err != nil {
		t.Fatal(err)
	}
	var c [2]int
	for _, r := range rows {
		c[r.Label]++
		if r.Source != "own_german" {
			t.Fatalf("source %q, want own_german", r.Source)
		}
	}
	if c[0] < 100 || c[1] < 300 || len(files) != 2 {
		t.Errorf("%d benign, %d attacks from %d files; want at least 100, 300, and 2 files", c[0], c[1], len(files))
	}
}
