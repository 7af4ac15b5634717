package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// summary finds the one progress summary line of what in stderr.
func summary(t *testing.T, stderr, what string) string {
	t.Helper()
	re := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(what) + `: \d+ \w+ in [0-9.]+\w+( \(\d+/s\))?(: .*)?$`)
	lines := re.FindAllString(stderr, -1)
	if len(lines) != 1 {
		t.Fatalf("stderr holds %d summary lines of %q, want 1:\n%s", len(lines), what, stderr)
	}
	return lines[0]
}

// Off a terminal, each long command ends with one summary line on stderr;
// stdout keeps what it printed before.
func TestLongCommandsSummariseOnStderr(t *testing.T) {
	c := newBackupCLI(t)
	key := []string{"SVC_BACKUP_KEY=" + cliPass}
	c.expect(0, "WRITE THE PASSPHRASE DOWN", "", key, "init", c.bare)

	code, out, errOut := c.run("", key, "run")
	if line := summary(t, errOut, "board backup run"); code != 0 || !strings.Contains(out, "pushed") || !strings.HasSuffix(line, ": pushed") {
		t.Errorf("run: exit %d, summary %q, stdout:\n%s", code, line, out)
	}
	code, out, errOut = c.run("", key, "verify")
	if line := summary(t, errOut, "board backup verify"); code != 0 || !strings.HasSuffix(line, ": 1 snapshots checked, 0 failed") || strings.Contains(out, "board backup verify:") {
		t.Errorf("verify: exit %d, summary %q, stdout:\n%s", code, line, out)
	}
	code, _, errOut = c.run("", key, "restore")
	if line := summary(t, errOut, "board backup restore"); code != 0 || !strings.HasSuffix(line, ": checked, nothing written") {
		t.Errorf("restore: exit %d, summary %q", code, line)
	}

	dir := t.TempDir()
	data := filepath.Join(dir, "board.json")
	d := start(t, data, 0)
	file := filepath.Join(dir, "Groceries.csv")
	os.WriteFile(file, []byte("TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE\ntask,Buy milk,,4,1,,,2026-12-01,en,UTC\n"), 0o600)
	code, out, errOut = runBoard(t, []string{"SVC_BOARD_ADDR=" + d.addr, "SVC_BOARD_DATA=" + data}, "import", "--apply", file)
	line := summary(t, errOut, "board import")
	if code != 0 || !strings.Contains(line, " bytes in ") || strings.Contains(out, "board import:") {
		t.Errorf("import: exit %d, summary %q, stdout:\n%s\nstderr:\n%s", code, line, out, errOut)
	}
}
