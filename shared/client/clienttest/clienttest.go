// Package clienttest starts real things for the tool servers' end-to-end
// tests: the board daemon built from this workspace on a free loopback port
// with a temporary data directory, a tool server process whose every stdout
// line is kept so a test can check it is all protocol, and an MCP client
// session with that process over stdio or streamable HTTP.
package clienttest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// WorkspaceRoot is the directory of the go.work file the test runs under.
func WorkspaceRoot(t testing.TB) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOWORK").Output()
	if err != nil {
		t.Fatalf("go env GOWORK: %v", err)
	}
	work := strings.TrimSpace(string(out))
	if work == "" || work == "off" {
		t.Fatal("these tests build the workspace's binaries and need its go.work")
	}
	return filepath.Dir(work)
}

// Build compiles the main package pkg (such as ./cmd/board) of the module in
// dir into a temporary directory and returns the binary's path.
func Build(t testing.TB, dir, pkg string) string {
	t.Helper()
	abs, err := filepath.Abs(filepath.Join(dir, pkg))
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), filepath.Base(abs))
	cmd := exec.Command("go", "build", "-o", bin, pkg)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s in %s: %v\n%s", pkg, dir, err, out)
	}
	return bin
}

// FreeAddr returns a loopback address with a port nothing listens on now.
func FreeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	if err := ln.Close(); err != nil {
		t.Fatal(err)
	}
	return addr
}

// Board is a running board daemon.
type Board struct {
	URL  string // http://127.0.0.1:<port>
	Data string // its store document
	cmd  *exec.Cmd
	logs *syncBuffer
	done chan struct{}
}

// StartBoard builds the board from this workspace and starts it on a free
// port with a temporary data directory; it is stopped when the test ends.
func StartBoard(t testing.TB) *Board {
	t.Helper()
	return StartBoardEnv(t)
}

// StartBoardEnv is StartBoard with env (NAME=value) added to the board's
// environment, such as the backup settings.
func StartBoardEnv(t testing.TB, env ...string) *Board {
	t.Helper()
	bin := Build(t, filepath.Join(WorkspaceRoot(t), "board"), "./cmd/board")
	addr := FreeAddr(t)
	b := &Board{URL: "http://" + addr, Data: filepath.Join(t.TempDir(), "board.json"), logs: &syncBuffer{}, done: make(chan struct{})}
	b.cmd = exec.Command(bin)
	b.cmd.Env = append(os.Environ(), "SVC_BOARD_ADDR="+addr, "SVC_BOARD_DATA="+b.Data, "SVC_BOARD_VERIFY=1")
	b.cmd.Env = append(b.cmd.Env, env...)
	b.cmd.Stdout, b.cmd.Stderr = b.logs, b.logs
	if err := b.cmd.Start(); err != nil {
		t.Fatalf("start board: %v", err)
	}
	go func() {
		_ = b.cmd.Wait() // the exit is reported through done; logs say why
		close(b.done)
	}()
	t.Cleanup(func() { b.stop(t) })
	if err := b.waitHealthy(); err != nil {
		t.Fatalf("board did not come up at %s: %v\nlogs:\n%s", b.URL, err, b.logs.String())
	}
	return b
}

// waitHealthy polls /api/health until it answers, the process exits, or a
// generous bound passes (a cold build cache can make the first start slow).
func (b *Board) waitHealthy() error {
	deadline := time.Now().Add(60 * time.Second)
	for {
		select {
		case <-b.done:
			return errors.New("the board exited")
		default:
		}
		resp, err := http.Get(b.URL + "/api/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no healthy answer: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (b *Board) stop(t testing.TB) {
	select {
	case <-b.done:
		return
	default:
	}
	_ = b.cmd.Process.Signal(os.Interrupt)
	select {
	case <-b.done:
	case <-time.After(15 * time.Second):
		_ = b.cmd.Process.Kill()
		<-b.done
		t.Errorf("board did not stop on interrupt; killed\nlogs:\n%s", b.logs.String())
	}
}

// Logs is what the board printed so far.
func (b *Board) Logs() string { return b.logs.String() }

// Get reads a route of the board as JSON into out.
func (b *Board) Get(t testing.TB, path string, out any) {
	t.Helper()
	b.Human(t, http.MethodGet, path, nil, out)
}

// Human sends a request the way the web page does: no actor anywhere, so a
// write is attributed to the human. body (when not nil) is sent as JSON; the
// answer must be 2xx and is decoded into out when out is not nil.
func (b *Board) Human(t testing.TB, method, path string, body, out any) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, b.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	if resp.StatusCode/100 != 2 {
		t.Fatalf("%s %s: status %d: %s", method, path, resp.StatusCode, data)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("%s %s: %v: %s", method, path, err, data)
		}
	}
}

// Process is a running child whose stdin is ours and whose stdout is both
// recorded line by line and handed on through Stdout.
type Process struct {
	Stdin  io.WriteCloser
	Stdout io.Reader // every byte the child wrote to stdout, in order
	cmd    *exec.Cmd
	stderr *syncBuffer
	lines  *lineLog
	done   chan struct{}
	copied chan struct{}
	exit   error // how the process ended; read after done is closed
}

