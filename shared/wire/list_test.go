package wire_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opsboard/opsboard/shared/wire"
)

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func listInts(l wire.List[int]) []int {
	var out []int
	for i, v := range l.All() {
		if i != len(out) {
			panic(fmt.Sprintf("All yielded position %d after %d records", i, len(out)))
		}
		out = append(out, v)
	}
	if l.Len() != len(out) {
		panic(fmt.Sprintf("Len %d, All yielded %d", l.Len(), len(out)))
	}
	for i, v := range out {
		if l.At(i) != v {
			panic(fmt.Sprintf("At(%d) = %d, All gave %d", i, l.At(i), v))
		}
	}
	return out
}

// TestListChanges checks each change against the same change on a slice,
// and that the list it started from still shows what it showed before.
func TestListChanges(t *testing.T) {
	for _, n := range []int{0, 1, 255, 256, 257, 600, 1024} {
		for _, tc := range []struct {
			name  string
			list  func(wire.List[int]) wire.List[int]
			slice func([]int) []int
			valid bool
		}{
			{"set first", func(l wire.List[int]) wire.List[int] { return l.Set(0, -1) }, func(s []int) []int { s[0] = -1; return s }, n > 0},
			{"set last", func(l wire.List[int]) wire.List[int] { return l.Set(n-1, -1) }, func(s []int) []int { s[n-1] = -1; return s }, n > 0},
			{"set middle", func(l wire.List[int]) wire.List[int] { return l.Set(n/2, -1) }, func(s []int) []int { s[n/2] = -1; return s }, n > 0},
			{"delete first", func(l wire.List[int]) wire.List[int] { return l.Delete(0) }, func(s []int) []int { return slices.Delete(s, 0, 1) }, n > 0},
			{"delete last", func(l wire.List[int]) wire.List[int] { return l.Delete(n - 1) }, func(s []int) []int { return slices.Delete(s, n-1, n) }, n > 0},
			{"delete middle", func(l wire.List[int]) wire.List[int] { return l.Delete(n / 2) }, func(s []int) []int { return slices.Delete(s, n/2, n/2+1) }, n > 0},
			{"filter odd out", func(l wire.List[int]) wire.List[int] { return l.Filter(func(v int) bool { return v%2 == 0 }) }, func(s []int) []int { return slices.DeleteFunc(s, func(v int) bool { return v%2 != 0 }) }, true},
			{"filter keeps all", func(l wire.List[int]) wire.List[int] { return l.Filter(func(int) bool { return true }) }, func(s []int) []int { return s }, true},
			{"insert first", func(l wire.List[int]) wire.List[int] { return l.Insert(0, -1) }, func(s []int) []int { return slices.Insert(s, 0, -1) }, true},
			{"insert middle", func(l wire.List[int]) wire.List[int] { return l.Insert(n/2, -1) }, func(s []int) []int { return slices.Insert(s, n/2, -1) }, true},
			{"insert at end", func(l wire.List[int]) wire.List[int] { return l.Insert(n, -1) }, func(s []int) []int { return append(s, -1) }, true},
			{"append 300", func(l wire.List[int]) wire.List[int] { return l.Append(seq(300)...) }, func(s []int) []int { return append(s, seq(300)...) }, true},
		} {
			if !tc.valid {
				continue
			}
			t.Run(fmt.Sprintf("%s of %d", tc.name, n), func(t *testing.T) {
				old := wire.ListOf(seq(n)...)
				got := listInts(tc.list(old))
				if diff := cmp.Diff(tc.slice(seq(n)), got, cmp.Comparer(func(a, b []int) bool { return slices.Equal(a, b) })); diff != "" {
					t.Errorf("new list (-want +got)\n%s", diff)
				}
				if diff := cmp.Diff(seq(n), listInts(old), cmp.Comparer(func(a, b []int) bool { return slices.Equal(a, b) })); diff != "" {
					t.Errorf("the old list changed (-want +got)\n%s", diff)
				}
			})
		}
	}
}

// TestListDraft checks that a draft's changes leave the list it started
// from as it was, however many changes it makes.
func TestListDraft(t *testing.T) {
	for _, n := range []int{0, 3, 256, 700} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			committed := wire.ListOf(seq(n)...)
			draft := committed
			d := wire.DraftOf(&draft)
			want := seq(n)
			for i := 0; i < n; i += 7 {
				d.Set(i, -i)
				want[i] = -i
			}
			for i := range 300 {
				d.Append(1000 + i)
				want = append(want, 1000+i)
			}
			d.Set(len(want)-1, 7)
			want[len(want)-1] = 7
			d.Delete(len(want) / 3)
			want = slices.Delete(want, len(want)/3, len(want)/3+1)
			d.Insert(len(want)/2, 42)
			want = slices.Insert(want, len(want)/2, 42)
			d.Filter(func(v int) bool { return v != 1005 })
			want = slices.DeleteFunc(want, func(v int) bool { return v == 1005 })
			d.Set(0, 99)
			want[0] = 99
			if !slices.Equal(want, listInts(draft)) {
				t.Errorf("draft = %v, want %v", listInts(draft), want)
			}
			if !slices.Equal(seq(n), listInts(committed)) {
				t.Errorf("the committed list changed: %v", listInts(committed))
			}
		})
	}
}

// TestListJSON checks that a list encodes as the slice it holds would, null
// and empty alike, and decodes back.
func TestListJSON(t *testing.T) {
	type doc struct {
		Always wire.List[*Case] `json:"always"`
		Often  wire.List[*Case] `json:"often,omitzero"`
	}
	type flat struct {
		Always []*Case `json:"always"`
		Often  []*Case `json:"often,omitempty"`
	}
	many := make([]*Case, 600)
	for i := range many {
		many[i] = &Case{ID: fmt.Sprintf("CASE-%d", i), Title: "<a & b>"}
	}
	for _, tc := range []struct {
		name string
		recs []*Case
	}{
		{"nil", nil},
		{"empty", []*Case{}},
		{"one", many[:1]},
		{"many", many},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, err := json.MarshalIndent(flat{tc.recs, tc.recs}, "", " ")
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.MarshalIndent(doc{wire.ListOf(tc.recs...), wire.ListOf(tc.recs...)}, "", " ")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Fatalf("encoded (-slice +list)\n%s", diff)
			}
			var back doc
			if err := json.Unmarshal(got, &back); err != nil {
				t.Fatal(err)
			}
			if back.Always.IsNil() != (tc.recs == nil) {
				t.Errorf("decoded IsNil = %v for %v", back.Always.IsNil(), tc.recs)
			}
			if diff := cmp.Diff(tc.recs, back.Always.Slice()); diff != "" {
				t.Errorf("decoded (-want +got)\n%s", diff)
			}
		})
	}
}

type Case = wire.Case

// BenchmarkListSet compares replacing one record of a list that readers
// share: a fresh copy of a slice against a List's Set.
func BenchmarkListSet(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		recs := make([]*Case, n)
		for i := range recs {
			recs[i] = &Case{}
		}
		c := &Case{}
		b.Run(fmt.Sprintf("slice-copy-%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := range b.N {
				cp := slices.Clone(recs)
				cp[i%n] = c
			}
		})
		l := wire.ListOf(recs...)
		b.Run(fmt.Sprintf("list-set-%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := range b.N {
				_ = l.Set(i%n, c)
			}
		})
	}
}
