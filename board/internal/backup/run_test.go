package backup

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/shared/wire"
)

func TestRunPushesASealedSnapshotAndItsManifest(t *testing.T) {
	f := newFixture(t, nil)
	r, out := f.run()
	if r.Exit != ExitPushed || r.Outcome != wire.BackupPushed {
		t.Fatalf("%s\n%s", fmtRun(r), out)
	}
	if !strings.HasPrefix(r.File, "snapshots/backup-20261126T033000Z") || !strings.HasSuffix(r.File, ".enc") {
		t.Errorf("file %q", r.File)
	}
	if r.StoreVersion == 0 || r.Counts["cases"] != 2 || r.Counts["messages"] != 2 {
		t.Errorf("store facts: version %d counts %v", r.StoreVersion, r.Counts)
	}
	if diff := cmp.Diff([]string{ManifestName, r.File}, f.remoteFiles()); diff != "" {
		t.Errorf("remote files (-want +got)\n%s", diff)
	}
	data, err := os.ReadFile(filepath.Join(f.s.Clone, r.File))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "first case") {
		t.Error("the snapshot holds plaintext")
	}
	m, err := readManifest(f.s.Clone)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	want := []wire.BackupSnapshot{{File: r.File, SHA256: hex.EncodeToString(sum[:]), Size: int64(len(data)), StoreVersion: r.StoreVersion,
		Counts: r.Counts, Created: "2026-11-26T03:30:00Z"}}
	if diff := cmp.Diff(want, m.Snapshots); diff != "" {
		t.Errorf("manifest (-want +got)\n%s", diff)
	}
	if !strings.Contains(out, "no vault configured") || strings.Count(out, "no vault configured") != 1 {
		t.Errorf("the output should say once that no vault is configured:\n%s", out)
	}

	st := Status(f.s)
	if st.Verdict != wire.BackupHealthy {
		t.Errorf("verdict %s: %v", st.Verdict, st.Reasons)
	}
	if st.LastRun == nil || st.LastRun.File != r.File || st.Push.State != "pushed" || len(st.Snapshots) != 1 || len(st.Log) == 0 || st.Running {
		t.Errorf("status: %+v", st)
	}
	for _, c := range st.Readiness {
		if !c.OK {
			t.Errorf("readiness %s: %s", c.ID, c.Detail)
		}
	}
	js, _ := json.Marshal(st)
	noPassphraseIn(t, f.data, out, string(js))
}

func TestRunAgainKeepsEverySnapshot(t *testing.T) {
	f := newFixture(t, nil)
	first := f.mustRun()
	before, err := os.ReadFile(filepath.Join(f.s.Clone, first.File))
	if err != nil {
		t.Fatal(err)
	}
	addCases(t, f.s.StorePath, "third case")
	second := f.mustRun()
	f.now = f.now.Add(-time.Hour) // the same second as the second run
	third := f.mustRun()
	names := map[string]bool{first.File: true, second.File: true, third.File: true}
	if len(names) != 3 {
		t.Fatalf("snapshot names repeat: %s %s %s", first.File, second.File, third.File)
	}
	after, _ := os.ReadFile(filepath.Join(f.s.Clone, first.File))
	if string(before) != string(after) {
		t.Error("the first snapshot was overwritten")
	}
	if got := len(f.remoteFiles()); got != 4 {
		t.Errorf("remote holds %d files, want the manifest and 3 snapshots: %v", got, f.remoteFiles())
	}
	if second.Counts["cases"] != 3 {
		t.Errorf("second run counts %v", second.Counts)
	}
	st := Status(f.s)
	if len(st.Snapshots) != 3 || st.Snapshots[0].Created < st.Snapshots[2].Created {
		t.Errorf("history is not newest first: %+v", st.Snapshots)
	}
}

