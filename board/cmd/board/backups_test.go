package main

import (
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opsboard/opsboard/board/internal/testkit"
	"github.com/opsboard/opsboard/shared/wire"
)

// The backup routes against the real daemon, backing up to a local bare
// git repository that stands in for the private remote.

const testPassphrase = "correct horse battery staple"

// bareRepo is a fresh bare repository.
func bareRepo(t *testing.T) string {
	t.Helper()
	repo := filepath.Join(t.TempDir(), "backup.git")
	if out, err := exec.Command("git", "init", "--quiet", "--bare", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init --bare: %v\n%s", err, out)
	}
	return repo
}

// commits lists the subjects of the bare repository's commits.
func commits(t *testing.T, repo string) []string {
	t.Helper()
	out, err := exec.Command("git", "--git-dir", repo, "log", "--all", "--format=%s").Output()
	if err != nil {
		return nil // no commit yet: git log fails on an empty repository
	}
	return strings.Fields(strings.TrimSpace(string(out)))
}

// backupEnv points a board at repo with a passphrase; a disposable repo
// needs the repository check's test allowance.
func backupEnv(repo string) []string {
	return []string{"SVC_BACKUP_REPO=" + repo, "SVC_BACKUP_KEY=" + testPassphrase, "SVC_BACKUP_ALLOW_NONDEFAULT=1", "SVC_SANDBOX="}
}

// liveConfig writes backup.json beside data as `board backup init` does:
// repo as the repository and the expected one, live the live board's store.
func liveConfig(t *testing.T, data, repo, live string) {
	t.Helper()
	raw, err := json.Marshal(map[string]string{"repo": repo, "expectedRepo": repo, "liveData": live})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(data), "backup.json"), raw, 0o600); err != nil {
		t.Fatal(err)
	}
}

func (d *daemon) backups(t *testing.T) wire.BackupStatus {
	t.Helper()
	var st wire.BackupStatus
	if err := json.Unmarshal(d.must(t, http.StatusOK, "GET", "/api/backups", ""), &st); err != nil {
		t.Fatal(err)
	}
	return st
}

// settled polls the status until no run is going.
func (d *daemon) settled(t *testing.T) wire.BackupStatus {
	t.Helper()
	var st wire.BackupStatus
	testkit.Eventually(t, "the backup run ends", func() bool {
		st = d.backups(t)
		return !st.Running
	})
	return st
}

func check(st wire.BackupStatus, id string) (wire.BackupCheck, bool) {
	for _, c := range st.Readiness {
		if c.ID == id {
			return c, true
		}
	}
	return wire.BackupCheck{}, false
}

func TestBackupsOnAnUnconfiguredBoard(t *testing.T) {
	// No repository, and no passphrase: SVC_BACKUP_KEY empty leaves the OS
	// credential store, which a test machine does not have.
	d := start(t, filepath.Join(t.TempDir(), "board.json"), 0, "SVC_BACKUP_REPO=", "SVC_BACKUP_KEY=", "SVC_SANDBOX=")
	st := d.backups(t)
	if st.Verdict != wire.BackupError || len(st.Reasons) == 0 {
		t.Errorf("verdict %q reasons %q, want error with reasons", st.Verdict, st.Reasons)
	}
	if st.LastRun != nil || len(st.Snapshots) != 0 || st.Push.State != "never" || st.Running {
		t.Errorf("an unconfigured board reports a run: %+v", st)
	}
	if st.Version == 0 {
		t.Error("the status carries no store version")
	}
	if st.Auto == nil || st.Auto.On || st.Auto.Reason == "" {
		t.Errorf("auto %+v, want off with a reason", st.Auto)
	}
	for _, id := range []string{"key", "repo"} {
		c, ok := check(st, id)
		if !ok || c.OK || c.Fix == "" {
			t.Errorf("check %s: %+v (present %v), want failing with a fix", id, c, ok)
		}
	}
	if c, _ := check(st, "key"); !strings.Contains(c.Fix, "SVC_BACKUP_KEY") {
		t.Errorf("the key's fix %q does not name SVC_BACKUP_KEY", c.Fix)
	}
	if c, ok := check(st, "git"); !ok || !c.OK {
		t.Errorf("git check %+v, want ok (git is installed)", c)
	}
}

