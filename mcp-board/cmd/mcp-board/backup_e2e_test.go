package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/opsboard/opsboard/shared/client/clienttest"
)

// backupsFamily drives backup_status and run_backup against the world's
// board, which backs up to a local bare repository: a run from nothing, a
// second one skipped as fresh, refused while another run holds the lock,
// and forced.
func backupsFamily(t *testing.T, w *world) {
	w.ok(t, "backup_status", nil, "Backups: ", "Last run: none yet", "Push: never", "Snapshots: 0")
	w.ok(t, "run_backup", nil, "Backup started")
	out := settled(t, w)
	for _, want := range []string{"pushed (exit 0)", "Push: pushed", "Snapshots: 1", "snapshots/backup-", "cases"} {
		if !strings.Contains(out, want) {
			t.Errorf("backup_status after a run lacks %q:\n%s", want, out)
		}
	}
	w.ok(t, "run_backup", nil, "Skipped", "under 12 hours old", "force=true")

	// Another run (the command line's) holds the lock.
	lock := filepath.Join(filepath.Dir(w.board.Data), "backup.lock")
	if err := os.WriteFile(lock, []byte("pid 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	w.s.Refused(t, "run_backup", map[string]any{"force": true}, "already running")
	if err := os.Remove(lock); err != nil {
		t.Fatal(err)
	}

	w.ok(t, "run_backup", map[string]any{"force": true}, "Backup started")
	if out := settled(t, w); !strings.Contains(out, "Snapshots: 2") {
		t.Errorf("a forced run did not add a snapshot:\n%s", out)
	}
}

// settled polls backup_status until no run is going and returns it.
func settled(t *testing.T, w *world) string {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		out := w.ok(t, "backup_status", nil)
		if !strings.Contains(out, "a run is going now") {
			return out
		}
		if time.Now().After(deadline) {
			t.Fatalf("the backup run did not end:\n%s\nboard logs:\n%s", out, w.board.Logs())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestRunBackupInASandbox: a sandbox board refuses run_backup in words,
// and backup_status still answers.
func TestRunBackupInASandbox(t *testing.T) {
	board := clienttest.StartBoardEnv(t, append(clienttest.BackupEnv(t), "SVC_SANDBOX=1")...)
	bin := clienttest.Build(t, ".", ".")
	s := clienttest.StartSessionWith(t, bin, []string{"CRM_BASE_URL=" + board.URL}, server, "--toolsets", "admin")
	s.Refused(t, "run_backup", map[string]any{"force": true}, "sandbox")
	s.OK(t, "backup_status", nil, "Backups: ", "Automatic: off", "SVC_SANDBOX=1", "Snapshots: 0")
}
