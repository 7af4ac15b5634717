package render

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/shared/wire"
)

func TestBackupStatus(t *testing.T) {
	snap := func(i int) wire.BackupSnapshot {
		return wire.BackupSnapshot{File: fmt.Sprintf("snapshots/backup-2026030%dT033000Z.enc", i), Size: 2048, StoreVersion: int64(40 + i),
			Counts: map[string]int{"messages": 10, "cases": 3}, Created: fmt.Sprintf("2026-03-0%dT03:30:00Z", i)}
	}
	for _, tc := range []struct {
		name string
		st   wire.BackupStatus
		want string
	}{
		{"nothing configured", wire.BackupStatus{
			Verdict: wire.BackupError, Reasons: []string{"Recovery passphrase present: none"},
			Push: wire.BackupPush{State: "never"}, Auto: &wire.BackupAuto{Reason: "no backup repository is configured"},
			Readiness: []wire.BackupCheck{{ID: "key", Label: "Recovery passphrase present", Fix: "Set SVC_BACKUP_KEY."}, {ID: "git", Label: "git installed", OK: true}},
		}, `Backups: error
- Recovery passphrase present: none
Automatic: off (no backup repository is configured)
Last run: none yet
Push: never
Snapshots: 0
Not ready: Recovery passphrase present - fix: Set SVC_BACKUP_KEY.`},
		{"running, pushed, the newest five of seven", wire.BackupStatus{
			Verdict: wire.BackupHealthy, Running: true, Auto: &wire.BackupAuto{On: true, NextDaily: "2026-03-09T03:30:00+01:00"},
			LastRun:   &wire.BackupRun{StartedAt: "2026-03-07T03:30:00Z", Exit: 0, Outcome: wire.BackupPushed, File: snap(7).File, Size: 3 << 20, StoreVersion: 47},
			Push:      wire.BackupPush{State: "pushed", At: "2026-03-07T03:30:02Z"},
			Snapshots: []wire.BackupSnapshot{snap(7), snap(6), snap(5), snap(4), snap(3), snap(2), snap(1)},
			Repo:      wire.BackupRepo{Effective: "git@example.com:me/backup.git", Source: "backup.json", Expected: "git@example.com:me/backup.git", Match: true},
		}, `Backups: healthy (a run is going now)
Automatic: on, next daily run 2026-03-09T03:30:00+01:00
Last run: 2026-03-07T03:30:00Z pushed (exit 0) snapshots/backup-20260307T033000Z.enc 3.0 MB, store v47
Push: pushed 2026-03-07T03:30:02Z
Snapshots: 7 (newest 5)
- 2026-03-07T03:30:00Z snapshots/backup-20260307T033000Z.enc 2.0 KB v47 (3 cases, 10 messages)
- 2026-03-06T03:30:00Z snapshots/backup-20260306T033000Z.enc 2.0 KB v46 (3 cases, 10 messages)
- 2026-03-05T03:30:00Z snapshots/backup-20260305T033000Z.enc 2.0 KB v45 (3 cases, 10 messages)
- 2026-03-04T03:30:00Z snapshots/backup-20260304T033000Z.enc 2.0 KB v44 (3 cases, 10 messages)
- 2026-03-03T03:30:00Z snapshots/backup-20260303T033000Z.enc 2.0 KB v43 (3 cases, 10 messages)
Repository: git@example.com:me/backup.git (from backup.json)`},
		{"push failed, repository check refused", wire.BackupStatus{
			Verdict: wire.BackupWarning, Reasons: []string{"the last push failed"},
			LastRun: &wire.BackupRun{StartedAt: "2026-03-07T03:30:00Z", Exit: 2, Outcome: wire.BackupLocalOnly, File: snap(7).File, Size: 100, StoreVersion: 47,
				Error: "git push: could not read from remote\nrepository", Warnings: []string{"SVC_VAULT_DIR /v is missing"}},
			Push: wire.BackupPush{State: "failed", At: "2026-03-07T03:30:02Z", Error: "could not read from remote"},
			Repo: wire.BackupRepo{Effective: "/tmp/x.git", Source: "SVC_BACKUP_REPO", Expected: "git@example.com:me/backup.git"},
		}, `Backups: warning
- the last push failed
Last run: 2026-03-07T03:30:00Z local-only (exit 2) snapshots/backup-20260307T033000Z.enc 100 B, store v47: git push: could not read from remote repository
Warning: SVC_VAULT_DIR /v is missing
Push: failed 2026-03-07T03:30:02Z: could not read from remote
Snapshots: 0
Repository: /tmp/x.git (from SVC_BACKUP_REPO), not the expected "git@example.com:me/backup.git"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, BackupStatus(tc.st)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}
