package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/opsboard/opsboard/board/internal/testkit"
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

// On a terminal the command draws a bar with the count, the total, the
// rate and the time, and writes no summary line.
func TestProgressBarOnATerminal(t *testing.T) {
	if boardBin == "" {
		t.Skip("needs the built board (not in -short)")
	}
	script, err := exec.LookPath("script") // runs a command on a pseudo-terminal
	if err != nil {
		t.Skip("no script(1) to give the command a terminal")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "sheet.csv")
	os.WriteFile(file, []byte("a,b\n1,2\n"), 0o600)
	cmd := exec.Command(script, "-qec", boardBin+" import --format csv --map a=title "+file, "/dev/null")
	cmd.Env = append(os.Environ(), "SVC_BOARD_ADDR="+testkit.FreeAddr(t), "SVC_BOARD_DATA="+filepath.Join(dir, "board.json"))
	out, _ := cmd.CombinedOutput()
	done := regexp.MustCompile(`board import 100% \|.*\| \((\d+)/(\d+) B, [0-9.]+ \S+/s\)`) // count, total, rate
	times := regexp.MustCompile(`board import +0% \|.*\| \( *0/\d+ B\) \[\d+s:\d+s\]`)      // time taken and left
	m := done.FindSubmatch(out)
	if m == nil || string(m[1]) != string(m[2]) || !times.Match(out) || strings.Contains(string(out), " bytes in ") {
		t.Errorf("on a terminal, want the bar and no summary line:\n%q", out)
	}
}
