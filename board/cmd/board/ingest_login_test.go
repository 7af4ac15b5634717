package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"

	"github.com/opsboard/opsboard/board/internal/mail/ingest"
)

// loginSetup writes a sources file with two IMAP sources and a Maildir and
// points SVC_BOARD_DATA beside it.
func loginSetup(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	cfg := `{"sources": [
		{"name": "work", "kind": "imap", "host": "127.0.0.1", "user": "me@example.org"},
		{"name": "home", "kind": "imap", "host": "127.0.0.1", "user": "me@example.net"},
		{"name": "archive", "kind": "maildir", "path": "Maildir"}]}`
	if err := os.WriteFile(filepath.Join(dir, ingest.ConfigName), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SVC_BOARD_DATA", filepath.Join(dir, "board.json"))
	return dir
}

// pipeStdin is a stdin that is not a terminal and holds text.
func pipeStdin(t *testing.T, text string) *os.File {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.WriteString(text); err != nil {
		t.Fatal(err)
	}
	w.Close()
	t.Cleanup(func() { r.Close() })
	return r
}

func TestIngestLoginStoresThePassword(t *testing.T) {
	keyring.MockInit() // no credential service runs where the tests do
	loginSetup(t)
	var out, errb bytes.Buffer
	if code := ingestLoginCommand([]string{"work"}, pipeStdin(t, "s3cret\n"), &out, &errb); code != 0 {
		t.Fatalf("login exited %d: %s", code, errb.String())
	}
	if got, err := keyring.Get(ingest.KeyringService, "work"); err != nil || got != "s3cret" {
		t.Fatalf("credential store holds %q, %v; want s3cret", got, err)
	}
	if strings.Contains(out.String()+errb.String(), "s3cret") {
		t.Errorf("the password was printed: %s%s", out.String(), errb.String())
	}
	env := func(string) string { return "" }
	if pw, err := ingest.Password("work", env); err != nil || pw != "s3cret" {
		t.Errorf("Password without the variable = %q, %v", pw, err)
	}
	env = func(k string) string {
		if k == ingest.PasswordEnv("work") {
			return "from-env"
		}
		return ""
	}
	if pw, err := ingest.Password("work", env); err != nil || pw != "from-env" {
		t.Errorf("Password with the variable set = %q, %v; the variable wins", pw, err)
	}
}

func TestIngestLoginRefusesAnEmptyPassword(t *testing.T) {
	keyring.MockInit()
	loginSetup(t)
	var out, errb bytes.Buffer
	if code := ingestLoginCommand([]string{"home"}, pipeStdin(t, ""), &out, &errb); code == 0 {
		t.Fatal("login with nothing on stdin succeeded")
	}
	if _, err := keyring.Get(ingest.KeyringService, "home"); err == nil {
		t.Error("an empty password was stored")
	}
}

// TestIngestLoginUnknownSource runs the real binary: the refusal needs no
// credential store, and names the IMAP sources there are.
func TestIngestLoginUnknownSource(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the board binary")
	}
	dir := loginSetup(t)
	for _, name := range []string{"nope", "archive"} {
		cmd := exec.Command(boardBin, "ingest", "login", name)
		cmd.Env = append(os.Environ(), "SVC_BOARD_DATA="+filepath.Join(dir, "board.json"))
		cmd.Stdin = strings.NewReader("pw\n")
		out, err := cmd.CombinedOutput()
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatalf("login %s: %v, want a non-zero exit\n%s", name, err, out)
		}
		if !strings.Contains(string(out), "work") || !strings.Contains(string(out), "home") || !strings.Contains(string(out), name) {
			t.Errorf("login %s said %q; want it to name %s and the IMAP sources work, home", name, out, name)
		}
	}
}
