package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/opsboard/opsboard/board/internal/testkit"
)

// These tests run the real board binary on a free port with a temporary
// data directory, as a person or an agent meets it.

var boardBin string

func TestMain(m *testing.M) {
	flag.Parse()
	code := func() int {
		if testing.Short() {
			return m.Run()
		}
		dir, err := os.MkdirTemp("", "board-bin")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer os.RemoveAll(dir)
		boardBin = filepath.Join(dir, "board")
		out, err := exec.Command("go", "build", "-o", boardBin, ".").CombinedOutput()
		if err != nil {
			fmt.Fprintf(os.Stderr, "build the board: %v\n%s", err, out)
			return 1
		}
		return m.Run()
	}()
	os.Exit(code)
}

// daemon is one running board process.
type daemon struct {
	cmd    *exec.Cmd
	addr   string
	url    string
	data   string
	stderr *testkit.SyncBuffer
	exited chan struct{}
	err    error
}

// start runs the board on data with env added to the environment and
// waits until it answers. With nofile > 0 it runs under that open-file limit.
func start(t *testing.T, data string, nofile int, env ...string) *daemon {
	t.Helper()
	cmd := exec.Command(boardBin)
	if nofile > 0 {
		cmd = exec.Command("prlimit", fmt.Sprintf("--nofile=%d:%d", nofile, nofile), "--", boardBin)
	}
	d := spawnCommand(t, cmd, data, func(cmd *exec.Cmd) { cmd.Env = append(cmd.Env, env...) })
	testkit.Eventually(t, "the daemon answers /api/health", func() bool {
		select {
		case <-d.exited:
			t.Fatalf("the daemon exited (%v):\n%s", d.err, d.stderr)
		default:
		}
		code, _, err := d.do("GET", "/api/health", "")
		return err == nil && code == http.StatusOK
	})
	return d
}

// spawn starts the board on data without waiting for it to answer, so a
// test can also watch a start that fails. adjust, when set, changes the
// command first (another user, more environment).
func spawn(t *testing.T, data string, adjust func(*exec.Cmd)) *daemon {
	t.Helper()
	return spawnCommand(t, exec.Command(boardBin), data, adjust)
}

func spawnCommand(t *testing.T, cmd *exec.Cmd, data string, adjust func(*exec.Cmd)) *daemon {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the daemon")
	}
	addr := testkit.FreeAddr(t)
	d := &daemon{cmd: cmd, addr: addr, url: "http://" + addr, data: data, stderr: &testkit.SyncBuffer{}, exited: make(chan struct{})}
	d.cmd.Env = append(os.Environ(), "SVC_BOARD_ADDR="+addr, "SVC_BOARD_DATA="+data, "SVC_SEARCH_URL=http://127.0.0.1:1")
	d.cmd.Stderr = d.stderr
	if adjust != nil {
		adjust(d.cmd)
	}
	d.launch(t)
	return d
}

// launch starts d.cmd, notes when it exits, and kills it at the test's end.
func (d *daemon) launch(t *testing.T) {
	t.Helper()
	if err := d.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { d.err = d.cmd.Wait(); close(d.exited) }()
	t.Cleanup(d.kill)
}

// kill ends the daemon with SIGKILL and waits until it is gone.
func (d *daemon) kill() {
	d.cmd.Process.Signal(syscall.SIGKILL)
	<-d.exited
}

// ready waits until the daemon answers its health route and returns the
// answer; a daemon that exits first fails the test.
func (d *daemon) ready(t *testing.T) map[string]any {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		select {
		case <-d.exited:
			t.Fatalf("the daemon exited before it was ready (%v):\n%s", d.err, d.stderr)
		default:
		}
		var h map[string]any
		if code, err := getJSON(d.url+"/api/health", &h); err == nil && code == http.StatusOK {
			return h
		}
		if time.Now().After(deadline) {
			t.Fatalf("the daemon did not get ready:\n%s", d.stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func getJSON(url string, v any) (int, error) {
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Get(url)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	return resp.StatusCode, json.NewDecoder(resp.Body).Decode(v)
}

// do sends one request with a JSON body (none when "") on a fresh
// connection and returns the status and the body.
func (d *daemon) do(method, path, body string) (int, []byte, error) {
	return d.doWith(&http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}, method, path, body)
}

func (d *daemon) doWith(c *http.Client, method, path, body string) (int, []byte, error) {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, d.url+path, rd)
	if err != nil {
		return 0, nil, err
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	return resp.StatusCode, raw, err
}

// must sends a request and fails the test unless it is answered with want.
func (d *daemon) must(t *testing.T, want int, method, path, body string) []byte {
	t.Helper()
	code, raw, err := d.do(method, path, body)
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", method, path, err, d.stderr)
	}
	if code != want {
		t.Fatalf("%s %s: %d, want %d: %.300s", method, path, code, want, raw)
	}
	return raw
}

// compacted waits until the document on disk holds s (a compaction ran).
func (d *daemon) compacted(t *testing.T, s string) {
	t.Helper()
	testkit.Eventually(t, "the document on disk holds "+s, func() bool {
		raw, err := os.ReadFile(d.data)
		return err == nil && bytes.Contains(raw, []byte(s))
	})
}

func jsonBody(t *testing.T, v any) string {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

func jsonDecode(raw []byte, v any) error { return json.Unmarshal(raw, v) }
