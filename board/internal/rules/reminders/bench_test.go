package reminders

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

// The checklist writes are measured at n and 10n tasks (10n is the cap on a
// checklist, wire.MaxReminderTasks): a linear write
// costs the same per task at both sizes, a quadratic one (minting each id by
// rescanning the list, as it once did) ten times more at 10n.
func BenchmarkReminderChecklist(b *testing.B) {
	for _, n := range []int{wire.MaxReminderTasks / 10, wire.MaxReminderTasks} {
		rows := make([]wire.ReminderTaskInput, n)
		for i := range rows {
			rows[i].Title = "a"
		}
		b.Run(fmt.Sprint("create/tasks=", n), func(b *testing.B) {
			s := openStore(b)
			for b.Loop() {
				if _, _, _, err := Create(context.Background(), s, wire.ActorHuman, wire.ReminderCreate{Title: "many", Tasks: rows}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/task")
		})
		b.Run(fmt.Sprint("patch/tasks=", n), func(b *testing.B) {
			s := openStore(b)
			r, _, _, err := Create(context.Background(), s, wire.ActorHuman, wire.ReminderCreate{Title: "many", Tasks: rows})
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, _, _, err := Patch(context.Background(), s, wire.ActorHuman, r.ID, wire.ReminderPatch{Tasks: wire.Some(rows)}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/task")
		})
	}
}

func openStore(b *testing.B) *store.Store {
	b.Helper()
	s, err := store.Open(store.Config{Path: filepath.Join(b.TempDir(), "board.json"), CompactIdle: time.Hour, CompactMaxDelay: time.Hour, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}
