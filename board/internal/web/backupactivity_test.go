package web

import (
	"strings"
	"testing"
)

// TestBackupRunInActivity: a backup to a local bare repository, started
// from Back up now, shows in the Activity feed as the system's row with
// what it pushed, live.
func TestBackupRunInActivity(t *testing.T) {
	repo := bareRepo(t)
	b := startBackupBoard(t, map[string]string{"SVC_BACKUP_REPO": repo, "SVC_BACKUP_KEY": "correct horse battery staple", "SVC_BACKUP_ALLOW_NONDEFAULT": "1"})
	b.call("POST", "/api/cases", map[string]any{"title": "Renew the lease"}, false)
	tb := newTab(t, 1280, 900)
	tb.open(b.URL + "/activity")
	tb.waitFor("the case's row", `document.querySelectorAll('.feed-row').length === 1`)
	b.call("POST", "/api/backups/run", nil, false)
	tb.waitFor("the backup's row", `[...document.querySelectorAll('.feed-row')].some((r) => r.textContent.includes('backed up the board'))`)
	var row string
	tb.eval(`[...document.querySelectorAll('.feed-row')].find((r) => r.textContent.includes('backed up the board')).textContent`, &row)
	for _, want := range []string{"System", "backup pushed", "snapshots/", "bytes", "1 cases"} {
		if !strings.Contains(row, want) {
			t.Errorf("the backup's row %q lacks %q", row, want)
		}
	}
	tb.noProblems("backup activity")
}