func TestPushFailureCommitsLocallyAndExits2(t *testing.T) {
	f := newFixture(t, nil)
	hook := filepath.Join(f.bare, "hooks", "pre-receive")
	writeFile(t, hook, "#!/bin/sh\necho refused by test >&2\nexit 1\n")
	if err := os.Chmod(hook, 0o755); err != nil {
		t.Fatal(err)
	}
	r, out := f.run()
	if r.Exit != ExitLocalOnly || r.Outcome != wire.BackupLocalOnly {
		t.Fatalf("%s\n%s", fmtRun(r), out)
	}
	if len(f.remoteFiles()) != 0 {
		t.Errorf("the remote received %v", f.remoteFiles())
	}
	if log := gitIn(t, f.s.Clone, "log", "--name-only", "--format=%s"); !strings.Contains(log, r.File) {
		t.Errorf("the snapshot is not committed locally:\n%s", log)
	}
	st := Status(f.s)
	if st.Verdict != wire.BackupWarning || st.Push.State != "failed" || !strings.Contains(st.Push.Error, "refused by test") {
		t.Errorf("status after a failed push: %s %v %+v", st.Verdict, st.Reasons, st.Push)
	}
	for _, c := range st.Readiness {
		if c.ID == "reachable" && (c.OK || c.Fix == "") {
			t.Errorf("reachable check: %+v", c)
		}
	}

	// The next run pushes both snapshots.
	os.Remove(hook)
	f.now = f.now.Add(time.Hour)
	second := f.mustRun()
	got := f.remoteFiles()
	if diff := cmp.Diff([]string{ManifestName, r.File, second.File}, got); diff != "" {
		t.Errorf("remote after the next push (-want +got)\n%s", diff)
	}
	if st := Status(f.s); st.Verdict != wire.BackupHealthy {
		t.Errorf("verdict %s %v", st.Verdict, st.Reasons)
	}
}

func TestUnreachableRepositoryOnTheFirstRunExits2(t *testing.T) {
	f := newFixture(t, map[string]string{"SVC_BACKUP_ALLOW_NONDEFAULT": "1", "SVC_BACKUP_REPO": filepath.Join(t.TempDir(), "missing.git")})
	r, out := f.run()
	if r.Exit != ExitLocalOnly {
		t.Fatalf("%s\n%s", fmtRun(r), out)
	}
	if _, err := os.Stat(filepath.Join(f.s.Clone, r.File)); err != nil {
		t.Errorf("the snapshot is not in the local copy: %v", err)
	}
}

func TestLockHeldExits3AndDoesNothing(t *testing.T) {
	f := newFixture(t, nil)
	writeFile(t, f.s.lockPath(), "pid 1\n")
	before := tree(t, f.data)
	if !LockHeld(f.s) {
		t.Error("LockHeld is false with a fresh lock")
	}
	r, out := f.run()
	if r.Exit != ExitLocked || r.Outcome != wire.BackupLocked {
		t.Fatalf("%s\n%s", fmtRun(r), out)
	}
	if diff := cmp.Diff(before, tree(t, f.data)); diff != "" {
		t.Errorf("a locked run changed files (-before +after)\n%s", diff)
	}
	if len(f.remoteFiles()) != 0 {
		t.Error("a locked run pushed")
	}
	if !Status(f.s).Running {
		t.Error("status does not say a run is going")
	}

	// A lock older than 120 s is left by a run that died: reclaimed.
	old := time.Now().Add(-StaleAfter - time.Second)
	if err := os.Chtimes(f.s.lockPath(), old, old); err != nil {
		t.Fatal(err)
	}
	if LockHeld(f.s) {
		t.Error("LockHeld is true with a stale lock")
	}
	f.mustRun()
	if _, err := os.Stat(f.s.lockPath()); !os.IsNotExist(err) {
		t.Errorf("the lock is left behind: %v", err)
	}
}

func TestConcurrentRunsOneWins(t *testing.T) {
	f := newFixture(t, nil)
	results := make(chan wire.BackupRun, 2)
	for range 2 {
		go func() {
			results <- Run(context.Background(), f.s, FileSource(f.s.StorePath), nil)
		}()
	}
	a, b := <-results, <-results
	exits := map[int]int{a.Exit: 1}
	exits[b.Exit]++
	if exits[ExitPushed] < 1 || exits[ExitPushed]+exits[ExitLocked] != 2 {
		t.Errorf("two runs at once: %s and %s", fmtRun(a), fmtRun(b))
	}
}

