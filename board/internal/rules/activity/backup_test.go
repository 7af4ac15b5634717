package activity

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

func TestBackupRows(t *testing.T) {
	for _, tc := range []struct {
		name     string
		run      wire.BackupRun
		verb     wire.Verb
		category string
		detail   string
	}{
		{"a pushed run names the file, its size and the records by collection",
			wire.BackupRun{Outcome: wire.BackupPushed, File: "snapshots/2026-11-26.obk", Size: 2048, Counts: map[string]int{"messages": 7, "cases": 3}},
			wire.VerbBackupRun, wire.CategoryBackup, "backup pushed: snapshots/2026-11-26.obk, 2048 bytes; 3 cases, 7 messages"},
		{"a failed run says why",
			wire.BackupRun{Outcome: wire.BackupFailed, Error: "no backup repository is configured"},
			wire.VerbBackupFailed, wire.CategoryBackup, "backup failed; no backup repository is configured"},
		{"a run whose push failed is a failure too",
			wire.BackupRun{Outcome: wire.BackupLocalOnly, File: "s.obk", Size: 10, Counts: map[string]int{"cases": 1}, Error: "push: connection refused"},
			wire.VerbBackupFailed, wire.CategoryBackup, "backup written but not pushed: s.obk, 10 bytes; 1 cases; push: connection refused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := &wire.Doc{}
			tx := store.Scratch(d, time.Date(2026, 11, 26, 3, 30, 0, 0, time.UTC), wire.ActorSystem)
			OnBackupTx(tx, tc.run)
			feed := Feed(tx.Doc(), Query{})
			if len(feed) != 1 {
				t.Fatalf("feed has %d rows, want 1", len(feed))
			}
			got := feed[0]
			want := wire.ActivityEntry{Activity: wire.Activity{Actor: wire.ActorSystem, Verb: tc.verb, TS: got.TS, Detail: tc.detail}, Category: tc.category}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			if got.TS == "" {
				t.Error("the row has no time")
			}
		})
	}
}
