package main

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A board that cannot listen (the port is taken) fails before it touches
// the data directory: no directory, document, journal or seeded catalog is
// left behind for a start that never served.
func TestPortTakenLeavesNoDataBehind(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the daemon")
	}
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	dir := filepath.Join(t.TempDir(), "never")
	cmd := exec.Command(boardBin)
	cmd.Env = append(os.Environ(), "SVC_BOARD_ADDR="+taken.Addr().String(), "SVC_BOARD_DATA="+filepath.Join(dir, "board.json"))
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("the board did not fail on a taken port (%v):\n%s", err, out)
	}
	if !strings.Contains(string(out), "listen on "+taken.Addr().String()) {
		t.Errorf("the error does not name the address:\n%s", out)
	}
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		entries, _ := os.ReadDir(dir)
		t.Errorf("the data directory was created (%v): %v", err, entries)
	}
}