func TestRepoGuard(t *testing.T) {
	other := filepath.Join(t.TempDir(), "other.git")
	gitIn(t, "", "init", "--bare", "--quiet", "-b", "main", other)
	f := newFixture(t, map[string]string{"SVC_BACKUP_REPO": other})
	if f.s.Repo.Source != FromEnv || f.s.Repo.Match {
		t.Fatalf("repo %+v", f.s.Repo)
	}
	r, out := f.run()
	if r.Exit != ExitRefused || r.Outcome != wire.BackupRefused || !strings.Contains(r.Error, other) {
		t.Fatalf("%s\n%s", fmtRun(r), out)
	}
	if _, err := os.Stat(f.s.Clone); !os.IsNotExist(err) {
		t.Error("a refused run made a local copy")
	}
	st := Status(f.s)
	if st.Verdict != wire.BackupError || st.LastRun.Exit != ExitRefused {
		t.Errorf("status after a refusal: %s %v", st.Verdict, st.Reasons)
	}
	if ok, why := f.s.Live(); ok || !strings.Contains(why, "repository check") {
		t.Errorf("live check: %v %s", ok, why)
	}

	// Disposable tests may point elsewhere on purpose.
	f.s.AllowNonDefault = true
	r, out = f.run()
	if r.Exit != ExitPushed {
		t.Fatalf("with SVC_BACKUP_ALLOW_NONDEFAULT: %s\n%s", fmtRun(r), out)
	}
	if !strings.Contains(gitIn(t, other, "ls-tree", "-r", "--name-only", "main"), r.File) {
		t.Error("the allowed run did not push to the other repository")
	}
}

func TestSettingsFromTheEnvironmentAndBackupJSON(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "board.json")
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	s, err := SettingsFrom(getenv, path)
	if err != nil {
		t.Fatal(err)
	}
	if s.Repo.Effective != DefaultRepo || s.Repo.Source != FromDefault || s.Repo.Match || s.VaultDir != "" {
		t.Errorf("no config: %+v", s.Repo)
	}
	if _, ok := s.Key.(keyringKey); !ok {
		t.Errorf("without SVC_BACKUP_KEY the key comes from the credential store, got %T", s.Key)
	}
	if ok, _ := s.Live(); ok {
		t.Error("a board without a repository is live")
	}
	for _, bad := range []string{"", "  ", "--upload-pack=touch /tmp/x"} {
		if err := Init(s, bad); err == nil {
			t.Errorf("Init accepted the repository %q", bad)
		}
	}
	if err := Init(s, "git@example.com:me/backup.git"); err != nil {
		t.Fatal(err)
	}
	env["SVC_BACKUP_KEY"], env["SVC_VAULT_DIR"], env["SVC_GUARD_DATA"] = "k", "/vault", "/guard"
	s, _ = SettingsFrom(getenv, path)
	want := wire.BackupRepo{Effective: "git@example.com:me/backup.git", Source: FromConfig, Expected: "git@example.com:me/backup.git", Match: true, Clone: filepath.Join(dir, CloneName)}
	if diff := cmp.Diff(want, s.Repo); diff != "" {
		t.Errorf("repo (-want +got)\n%s", diff)
	}
	if s.LiveData != path || s.VaultDir != "/vault" || s.GuardDir != "/guard" || s.Key != EnvKey("k") {
		t.Errorf("settings %+v", s)
	}
	if ok, why := s.Live(); !ok {
		t.Errorf("the initialized board is not live: %s", why)
	}
	env["SVC_SANDBOX"] = "1"
	s, _ = SettingsFrom(getenv, path)
	if ok, _ := s.Live(); ok {
		t.Error("a sandbox is live")
	}
	delete(env, "SVC_SANDBOX")
	other, _ := SettingsFrom(getenv, filepath.Join(t.TempDir(), "board.json"))
	if ok, _ := other.Live(); ok {
		t.Error("a board on another data path is live")
	}
	writeFile(t, filepath.Join(dir, ConfigName), "{not json")
	s, _ = SettingsFrom(getenv, path)
	if s.ConfigError == "" {
		t.Fatal("a broken backup.json is not reported")
	}
	if r := Run(context.Background(), s, FileSource(path), nil); r.Exit != ExitFailed || !strings.Contains(r.Error, ConfigName) {
		t.Errorf("run with a broken backup.json: %s", fmtRun(r))
	}
	if st := Status(s); st.Verdict != wire.BackupError {
		t.Errorf("status with a broken backup.json: %s", st.Verdict)
	}
}

