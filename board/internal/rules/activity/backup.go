package activity

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// BackupRecord is the record a backup run's row is about: the off-site
// backup as a whole, which has no record of its own on the board.
const BackupRecord = "backup"

// BackupSummary is the feed's line for a backup run, with what it pushed:
// the snapshot file, its size and the records it holds by collection; a
// run that failed says how.
func BackupSummary(r wire.BackupRun) string {
	var b strings.Builder
	switch r.Outcome {
	case wire.BackupPushed:
		b.WriteString("backup pushed")
	case wire.BackupLocalOnly:
		b.WriteString("backup written but not pushed")
	case wire.BackupRefused:
		b.WriteString("backup refused")
	default:
		b.WriteString("backup failed")
	}
	if r.File != "" {
		fmt.Fprintf(&b, ": %s, %d bytes", r.File, r.Size)
	}
	if len(r.Counts) > 0 {
		names := make([]string, 0, len(r.Counts))
		for k := range r.Counts {
			names = append(names, k)
		}
		slices.Sort(names) // a map's order would change the line from run to run
		parts := make([]string, 0, len(names))
		for _, k := range names {
			parts = append(parts, fmt.Sprintf("%d %s", r.Counts[k], k))
		}
		b.WriteString("; " + strings.Join(parts, ", "))
	}
	if r.Error != "" {
		b.WriteString("; " + r.Error)
	}
	return b.String()
}

// BackupVerb is the verb of a run's row: a run that pushed its snapshot
// ran; any other outcome is a failure the person should see.
func BackupVerb(r wire.BackupRun) wire.Verb {
	if r.Outcome == wire.BackupPushed {
		return wire.VerbBackupRun
	}
	return wire.VerbBackupFailed
}

// OnBackupTx logs a finished backup run as a board row of the write.
func OnBackupTx(tx *store.Tx, r wire.BackupRun) {
	OnBoard(tx, BackupRecord, BackupVerb(r), BackupSummary(r))
}

// OnBackup logs a finished backup run as one write by the system. A run
// that found another holding the lock did nothing and is not logged.
func OnBackup(ctx context.Context, s *store.Store, r wire.BackupRun) (int64, error) {
	if r.Outcome == wire.BackupLocked {
		return 0, nil
	}
	return s.Update(ctx, wire.ActorSystem, nil, func(tx *store.Tx) error {
		OnBackupTx(tx, r)
		return nil
	})
}
