package web

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// startBackupBoard is startBoard with backup settings read from env.
func startBackupBoard(t *testing.T, env map[string]string) *board {
	t.Helper()
	b := &board{t: t, Path: filepath.Join(t.TempDir(), "board.json"), addr: "127.0.0.1:0", backupEnv: env}
	b.start()
	t.Cleanup(b.stop)
	return b
}

func bareRepo(t *testing.T) string {
	t.Helper()
	repo := filepath.Join(t.TempDir(), "backup.git")
	if out, err := exec.Command("git", "init", "--quiet", "--bare", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init --bare: %v\n%s", err, out)
	}
	return repo
}

// TestBackupsPage: a board backing up to a local bare repository with a
// passphrase in SVC_BACKUP_KEY backs up from Back up now, and the history
// shows the snapshot; a second press is skipped as fresh, and Back up
// anyway runs again.
func TestBackupsPage(t *testing.T) {
	repo := bareRepo(t)
	b := startBackupBoard(t, map[string]string{"SVC_BACKUP_REPO": repo, "SVC_BACKUP_KEY": "correct horse battery staple", "SVC_BACKUP_ALLOW_NONDEFAULT": "1"})
	b.call("POST", "/api/cases", map[string]any{"title": "Renew the lease"}, false)
	tb := newTab(t, 1280, 1000)
	tb.open(b.URL + "/board")
	tb.click(`a.nav-item[href="/backups"]`)
	tb.settle()
	tb.waitFor("the checklist", `!!document.querySelector('[data-check="key"].ok') && !!document.querySelector('[data-check="git"].ok') && !!document.querySelector('[data-check="repo"].ok')`)
	tb.waitFor("no snapshot yet", `!document.querySelector('[data-snapshot]') && document.querySelector('[data-push]')?.dataset.push === 'never'`)
	var repoText string
	tb.eval(`document.querySelector('[data-repo-match]').textContent`, &repoText)
	if !strings.Contains(repoText, repo) || !strings.Contains(repoText, "SVC_BACKUP_REPO") {
		t.Errorf("the repository section %q does not say where backups go and what set it", repoText)
	}
	if bad := tb.unlabeled(); len(bad) > 0 {
		t.Errorf("controls without a name:\n  %s", strings.Join(bad, "\n  "))
	}

	tb.click(`.backup-run .btn-primary`)
	tb.waitFor("the started answer", `['started', 'done'].includes(document.querySelector('[data-run-answer]')?.dataset.runAnswer)`)
	tb.waitFor("the snapshot in the history", `document.querySelectorAll('[data-snapshot]').length === 1 && !document.querySelector('[data-running]')`)
	tb.waitFor("the finished answer", `document.querySelector('[data-run-answer]')?.dataset.runAnswer === 'done' && document.querySelector('[data-run-answer]').textContent.includes('written and pushed')`)
	tb.waitFor("the last run pushed", `!!document.querySelector('[data-last-run="pushed"]') && document.querySelector('[data-push]')?.dataset.push === 'pushed' && !!document.querySelector('[data-check="reachable"].ok')`)
	var row string
	tb.eval(`document.querySelector('[data-snapshot]').textContent`, &row)
	if !strings.Contains(row, "1 cases") || !strings.Contains(row, "B") {
		t.Errorf("the history row %q lacks the counts or the size", row)
	}
	var logText string
	tb.eval(`(document.querySelector('.backup-log') || {}).textContent || ''`, &logText)
	if logText == "" {
		t.Error("no log tail after a run")
	}
	if strings.Contains(logText, "correct horse") {
		t.Error("the log shows the passphrase")
	}
	tb.shot("backups")

	// Fresh: skipped, with Back up anyway.
	tb.click(`.backup-run .btn-primary`)
	tb.waitFor("the fresh answer", `document.querySelector('[data-run-answer]')?.dataset.runAnswer === 'fresh' && document.querySelector('[data-run-answer]')?.textContent.includes('under 12 hours')`)
	tb.click(`.backup-run .btn-sm`)
	tb.waitFor("the forced run's snapshot", `document.querySelectorAll('[data-snapshot]').length === 2 && !document.querySelector('[data-running]')`)
	tb.noProblems("backups page")
}

// TestBackupsPageWithoutAKey: with no passphrase anywhere the checklist
// shows the key missing and what to do.
func TestBackupsPageWithoutAKey(t *testing.T) {
	b := startBackupBoard(t, map[string]string{"SVC_BACKUP_REPO": bareRepo(t), "SVC_BACKUP_ALLOW_NONDEFAULT": "1"})
	tb := newTab(t, 1280, 900)
	tb.open(b.URL + "/backups")
	tb.waitFor("the key missing", `!!document.querySelector('[data-check="key"].missing')`)
	var fix string
	tb.eval(`document.querySelector('[data-check="key"] [data-fix]').textContent`, &fix)
	if !strings.Contains(fix, "SVC_BACKUP_KEY") || !strings.Contains(fix, "board backup init") {
		t.Errorf("the key's fix %q does not say what to do", fix)
	}
	tb.waitFor("the error verdict", `document.querySelector('[data-verdict]')?.dataset.verdict === 'error' && document.querySelector('[data-verdict]').textContent.includes('passphrase')`)
	tb.waitFor("automatic backups off", `document.querySelector('[data-auto]')?.dataset.auto === 'off'`)
	tb.shot("backups-no-key")
	tb.noProblems("backups page, no key")

	// At phone width the page fits the screen.
	phone := newTab(t, 390, 844)
	phone.open(b.URL + "/backups")
	phone.waitFor("the checklist", `!!document.querySelector('[data-check="key"]')`)
	var overflow bool
	phone.eval(`document.documentElement.scrollWidth > window.innerWidth`, &overflow)
	if overflow {
		t.Error("the page is wider than a phone's screen")
	}
	phone.shot("phone-backups")
	phone.noProblems("backups page, phone")
}