func TestVaultInScopeAndMissingVaultIsLoud(t *testing.T) {
	vault := filepath.Join(t.TempDir(), "notes")
	f := newFixture(t, map[string]string{"SVC_VAULT_DIR": vault})
	r, out := f.run()
	if r.Exit != ExitPushed || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], vault) || !strings.Contains(out, "VAULT MISSING") {
		t.Fatalf("missing vault: %s %v\n%s", fmtRun(r), r.Warnings, out)
	}
	st := Status(f.s)
	if st.Verdict != wire.BackupWarning || !strings.Contains(strings.Join(st.Reasons, "\n"), vault) {
		t.Errorf("status with a missing vault: %s %v", st.Verdict, st.Reasons)
	}
	writeFile(t, filepath.Join(vault, "daily", "2026-11-26.md"), "# today\n")
	f.now = f.now.Add(time.Hour)
	r, out = f.run()
	if r.Exit != ExitPushed || len(r.Warnings) != 0 || !strings.Contains(out, "vault "+vault+": 1 files") {
		t.Fatalf("with the vault: %s %v\n%s", fmtRun(r), r.Warnings, out)
	}
}

func TestStatusBeforeAnyRunAndWithoutAKey(t *testing.T) {
	f := newFixture(t, nil)
	st := Status(f.s)
	if st.Verdict != wire.BackupWarning || st.LastRun != nil || st.Push.State != "never" || len(st.Snapshots) != 0 {
		t.Errorf("fresh status: %+v", st)
	}
	f.s.Key = EnvKey("")
	st = Status(f.s)
	if st.Verdict != wire.BackupError || st.Readiness[0].OK || st.Readiness[0].Fix == "" {
		t.Errorf("status without a key: %s %+v", st.Verdict, st.Readiness[0])
	}
	f.s.Git = "git-not-installed-here"
	if r, _ := f.run(); r.Exit != ExitFailed {
		t.Errorf("run without a key: %s", fmtRun(r))
	}
	if st := Status(f.s); st.Readiness[1].OK {
		t.Errorf("git check with no git: %+v", st.Readiness[1])
	}
}

// TestTwoMachinesShareARepository backs up two boards to one repository
// in turn: each run takes in the other's commits, the manifest keeps every
// entry, and every push lands.
func TestTwoMachinesShareARepository(t *testing.T) {
	a := newFixture(t, nil)
	b := newFixture(t, map[string]string{"SVC_BACKUP_REPO": a.bare, "SVC_BACKUP_ALLOW_NONDEFAULT": "1"})
	var files []string
	for i := range 4 {
		f := a
		if i%2 == 1 {
			f = b
		}
		f.now = a.now.Add(time.Duration(i) * time.Minute)
		r, out := f.run()
		if r.Exit != ExitPushed {
			t.Fatalf("run %d: %s\n%s", i, fmtRun(r), out)
		}
		files = append(files, r.File)
	}
	// A run cut short left the manifest half written: the next run heals it.
	writeFile(t, filepath.Join(a.s.Clone, ManifestName), `{"format": 1, "snapshots": [`)
	a.now = a.now.Add(time.Hour)
	r, out := a.run()
	if r.Exit != ExitPushed {
		t.Fatalf("after a cut-short run: %s\n%s", fmtRun(r), out)
	}
	files = append(files, r.File)
	gitIn(t, a.s.Clone, "pull", "--quiet", "origin", "main")
	m, err := readManifest(a.s.Clone)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range m.Snapshots {
		got = append(got, e.File)
	}
	if diff := cmp.Diff(len(files), len(got)); diff != "" || len(a.remoteFiles()) != len(files)+1 {
		t.Errorf("manifest %v, remote %v, want %v", got, a.remoteFiles(), files)
	}
	rep, err := Verify(context.Background(), a.s, nil)
	if err != nil || rep.Failed != 0 {
		t.Errorf("verify: %v %+v", err, rep)
	}
}

func TestNoBoardIsNothingToBackUp(t *testing.T) {
	f := newFixture(t, nil)
	f.s.StorePath = filepath.Join(t.TempDir(), "board.json")
	r, out := f.run()
	if r.Exit != ExitFailed || !strings.Contains(r.Error, "no board at") {
		t.Fatalf("%s\n%s", fmtRun(r), out)
	}
	if len(f.remoteFiles()) != 0 {
		t.Error("pushed a snapshot of no board")
	}
}

