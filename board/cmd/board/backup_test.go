package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// backupCLI runs `board backup` through the built binary on one data
// directory, with a bare repository standing in for the remote.
type backupCLI struct {
	t    *testing.T
	data string // the store document
	bare string
	env  []string
}

func newBackupCLI(t *testing.T) *backupCLI {
	t.Helper()
	if boardBin == "" {
		t.Skip("needs the built board (not in -short)")
	}
	dir := t.TempDir()
	c := &backupCLI{t: t, data: filepath.Join(dir, "data", "board.json"), bare: filepath.Join(dir, "remote.git")}
	if out, err := exec.Command("git", "init", "--bare", "--quiet", c.bare).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	st, err := store.Open(store.Config{Path: c.data})
	if err != nil {
		t.Fatal(err)
	}
	_, err = st.Update(context.Background(), wire.ActorHuman, nil, func(tx *store.Tx) error {
		tx.Cases().Put(&wire.Case{ID: tx.NextID("CASE"), Title: "backed up", Status: "todo", Domain: "work", Kind: "case", CreatedAt: tx.Stamp(), UpdatedAt: tx.Stamp()})
		return nil
	})
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	// No credential store reachable: the session bus address leads nowhere.
	c.env = append(os.Environ(), "SVC_BOARD_DATA="+c.data, "HOME="+dir, "DBUS_SESSION_BUS_ADDRESS=unix:path="+filepath.Join(dir, "no-bus"),
		"SVC_BACKUP_REPO=", "SVC_BACKUP_KEY=", "SVC_BACKUP_ALLOW_NONDEFAULT=", "SVC_VAULT_DIR=", "SVC_GUARD_DATA=", "SVC_SANDBOX=")
	return c
}

func (c *backupCLI) run(stdin string, extraEnv []string, args ...string) (code int, stdout, stderr string) {
	c.t.Helper()
	cmd := exec.Command(boardBin, append([]string{"backup"}, args...)...)
	cmd.Env = append(append([]string{}, c.env...), extraEnv...)
	cmd.Stdin = strings.NewReader(stdin)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), o.String(), e.String()
	} else if err != nil {
		c.t.Fatal(err)
	}
	return 0, o.String(), e.String()
}

func (c *backupCLI) expect(wantCode int, wantText string, stdin string, env []string, args ...string) string {
	c.t.Helper()
	code, out, errOut := c.run(stdin, env, args...)
	if code != wantCode || !strings.Contains(out+errOut, wantText) {
		c.t.Fatalf("board backup %v: exit %d, want %d with %q\nstdout:\n%s\nstderr:\n%s", args, code, wantCode, wantText, out, errOut)
	}
	return out + errOut
}

const cliPass = "a long enough test passphrase"

func TestBackupCommandExitCodes(t *testing.T) {
	c := newBackupCLI(t)
	key := []string{"SVC_BACKUP_KEY=" + cliPass}
	c.expect(64, "usage: board backup", "", nil)
	c.expect(64, "usage: board backup", "", nil, "fly")
	c.expect(4, "board backup init", "", key, "run")

	// init without a credential store names SVC_BACKUP_KEY; it checks the
	// passphrase first.
	c.expect(4, "differ", cliPass+"\n"+cliPass+"x\n", nil, "init", c.bare)
	c.expect(4, "shorter than", "short\nshort\n", nil, "init", c.bare)
	if _, err := os.Stat(filepath.Join(filepath.Dir(c.data), "backup.json")); !os.IsNotExist(err) {
		t.Errorf("init wrote backup.json with no passphrase taken: %v", err)
	}
	c.expect(4, "SVC_BACKUP_KEY", cliPass+"\n"+cliPass+"\n", nil, "init", c.bare)
	status := c.expect(0, "SVC_BACKUP_KEY", "", nil, "status")
	if !strings.Contains(status, "[MISSING] Recovery passphrase present") {
		t.Errorf("status without a key:\n%s", status)
	}
	out := c.expect(0, "WRITE THE PASSPHRASE DOWN", "", key, "init", c.bare)
	if strings.Contains(out, cliPass) {
		t.Error("init printed the passphrase")
	}

	c.expect(4, "SVC_BACKUP_KEY is set", "", key, "rotate-key")
	c.expect(4, "SVC_BACKUP_KEY", cliPass+"\n"+cliPass+"\n", nil, "rotate-key")

	c.expect(0, "pushed", "", key, "run")
	other := filepath.Join(t.TempDir(), "other.git")
	exec.Command("git", "init", "--bare", "--quiet", other).Run()
	c.expect(1, "repository check", "", append(key, "SVC_BACKUP_REPO="+other), "run")
	lock := filepath.Join(filepath.Dir(c.data), "backup.lock")
	os.WriteFile(lock, []byte("held"), 0o600)
	c.expect(3, "nothing done", "", key, "run")
	os.Remove(lock)
	hook := filepath.Join(c.bare, "hooks", "pre-receive")
	os.WriteFile(hook, []byte("#!/bin/sh\nexit 1\n"), 0o755)
	c.expect(2, "local-only", "", key, "run")
	os.Remove(hook)

	status = c.expect(0, "Backups: WARNING", "", key, "status")
	if !strings.Contains(status, "Push: failed") || !strings.Contains(status, "Snapshots (2, newest first)") {
		t.Errorf("status:\n%s", status)
	}
	var st wire.BackupStatus
	if err := json.Unmarshal([]byte(c.expect(0, "verdict", "", key, "status", "--json")), &st); err != nil || len(st.Snapshots) != 2 {
		t.Errorf("status --json: %v %+v", err, st)
	}
	c.expect(0, "pushed", "", key, "run")
	c.expect(0, "3 snapshots checked, 0 failed", "", key, "verify")
	c.expect(0, "Dry run", "", key, "restore")
	c.expect(4, "wrong passphrase", "", []string{"SVC_BACKUP_KEY=not the passphrase at all"}, "restore")

	clone := filepath.Join(filepath.Dir(c.data), "backup-repo", "snapshots")
	names, _ := filepath.Glob(filepath.Join(clone, "backup-*.enc"))
	newest := names[len(names)-1]
	data, _ := os.ReadFile(newest)
	data[len(data)/2] ^= 1
	os.WriteFile(newest, data, 0o600)
	c.expect(4, "never applied", "", key, "restore", "--apply")
	c.expect(4, "1 failed", "", key, "verify")
	out = c.expect(0, "Start the board", "", key, "restore", filepath.Base(names[0]), "--apply")
	if !strings.Contains(out, "pre-restore-") || strings.Contains(out, cliPass) {
		t.Errorf("apply:\n%s", out)
	}
}
