package cases

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// Each write is measured at n and 10n inputs: a linear write costs the same
// per item at both sizes, a quadratic one ten times more at 10n. Compare the
// ns/item figures of the two sizes.

var sizes = []int{1000, 10000}

// openBoard opens a store holding n done cases under one initiative, each
// with msgs linked messages.
func openBoard(b *testing.B, n, msgs int) (*store.Store, []string) {
	b.Helper()
	s, err := store.Open(store.Config{Path: filepath.Join(b.TempDir(), "board.json"), CompactIdle: time.Hour, CompactMaxDelay: time.Hour, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	ids := make([]string, n)
	_, err = s.Update(context.Background(), wire.ActorHuman, nil, func(tx *store.Tx) error {
		tx.Cases().Put(&wire.Case{ID: tx.NextID("CASE"), Title: "initiative", Kind: wire.KindInitiative, Status: wire.LaneTodo})
		for i := range ids {
			ids[i] = tx.NextID("CASE")
			tx.Cases().Put(&wire.Case{ID: ids[i], Title: ids[i], Kind: wire.KindCase, Status: wire.LaneDone})
			for k := 0; k < msgs; k++ {
				tx.Messages().Put(&wire.Message{ID: tx.NextID("M"), Subject: "s", CaseID: ids[i]})
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return s, ids
}

func perItem(b *testing.B, n int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/item")
}

// BenchmarkPatchManyParent moves every case of the board under an
// initiative and back in one batch: each move checks the hierarchy.
func BenchmarkPatchManyParent(b *testing.B) {
	for _, n := range sizes {
		b.Run(fmt.Sprint("cases=", n), func(b *testing.B) {
			s, ids := openBoard(b, n, 0)
			for i := 0; b.Loop(); i++ {
				p := wire.CasePatch{ParentID: wire.Some("CASE-1")}
				if i%2 == 1 {
					p.ParentID = wire.Null[string]()
				}
				if _, _, err := PatchMany(context.Background(), s, wire.ActorHuman, wire.CaseBatch{IDs: ids, Patch: p}); err != nil {
					b.Fatal(err)
				}
			}
			perItem(b, n)
		})
	}
}

// BenchmarkMergeTasks merges a case with n tasks and n notes into another.
func BenchmarkMergeTasks(b *testing.B) {
	for _, n := range sizes {
		b.Run(fmt.Sprint("tasks=", n), func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				s, _ := openBoard(b, 1, 0)
				src := &wire.Case{Title: "source", Kind: wire.KindCase, Status: wire.LaneTodo}
				for k := 0; k < n; k++ {
					src.Tasks = append(src.Tasks, wire.Task{ID: fmt.Sprintf("x-T%d", k+1), Title: "t"})
					src.Notes = append(src.Notes, wire.Note{ID: fmt.Sprintf("x-N%d", k+1), Text: "n"})
				}
				if _, err := s.Update(context.Background(), wire.ActorHuman, nil, func(tx *store.Tx) error {
					src.ID = tx.NextID("CASE")
					tx.Cases().Put(src)
					return nil
				}); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if _, _, err := Merge(context.Background(), s, wire.ActorHuman, src.ID, "CASE-2"); err != nil {
					b.Fatal(err)
				}
			}
			perItem(b, n)
		})
	}
}

// BenchmarkClean purges n done cases with 5 messages each.
func BenchmarkClean(b *testing.B) {
	for _, n := range sizes {
		b.Run(fmt.Sprint("cases=", n), func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				s, ids := openBoard(b, n, 5)
				b.StartTimer()
				if _, _, err := Clean(context.Background(), s, wire.ActorHuman, ids); err != nil {
					b.Fatal(err)
				}
			}
			perItem(b, n)
		})
	}
}

// BenchmarkPatch is one case patch on a board of n cases, by the person
// (whose change is stamped) and by the agent (whose change is checked
// against the person's), to measure what the person's-word rule costs.
func BenchmarkPatch(b *testing.B) {
	for _, by := range []wire.Actor{wire.ActorHuman, wire.ActorAgent} {
		b.Run(string(by), func(b *testing.B) {
			s, ids := openBoard(b, sizes[0], 0)
			id := ids[len(ids)/2]
			// The person changed another field, so the agent's write is checked.
			if _, _, err := Patch(context.Background(), s, wire.ActorHuman, id, wire.CasePatch{Status: wire.Some(string(wire.LaneTodo))}); err != nil {
				b.Fatal(err)
			}
			for i := 0; b.Loop(); i++ {
				if _, _, err := Patch(context.Background(), s, by, id, wire.CasePatch{Summary: wire.Some(fmt.Sprint("summary ", i))}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
