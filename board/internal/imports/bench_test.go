package imports_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/opsboard/opsboard/board/internal/imports"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// plan is an import of one initiative holding n cases of five tasks and a
// label each, as a large Trello board brings them.
func plan(n int) imports.Plan {
	p := imports.Plan{Labels: []imports.Label{{Key: "bug", Title: "Bug"}}}
	p.Nodes = append(p.Nodes, imports.Node{Row: "board", SourceID: "x:b", Kind: wire.KindInitiative, Title: "Board"})
	for i := range n {
		node := imports.Node{Row: fmt.Sprint("card ", i), SourceID: fmt.Sprint("x:c", i), ParentSourceID: "x:b", Kind: wire.KindCase,
			Title: fmt.Sprint("Card ", i), Labels: []string{"bug"}, DueAt: "2026-12-01"}
		for k := range 5 {
			node.Tasks = append(node.Tasks, imports.Task{SourceID: fmt.Sprint("x:t", i, "-", k), Title: fmt.Sprint("Step ", k)})
		}
		p.Nodes = append(p.Nodes, node)
	}
	return p
}

// BenchmarkImport measures an import's write on a real store, as a dry run
// (the whole write but its journal line and fsync): a plan onto an empty
// board, and the same plan again onto the board it made (every node
// skipped).
func BenchmarkImport(b *testing.B) {
	ctx := context.Background()
	for _, n := range []int{100, 1000, 5000} {
		p := plan(n)
		s, err := store.Open(store.Config{Path: filepath.Join(b.TempDir(), "board.json"), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprint(n, "/new"), func(b *testing.B) {
			for b.Loop() {
				if _, _, err := imports.Run(ctx, s, wire.ActorHuman, p, true); err != nil {
					b.Fatal(err)
				}
			}
		})
		if _, _, err := imports.Run(ctx, s, wire.ActorHuman, p, false); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprint(n, "/again"), func(b *testing.B) {
			for b.Loop() {
				c, _, err := imports.Run(ctx, s, wire.ActorHuman, p, true)
				if err != nil || c.Skipped != n+1 {
					b.Fatal(err, c)
				}
			}
		})
		s.Close()
	}
}
