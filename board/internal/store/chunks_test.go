package store

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/shared/wire"
)

// A write over a collection of several chunks changes only the new state:
// a snapshot taken before it still shows every record as it was, and the
// new state (and the same state after a restart, replayed from the
// journal) holds exactly the changes, in order.
func TestWritesOverManyChunksLeaveTheSnapshot(t *testing.T) {
	const n = 700 // three chunks of a list
	path := filepath.Join(t.TempDir(), "board.json")
	s := open(t, path)
	ctx := context.Background()
	if _, err := s.Update(ctx, wire.ActorHuman, nil, func(tx *Tx) error {
		for range n {
			tx.Cases().Put(&wire.Case{ID: tx.NextID("CASE"), Title: "first", Status: "todo", Domain: "work", Kind: "case"})
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		write func(tx *Tx)
		model func(titles []string) []string
	}{
		{"patch one record in each chunk, twice in one", func(tx *Tx) {
			for _, i := range []int{1, 300, 301, 699} {
				c, _ := tx.Cases().Get(fmt.Sprintf("CASE-%d", i))
				c.Title = "patched"
				tx.Cases().Put(c)
			}
		}, func(ts []string) []string {
			for _, i := range []int{1, 300, 301, 699} {
				ts[i-1] = fmt.Sprintf("CASE-%d patched", i)
			}
			return ts
		}},
		{"delete in the first chunk, then patch in the last", func(tx *Tx) {
			tx.Cases().Delete("CASE-10")
			c, _ := tx.Cases().Get("CASE-600")
			c.Title = "after delete"
			tx.Cases().Put(c)
		}, func(ts []string) []string {
			ts = slices.DeleteFunc(ts, func(s string) bool { return s == "CASE-10 first" })
			return replace(ts, "CASE-600 first", "CASE-600 after delete")
		}},
		{"delete many, put one back, append", func(tx *Tx) {
			tx.Cases().DeleteMany([]string{"CASE-2", "CASE-400", "CASE-650"})
			c, _ := tx.Cases().Get("CASE-3")
			tx.Cases().Put(c)
			back := &wire.Case{ID: "CASE-400", Title: "back", Status: "todo", Domain: "work", Kind: "case"}
			tx.Cases().Put(back)
			tx.Cases().Put(&wire.Case{ID: tx.NextID("CASE"), Title: "new", Status: "todo", Domain: "work", Kind: "case"})
		}, func(ts []string) []string {
			ts = slices.DeleteFunc(ts, func(s string) bool { return s == "CASE-2 first" || s == "CASE-650 first" })
			return append(replace(ts, "CASE-400 first", "CASE-400 back"), "CASE-701 new")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := s.Snapshot()
			was := titles(before)
			if _, err := s.Update(ctx, wire.ActorHuman, nil, func(tx *Tx) error { tc.write(tx); return nil }); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(was, titles(before)); diff != "" {
				t.Errorf("the snapshot taken before the write changed (-was +now)\n%s", diff)
			}
			want := tc.model(slices.Clone(was))
			if diff := cmp.Diff(want, titles(s.Snapshot())); diff != "" {
				t.Errorf("after the write (-want +got)\n%s", diff)
			}
		})
	}
	want := titles(s.Snapshot())
	s.Close()
	s = open(t, path)
	defer s.Close()
	if diff := cmp.Diff(want, titles(s.Snapshot())); diff != "" {
		t.Errorf("after a restart (-want +got)\n%s", diff)
	}
}

func replace(ts []string, old, with string) []string {
	ts[slices.Index(ts, old)] = with
	return ts
}
