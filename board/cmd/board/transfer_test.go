package main

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/opsboard/opsboard/shared/wire"
)

// runBoard runs the board binary as a subcommand and returns its exit
// code, standard output and standard error.
func runBoard(t *testing.T, env []string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(boardBin, args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String(), errOut.String()
}

func TestImportAndExportCommands(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "board.json")
	d := start(t, data, 0)
	env := []string{"SVC_BOARD_ADDR=" + d.addr, "SVC_BOARD_DATA=" + data}
	file := filepath.Join(dir, "Groceries.csv")
	os.WriteFile(file, []byte("TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE\n"+
		"task,Buy milk,,4,1,,,2026-12-01,en,UTC\ntask,Oat,,4,2,,,,en,UTC\n"), 0o600)

	code, out, errOut := runBoard(t, env, "import", file)
	if code != 0 || !strings.Contains(out, "would create (todoist): 0 labels, 1 initiatives, 0 workstreams, 1 cases, 1 tasks, 0 notes; skipped 0") {
		t.Fatalf("dry run: %d\n%s%s", code, out, errOut)
	}
	if n := strings.Count(string(d.must(t, http.StatusOK, "GET", "/api/cases", "")), `"title"`); n != 0 {
		t.Fatalf("the dry run wrote %d cases", n)
	}
	// Flags after the file, as people type them.
	if code, out, errOut = runBoard(t, env, "import", file, "--apply"); code != 0 || !strings.Contains(out, "created (todoist): 0 labels, 1 initiatives") {
		t.Fatalf("apply: %d\n%s%s", code, out, errOut)
	}
	if !strings.Contains(string(d.must(t, http.StatusOK, "GET", "/api/tree", "")), `"title":"Groceries"`) {
		t.Error("the initiative is not named after the file")
	}
	if code, out, _ = runBoard(t, env, "import", "--apply", file); code != 0 || !strings.Contains(out, "skipped 2 already imported") {
		t.Errorf("re-import: %d\n%s", code, out)
	}
	os.WriteFile(file, []byte("TYPE,CONTENT\nfolder,x\n"), 0o600)
	if code, _, errOut = runBoard(t, env, "import", "--apply", file); code != 1 || !strings.Contains(errOut, `the board refused (400): row 2: TYPE must be task, section or note, not "folder"`) {
		t.Errorf("bad row: %d %s", code, errOut)
	}
	sheet := filepath.Join(dir, "sheet.csv")
	os.WriteFile(sheet, []byte("Key,Thing,When\nA-1,Renew passport,2026-12-01\n"), 0o600)
	if code, out, errOut = runBoard(t, env, "import", "--format", "csv", "--map", "Key=id,Thing=title,When=dueAt", "--apply", sheet); code != 0 || !strings.Contains(out, "created (csv): 0 labels, 0 initiatives, 0 workstreams, 1 cases") {
		t.Errorf("mapped csv: %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut = runBoard(t, env, "import", "--map", "Thing", sheet); code != 2 || !strings.Contains(errOut, "--map") {
		t.Errorf("bad mapping: %d %s", code, errOut)
	}
	if code, _, _ = runBoard(t, env, "import"); code != 2 {
		t.Errorf("no file: exit %d, want 2", code)
	}

	live := filepath.Join(dir, "live.json")
	if code, _, errOut = runBoard(t, env, "export", "--format", "json", "--out", live); code != 0 || !strings.Contains(errOut, "from the running board") {
		t.Fatalf("export: %d %s", code, errOut)
	}
	if code, out, _ = runBoard(t, env, "export", "--format", "csv"); code != 0 || !strings.Contains(out, ",Buy milk,todo,work,,2026-12-01,") || !strings.Contains(out, ",Renew passport,todo,work,,2026-12-01,,,,csv:A-1") {
		t.Errorf("csv to stdout: %d\n%s", code, out)
	}
	if code, _, errOut = runBoard(t, env, "export", "--format", "pdf"); code != 1 || !strings.Contains(errOut, "format must be one of json, csv, markdown") {
		t.Errorf("bad format: %d %s", code, errOut)
	}

	// With the board stopped, the export reads the store files.
	d.cmd.Process.Signal(syscall.SIGTERM)
	<-d.exited
	stopped := filepath.Join(dir, "stopped.json")
	if code, _, errOut = runBoard(t, env, "export", "--out", stopped); code != 0 || !strings.Contains(errOut, "from the store files") {
		t.Fatalf("export of a stopped board: %d %s", code, errOut)
	}
	a, _ := os.ReadFile(live)
	b, _ := os.ReadFile(stopped)
	strip := func(s string) string { // the export time differs
		i := strings.Index(s, `"exportedAt"`)
		j := strings.Index(s[i:], "\n")
		return s[:i] + s[i+j:]
	}
	if strip(string(a)) != strip(string(b)) || !strings.Contains(string(a), wire.ExportFormat) {
		t.Errorf("the stopped board's export differs from the running one's:\n%s\n---\n%s", a, b)
	}
	if code, _, errOut = runBoard(t, env, "import", "--apply", live); code != 1 || !strings.Contains(errOut, "start it first") {
		t.Errorf("import without a board: %d %s", code, errOut)
	}
}
