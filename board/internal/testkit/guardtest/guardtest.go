// Package guardtest builds and runs the real guard sidecar for the board's
// tests: a process on a loopback port with its own data directory, which a
// test can stop and start again on the same address.
package guardtest

import (
	"bytes"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/opsboard/opsboard/board/internal/testkit"
)

var build struct {
	once sync.Once
	dir  string
	bin  string
	err  error
	out  []byte
}

// Binary builds the sidecar once per test binary and returns its path.
func Binary(tb testing.TB) string {
	tb.Helper()
	build.once.Do(func() {
		if build.dir, build.err = os.MkdirTemp("", "opsboard-guardtest-"); build.err != nil {
			return
		}
		build.bin = filepath.Join(build.dir, "sidecar-guard")
		cmd := exec.Command("go", "build", "-o", build.bin, "github.com/opsboard/opsboard/sidecar-guard/cmd/sidecar-guard")
		build.out, build.err = cmd.CombinedOutput()
	})
	if build.err != nil {
		tb.Fatalf("build the guard sidecar: %v\n%s", build.err, build.out)
	}
	return build.bin
}

// Cleanup removes the built binary; call it from TestMain after m.Run.
func Cleanup() {
	if build.dir != "" {
		os.RemoveAll(build.dir)
	}
}

// TinyModelDir is the sidecar's own test model (a few kilobytes), which
// loads as a real model: the guard runs "on" rather than degraded.
func TinyModelDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "..", "sidecar-guard", "internal", "model", "testdata", "tiny")
}

// Sidecar is one running guard sidecar.
type Sidecar struct {
	URL  string // http://127.0.0.1:<port>
	Addr string
	Data string // its data directory

	tb     testing.TB
	env    []string
	cmd    *exec.Cmd
	done   chan error
	stderr *bytes.Buffer
}

// Start runs the sidecar on a free loopback port with a temp data
// directory. Unless env says otherwise it runs the heuristic-only preset
// (ready, degraded when enabled) and starts disabled, as on a fresh machine.
func Start(tb testing.TB, env map[string]string) *Sidecar {
	tb.Helper()
	bin := Binary(tb)
	addr := testkit.FreeAddr(tb)
	kv := map[string]string{"SVC_GUARD_CLASSIFIER": "heuristic", "SVC_GUARD_MODEL": "heuristic-only", "SVC_GUARD_DATA": tb.TempDir()}
	for k, v := range env {
		kv[k] = v
	}
	kv["SVC_GUARD_ADDR"] = addr
	s := &Sidecar{URL: "http://" + addr, Addr: addr, Data: kv["SVC_GUARD_DATA"], tb: tb}
	for _, e := range os.Environ() {
		if len(e) < 10 || e[:10] != "SVC_GUARD_" {
			s.env = append(s.env, e)
		}
	}
	s.env = append(s.env, "HF_TOKEN=")
	for k, v := range kv {
		s.env = append(s.env, k+"="+v)
	}
	s.start(bin)
	tb.Cleanup(s.Stop)
	return s
}

func (s *Sidecar) start(bin string) {
	s.tb.Helper()
	s.cmd = exec.Command(bin)
	s.cmd.Env = s.env
	s.stderr = &bytes.Buffer{}
	s.cmd.Stderr = s.stderr
	s.done = make(chan error, 1)
	if err := s.cmd.Start(); err != nil {
		s.tb.Fatal(err)
	}
	done := s.done
	cmd := s.cmd
	go func() { done <- cmd.Wait() }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(s.URL + "/healthz")
		if err == nil {
			resp.Body.Close()
			return
		}
		select {
		case err := <-done:
			s.tb.Fatalf("guard sidecar exited before answering: %v\n%s", err, s.stderr)
		default:
		}
		if time.Now().After(deadline) {
			s.tb.Fatalf("guard sidecar did not answer in time\n%s", s.stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Stop ends the process (SIGTERM, then SIGKILL after 10 s) and waits for
// it. Stopping a stopped sidecar does nothing.
func (s *Sidecar) Stop() {
	if s.cmd == nil {
		return
	}
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		s.cmd.Process.Kill()
		<-s.done
	}
	s.cmd = nil
}

// Restart starts the sidecar again on the same address and data.
func (s *Sidecar) Restart() {
	s.tb.Helper()
	s.Stop()
	for i := 0; i < 50; i++ { // the port may take a moment to free
		ln, err := net.Listen("tcp", s.Addr)
		if err == nil {
			ln.Close()
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	s.start(Binary(s.tb))
}