// A repository named like an option is passed to git as a name, never read
// as one of its options.
func TestRepositoryNamedLikeAnOptionIsNoOption(t *testing.T) {
	f := newFixture(t, map[string]string{"SVC_BACKUP_ALLOW_NONDEFAULT": "1", "SVC_BACKUP_REPO": "--mirror=fetch"})
	r, out := f.run()
	if r.Exit != ExitLocalOnly {
		t.Fatalf("%s\n%s", fmtRun(r), out)
	}
	url := strings.TrimSpace(gitIn(t, f.s.Clone, "remote", "get-url", "origin"))
	if url != "--mirror=fetch" {
		t.Errorf("origin is %q", url)
	}
}

// The person's own ssh setting reaches git: a core.sshCommand in their git
// configuration (say, the key for the backup host) is used, not replaced.
func TestTheirSSHCommandIsUsed(t *testing.T) {
	dir := t.TempDir()
	called := filepath.Join(dir, "called")
	script := filepath.Join(dir, "their-ssh")
	writeFile(t, script, "#!/bin/sh\necho \"$@\" > "+called+"\nexit 1\n")
	if err := os.Chmod(script, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "gitconfig")
	writeFile(t, cfg, "[core]\n\tsshCommand = "+script+"\n")
	t.Setenv("GIT_CONFIG_GLOBAL", cfg)
	for _, k := range []string{"GIT_SSH_COMMAND", "GIT_SSH"} {
		t.Setenv(k, "") // restored after the test
		os.Unsetenv(k)
	}
	f := newFixture(t, map[string]string{"SVC_BACKUP_ALLOW_NONDEFAULT": "1", "SVC_BACKUP_REPO": "ssh://backup.example.invalid/board.git"})
	r, out := f.run()
	if r.Exit != ExitLocalOnly {
		t.Fatalf("%s\n%s", fmtRun(r), out)
	}
	if _, err := os.Stat(called); err != nil {
		t.Errorf("git did not use the configured ssh command: %v\n%s", err, out)
	}
}

// A fresh repository's HEAD may name main or master; the first push goes to
// that branch, so a plain clone of the repository shows the snapshots.
func TestFirstPushLandsWhereACloneLooks(t *testing.T) {
	for _, head := range []string{"main", "master"} {
		t.Run(head, func(t *testing.T) {
			bare := filepath.Join(t.TempDir(), "fresh.git")
			gitIn(t, "", "init", "--bare", "--quiet", "-b", head, bare)
			f := newFixture(t, map[string]string{"SVC_BACKUP_REPO": bare, "SVC_BACKUP_ALLOW_NONDEFAULT": "1"})
			r := f.mustRun()
			checkClone(t, bare, head, r.File)
			// The next run adds to the same branch.
			r2 := f.mustRun()
			checkClone(t, bare, head, r2.File)
			if branches := strings.Fields(gitIn(t, bare, "for-each-ref", "--format=%(refname:short)", "refs/heads")); len(branches) != 1 || branches[0] != head {
				t.Errorf("branches %v, want only %s", branches, head)
			}
		})
	}
}

// A local copy that committed while the repository was out of reach, on a
// branch the repository's HEAD does not name, moves to that branch before
// its first push.
func TestLocalCommitsMoveToTheBranchAnEmptyRepositoryNames(t *testing.T) {
	dir := t.TempDir()
	bare := filepath.Join(dir, "later.git")
	f := newFixture(t, map[string]string{"SVC_BACKUP_REPO": bare, "SVC_BACKUP_ALLOW_NONDEFAULT": "1"})
	if r, out := f.run(); r.Exit != ExitLocalOnly {
		t.Fatalf("unreachable first run: %s\n%s", fmtRun(r), out)
	}
	f.now = f.now.Add(time.Hour)
	gitIn(t, "", "init", "--bare", "--quiet", "-b", "master", bare)
	r := f.mustRun()
	checkClone(t, bare, "master", r.File)
}

func checkClone(t *testing.T, bare, head, file string) {
	t.Helper()
	work := filepath.Join(t.TempDir(), "clone")
	gitIn(t, "", "clone", "--quiet", bare, work)
	if got := strings.TrimSpace(gitIn(t, work, "symbolic-ref", "--short", "HEAD")); got != head {
		t.Errorf("the clone is on %s, want %s", got, head)
	}
	for _, name := range []string{ManifestName, file} {
		if _, err := os.Stat(filepath.Join(work, name)); err != nil {
			t.Errorf("the clone's working tree lacks %s: %v", name, err)
		}
	}
}