// StartProcess runs bin with extra environment entries and arguments. The
// process is stopped when the test ends.
func StartProcess(t testing.TB, bin string, env []string, args ...string) *Process {
	t.Helper()
	p := &Process{cmd: exec.Command(bin, args...), stderr: &syncBuffer{}, lines: &lineLog{}, done: make(chan struct{}), copied: make(chan struct{})}
	p.cmd.Env = append(os.Environ(), env...)
	p.cmd.Stderr = p.stderr
	stdin, err := p.cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p.Stdin = stdin
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}
	// The copy goroutine reads stdout to its end, so the record is complete
	// even for bytes the consumer never asked for.
	pr, pw := io.Pipe()
	p.Stdout = pr
	go func() {
		defer close(p.copied)
		_, err := io.Copy(io.MultiWriter(pw, p.lines), stdout)
		pw.CloseWithError(err)
	}()
	go func() {
		<-p.copied // Wait closes stdout: read it all first
		p.exit = p.cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		if err := p.Stop(); err != nil {
			t.Errorf("stop %s: %v\nstderr:\n%s", bin, err, p.Stderr())
		}
	})
	return p
}

// Stop closes stdin (the stdio way to end a session) and waits for the
// process to exit, killing it if it does not. A non-zero exit is an error.
func (p *Process) Stop() error {
	_ = p.Stdin.Close()
	// Whatever the consumer no longer reads is drained, so the copy (and with
	// it the record) can reach the end of the stream.
	go func() { _, _ = io.Copy(io.Discard, p.Stdout) }()
	select {
	case <-p.done:
		if p.exit != nil {
			return fmt.Errorf("exited with %w", p.exit)
		}
		return nil
	case <-time.After(15 * time.Second):
	}
	_ = p.cmd.Process.Kill()
	<-p.done
	return errors.New("did not exit after stdin closed; killed")
}

// Interrupt asks the process to shut down (SIGINT), the way to end a server
// that does not read stdin.
func (p *Process) Interrupt() error {
	select {
	case <-p.done:
		return nil
	default:
	}
	if err := p.cmd.Process.Signal(os.Interrupt); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("interrupt: %w", err)
	}
	return nil
}

// Stderr is what the process logged so far.
func (p *Process) Stderr() string { return p.stderr.String() }

// StdoutLines are the complete lines the process wrote to stdout so far.
func (p *Process) StdoutLines() []string { return p.lines.complete() }

// CheckJSONRPC reports every line that is not a JSON-RPC 2.0 message (a
// request, a notification or a response). Blank lines are not protocol
// either: stdout carries nothing else.
func CheckJSONRPC(lines []string) error {
	var problems []string
	for i, line := range lines {
		var msg struct {
			JSONRPC string          `json:"jsonrpc"`
			Method  string          `json:"method"`
			ID      json.RawMessage `json:"id"`
			Result  json.RawMessage `json:"result"`
			Error   json.RawMessage `json:"error"`
		}
		dec := json.NewDecoder(strings.NewReader(line))
		dec.UseNumber()
		switch err := dec.Decode(&msg); {
		case err != nil:
			problems = append(problems, fmt.Sprintf("line %d is not JSON (%v): %q", i+1, err, clip(line)))
		case dec.More():
			problems = append(problems, fmt.Sprintf("line %d has data after the JSON value: %q", i+1, clip(line)))
		case msg.JSONRPC != "2.0":
			problems = append(problems, fmt.Sprintf("line %d lacks jsonrpc 2.0: %q", i+1, clip(line)))
		case msg.Method == "" && msg.ID == nil:
			problems = append(problems, fmt.Sprintf("line %d is neither a request, a notification nor a response: %q", i+1, clip(line)))
		case msg.Method == "" && msg.Result == nil && msg.Error == nil:
			problems = append(problems, fmt.Sprintf("line %d is a response with neither result nor error: %q", i+1, clip(line)))
		}
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "\n"))
	}
	return nil
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}

// lineLog keeps every byte written to it and splits it into lines.
type lineLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lineLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

// complete returns the newline-terminated lines; a trailing partial line is
// returned too once it is all there is left (the stream ended without \n).
func (l *lineLog) complete() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(l.buf.Bytes()))
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	for sc.Scan() {
		out = append(out, strings.TrimSuffix(sc.Text(), "\r"))
	}
	return out
}

// syncBuffer is a bytes.Buffer safe for a child's writes and a test's reads.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Context is a context for one end-to-end step: bounded, so a hung server
// fails the test instead of hanging it.
func Context(t testing.TB) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// BackupEnv is the environment of a board that backs up to a fresh local
// bare git repository standing in for the private remote: the repository,
// a recovery passphrase, and the repository check's allowance for a disposable
// repository.
func BackupEnv(t testing.TB) []string {
	t.Helper()
	repo := filepath.Join(t.TempDir(), "backup.git")
	if out, err := exec.Command("git", "init", "--quiet", "--bare", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init --bare: %v\n%s", err, out)
	}
	return []string{"SVC_BACKUP_REPO=" + repo, "SVC_BACKUP_KEY=correct horse battery staple", "SVC_BACKUP_ALLOW_NONDEFAULT=1"}
}