func TestBackupRunRoute(t *testing.T) {
	repo := bareRepo(t)
	d := start(t, filepath.Join(t.TempDir(), "board.json"), 0, backupEnv(repo)...)
	d.must(t, http.StatusCreated, "POST", "/api/cases", `{"title":"Renew the lease"}`)

	var ans wire.BackupRunReply
	if err := json.Unmarshal(d.must(t, http.StatusAccepted, "POST", "/api/backups/run", ""), &ans); err != nil || !ans.Started {
		t.Fatalf("POST run: %+v %v", ans, err)
	}
	st := d.settled(t)
	if st.LastRun == nil || st.LastRun.Outcome != wire.BackupPushed || st.LastRun.Exit != 0 {
		t.Fatalf("last run %+v, want pushed\n%s", st.LastRun, d.stderr)
	}
	if len(st.Snapshots) != 1 || st.Push.State != "pushed" {
		t.Fatalf("after one run: %d snapshots, push %+v", len(st.Snapshots), st.Push)
	}
	first := st.Snapshots[0]
	if first.StoreVersion == 0 || first.Counts["cases"] != 1 || first.Size == 0 || !strings.HasPrefix(first.File, "snapshots/backup-") {
		t.Errorf("snapshot %+v does not describe the board", first)
	}
	if n := len(commits(t, repo)); n == 0 {
		t.Error("nothing reached the repository")
	}

	// Fresh: a second request is skipped, naming the newest snapshot.
	ans = wire.BackupRunReply{}
	if err := json.Unmarshal(d.must(t, http.StatusOK, "POST", "/api/backups/run", `{}`), &ans); err != nil {
		t.Fatal(err)
	}
	if ans.Started || ans.Skipped != "fresh" || ans.Newest != first.Created {
		t.Errorf("second POST: %+v, want skipped fresh with newest %s", ans, first.Created)
	}

	// A run holding the lock (a fresh lock file, as the job makes one).
	lock := filepath.Join(filepath.Dir(d.data), "backup.lock")
	if err := os.WriteFile(lock, []byte("pid 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, raw, err := d.do("POST", "/api/backups/run?force=1", "")
	if err != nil || code != http.StatusConflict || !strings.Contains(string(raw), `"error"`) {
		t.Errorf("POST while locked: %d %s %v, want 409 with an error", code, raw, err)
	}
	if st := d.backups(t); !st.Running {
		t.Error("the status does not say a run holds the lock")
	}
	if err := os.Remove(lock); err != nil {
		t.Fatal(err)
	}

	// Forced: runs although fresh, and adds a snapshot beside the first.
	d.must(t, http.StatusAccepted, "POST", "/api/backups/run?force=1", "")
	st = d.settled(t)
	if len(st.Snapshots) != 2 || st.Snapshots[0].File == st.Snapshots[1].File || (st.Snapshots[0].File != first.File && st.Snapshots[1].File != first.File) {
		t.Errorf("after a forced run: %+v, want a new snapshot beside the old one", st.Snapshots)
	}

	// Bad input changes nothing.
	code, raw, _ = d.do("POST", "/api/backups/run", `[1]`)
	if code != http.StatusBadRequest || !strings.Contains(string(raw), "JSON object") {
		t.Errorf("POST with an array: %d %s", code, raw)
	}
}

func TestBackupRunRefusedInASandbox(t *testing.T) {
	repo := bareRepo(t)
	d := start(t, filepath.Join(t.TempDir(), "board.json"), 0, append(backupEnv(repo), "SVC_SANDBOX=1")...)
	code, raw, err := d.do("POST", "/api/backups/run?force=1", "")
	if err != nil || code != http.StatusForbidden || !strings.Contains(string(raw), "SVC_SANDBOX=1") {
		t.Fatalf("POST in a sandbox: %d %s %v, want 403 naming SVC_SANDBOX=1", code, raw, err)
	}
	st := d.backups(t)
	if st.Auto == nil || st.Auto.On || !strings.Contains(st.Auto.Reason, "sandbox") {
		t.Errorf("auto %+v, want off for the sandbox", st.Auto)
	}
	if st.LastRun != nil || len(commits(t, repo)) != 0 {
		t.Error("a sandbox backed up")
	}
}

// The top-up: the live board (its store is the one backup.json records)
// with no snapshot backs up from a list of cases; a board on another
// path never does.
func TestBackupTopUpFromTheCaseList(t *testing.T) {
	repo := bareRepo(t)
	data := filepath.Join(t.TempDir(), "board.json")
	liveConfig(t, data, repo, data)
	d := start(t, data, 0, "SVC_BACKUP_REPO=", "SVC_BACKUP_KEY="+testPassphrase, "SVC_BACKUP_ALLOW_NONDEFAULT=", "SVC_SANDBOX=")
	d.must(t, http.StatusOK, "GET", "/api/cases", "")
	// Watch the log and the repository, not the status route: its GET
	// fires a top-up of its own.
	testkit.Eventually(t, "the top-up run ends", func() bool {
		return strings.Contains(d.stderr.String(), "msg=backup.run.end trigger=top-up")
	})
	if !strings.Contains(d.stderr.String(), "outcome=pushed") || len(commits(t, repo)) == 0 {
		t.Fatalf("the top-up did not push:\n%s", d.stderr)
	}
	st := d.settled(t)
	if st.Auto == nil || !st.Auto.On || st.Auto.NextDaily == "" {
		t.Errorf("auto %+v, want on with the next daily run", st.Auto)
	}
	if len(st.Snapshots) != 1 || st.Verdict != wire.BackupHealthy {
		t.Errorf("after the top-up: %d snapshots, verdict %s %q", len(st.Snapshots), st.Verdict, st.Reasons)
	}
	// Fresh now: more reads start no other run.
	d.must(t, http.StatusOK, "GET", "/api/cases", "")
	if st := d.settled(t); len(st.Snapshots) != 1 {
		t.Errorf("a read of a fresh board ran again: %d snapshots", len(st.Snapshots))
	}
	if n := strings.Count(d.stderr.String(), "msg=backup.run.start"); n != 1 {
		t.Errorf("%d runs started, want 1", n)
	}
}

func TestBackupTopUpNeverOnAnotherBoard(t *testing.T) {
	repo := bareRepo(t)
	data := filepath.Join(t.TempDir(), "board.json")
	liveConfig(t, data, repo, filepath.Join(t.TempDir(), "the-real-board.json"))
	d := start(t, data, 0, "SVC_BACKUP_REPO=", "SVC_BACKUP_KEY="+testPassphrase, "SVC_BACKUP_ALLOW_NONDEFAULT=", "SVC_SANDBOX=")
	d.must(t, http.StatusOK, "GET", "/api/cases", "")
	// The check ran and said no: that is logged once, with why.
	testkit.Eventually(t, "the top-up check", func() bool {
		return strings.Contains(d.stderr.String(), "msg=backup.auto.off trigger=top-up")
	})
	if !strings.Contains(d.stderr.String(), "is not the live board") {
		t.Errorf("the log does not say why:\n%s", d.stderr)
	}
	st := d.backups(t)
	if st.Auto == nil || st.Auto.On || !strings.Contains(st.Auto.Reason, "not the live board") {
		t.Errorf("auto %+v, want off: not the live board", st.Auto)
	}
	if st.LastRun != nil || st.Running || len(commits(t, repo)) != 0 || strings.Contains(d.stderr.String(), "backup.run.start") {
		t.Errorf("a board that is not the live one backed up:\n%s", d.stderr)
	}
	// Back up now is the person's choice and still works here.
	d.must(t, http.StatusAccepted, "POST", "/api/backups/run", "")
	if st := d.settled(t); st.LastRun == nil || st.LastRun.Outcome != wire.BackupPushed {
		t.Errorf("Back up now on a non-live board: %+v", st.LastRun)
	}
}

// backupRows are the Activity feed's backup rows, newest first.
func (d *daemon) backupRows(t *testing.T) []wire.ActivityEntry {
	t.Helper()
	var feed struct {
		Activity []wire.ActivityEntry `json:"activity"`
	}
	if err := json.Unmarshal(d.must(t, http.StatusOK, "GET", "/api/activity?category=backup", ""), &feed); err != nil {
		t.Fatal(err)
	}
	return feed.Activity
}

// TestBackupRunsAreActivityRows: each run the board makes is a system row
// of the Activity feed with what it pushed, and a failed run is one too.
func TestBackupRunsAreActivityRows(t *testing.T) {
	repo := bareRepo(t)
	d := start(t, filepath.Join(t.TempDir(), "board.json"), 0, backupEnv(repo)...)
	d.must(t, http.StatusCreated, "POST", "/api/cases", `{"title":"Renew the lease"}`)
	d.must(t, http.StatusAccepted, "POST", "/api/backups/run", "")
	st := d.settled(t)
	if st.LastRun == nil || st.LastRun.Outcome != wire.BackupPushed {
		t.Fatalf("last run %+v, want pushed\n%s", st.LastRun, d.stderr)
	}
	rows := d.backupRows(t)
	if len(rows) != 1 {
		t.Fatalf("%d backup rows after one run, want 1: %+v", len(rows), rows)
	}
	r := rows[0]
	if r.Verb != wire.VerbBackupRun || r.Actor != wire.ActorSystem || r.Category != wire.CategoryBackup {
		t.Errorf("row %+v, want a system backup_run row", r)
	}
	for _, want := range []string{"backup pushed", st.LastRun.File, "1 cases", " bytes"} {
		if !strings.Contains(r.Detail, want) {
			t.Errorf("row detail %q lacks %q", r.Detail, want)
		}
	}

	// The repository goes away: the next run fails, and says so.
	if err := os.RemoveAll(repo); err != nil {
		t.Fatal(err)
	}
	d.must(t, http.StatusAccepted, "POST", "/api/backups/run?force=1", "")
	st = d.settled(t)
	if st.LastRun == nil || st.LastRun.Outcome == wire.BackupPushed {
		t.Fatalf("last run %+v, want a failure", st.LastRun)
	}
	testkit.Eventually(t, "the failed run's row", func() bool { return len(d.backupRows(t)) == 2 })
	failed := d.backupRows(t)[0]
	if failed.Verb != wire.VerbBackupFailed || failed.Detail == "" || !strings.Contains(failed.Detail, st.LastRun.Error) {
		t.Errorf("row %+v, want backup_failed naming the error %q", failed, st.LastRun.Error)
	}
}
