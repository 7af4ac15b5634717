// Package testkit holds what the board's tests share: a realistic board
// document for benchmarks, a goroutine-safe buffer for a child process's
// output, polling until a condition holds, building a binary of the
// workspace and a free loopback address.
package testkit

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

// BoardDoc builds a realistic board: cases with summaries, tasks, notes and
// activity, and linked messages with a body of a typical email's length. The
// text is drawn from a large made-up vocabulary so it compresses about as
// well as real mail, which the snapshot sizes depend on.
func BoardDoc(cases int) *wire.Doc {
	rng := rand.New(rand.NewPCG(uint64(cases), 1))
	vocab := make([]string, 5000)
	for i := range vocab {
		w := make([]byte, 3+rng.IntN(8))
		for k := range w {
			w[k] = byte('a' + rng.IntN(26))
		}
		vocab[i] = string(w)
	}
	text := func(words int) string {
		var sb strings.Builder
		for i := 0; i < words; i++ {
			if i > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(vocab[rng.IntN(len(vocab))])
		}
		return sb.String()
	}
	d := storefile.New()
	at := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	ts := func(i int) string { return at.Add(time.Duration(i) * time.Minute).Format(time.RFC3339Nano) }
	d.Labels = wire.ListOf([]*wire.LabelDef{
		{ID: "finance", Title: "Finance", Description: "Money in and out", Color: "green"},
		{ID: "legal", Title: "Legal", Description: "Contracts and compliance", Color: "red"},
		{ID: "waiting", Title: "Waiting", Description: "Blocked on someone else", Color: "amber"},
	}...)
	for i := 1; i <= cases; i++ {
		id := fmt.Sprintf("CASE-%d", i)
		c := &wire.Case{
			ID: id, Title: text(6), Summary: text(25),
			Status: wire.Lane(wire.Lanes()[i%len(wire.Lanes())]), Domain: wire.Domain(wire.Domains()[i%2]), Kind: "case",
			Labels: []string{"finance", "legal"}, Tags: []string{"vendor", "q2"},
			CreatedAt: ts(i), UpdatedAt: ts(i + 1),
		}
		for k := 1; k <= 5; k++ {
			c.Tasks = append(c.Tasks, wire.Task{ID: fmt.Sprintf("%s-T%d", id, k), Title: text(5), CreatedAt: ts(i)})
		}
		c.Notes = []wire.Note{{ID: id + "-N1", Text: text(20), Actor: wire.ActorHuman, CreatedAt: ts(i)}}
		for k := 0; k < 12; k++ {
			c.Activity = append(c.Activity, wire.Activity{Actor: wire.ActorAgent, Verb: "message_linked", TS: ts(i + k), Detail: fmt.Sprintf("M-%d %s", i*10+k, text(4))})
		}
		d.Cases = d.Cases.Append(c)
		for k := 0; k < 10; k++ {
			n := (i-1)*10 + k + 1
			body := text(200)
			d.Messages = d.Messages.Append(&wire.Message{
				ID: fmt.Sprintf("M-%d", n), Source: "gmail", From: vocab[rng.IntN(len(vocab))] + "@vendor.example",
				To: wire.Addresses{"me@example.com"}, Cc: wire.Addresses{vocab[rng.IntN(len(vocab))] + "@example.com"},
				Subject: "Re: " + text(6), Preview: body[:160], Body: body,
				ReceivedAt: ts(n), Read: k%3 == 0, CaseID: id, URL: fmt.Sprintf("https://mail.example.com/m/%d", n),
			})
		}
	}
	d.Version = int64(cases)
	d.Counters = storefile.Counters(d)
	return d
}

// SyncBuffer collects a child's output from its copying goroutine.
type SyncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends p.
func (b *SyncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String is everything written so far.
func (b *SyncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Eventually polls cond until it holds, and fails the test when a generous
// bound passes first: tests assert what happens, not how fast.
func Eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting: %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// GoBuild builds the command pkg of the workspace into dir and returns the
// binary's path.
func GoBuild(t testing.TB, dir, pkg string) string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go tool is needed to build %s: %v", pkg, err)
	}
	bin := filepath.Join(dir, filepath.Base(pkg))
	cmd := exec.Command(gobin, "build", "-o", bin, pkg)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build %s: %v\n%s", pkg, err, out)
	}
	return bin
}

// FreeAddr is a loopback address with a port free at the time of the call.
func FreeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// SeedEnv names the variable that replays a randomized test: set it to the
// seed a failed run logged.
const SeedEnv = "OPSBOARD_TEST_SEED"

// Seed returns the seed for a randomized test and logs it, so a failure can
// be replayed: the value of SeedEnv when set, else a fresh one.
func Seed(t testing.TB) uint64 {
	t.Helper()
	seed := uint64(time.Now().UnixNano())
	if v := os.Getenv(SeedEnv); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatalf("%s=%q is not a seed: %v", SeedEnv, v, err)
		}
		seed = n
	}
	t.Logf("random seed %d (replay with %s=%d)", seed, SeedEnv, seed)
	return seed
}
