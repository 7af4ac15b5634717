package store

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/opsboard/opsboard/board/internal/testkit"
	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

// TestKillDuringCompactionNeverTearsTheDocument kills a process that
// compacts after every write, at random moments, and checks the document on
// disk always parses and, with the journal, holds every acknowledged write.
func TestKillDuringCompactionNeverTearsTheDocument(t *testing.T) {
	if testing.Short() {
		t.Skip("runs child processes")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "board.json")
	seed, _ := writeFixture(t, testkit.BoardDoc(100)) // 2 MB: a compaction takes a while
	data, err := os.ReadFile(seed)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(testkit.Seed(t), 9))
	acked := map[string]string{}
	var maxAcked int64
	torn := 0
	for round := 0; round < 6; round++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCompactingChild$")
		cmd.Env = append(os.Environ(), "STORE_TEST_CHILD_DOC="+path, fmt.Sprintf("STORE_TEST_CHILD_ROUND=%d", round))
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr testkit.SyncBuffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := make(chan string)
		go func() {
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				lines <- sc.Text()
			}
			close(lines)
		}()
		// The kill clock starts with the first acknowledged write, once the
		// child is past its start.
		var kill <-chan time.Time
		started := false
	read:
		for {
			select {
			case line, ok := <-lines:
				if !ok {
					break read
				}
				var v int64
				var id, title string
				if f := strings.SplitN(line, " ", 3); len(f) == 3 && f[0] != "" {
					v, _ = strconv.ParseInt(f[0], 10, 64)
					id, title = f[1], f[2]
					acked[id] = title
					maxAcked = max(maxAcked, v)
				}
				if !started {
					started = true
					kill = time.After(time.Duration(20+rng.IntN(400)) * time.Millisecond)
				}
			case <-kill:
				cmd.Process.Signal(syscall.SIGKILL)
				kill = nil
			}
		}
		cmd.Wait()
		if _, err := os.Stat(path + ".tmp"); err == nil {
			torn++ // killed while writing the next document: it must not show
		}
		doc, err := storefile.ReadDoc(path)
		if err != nil {
			t.Fatalf("round %d: the document does not parse: %v\n%s", round, err, stderr.String())
		}
		state, err := storefile.Load(path)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		have := map[string]string{}
		for _, c := range state.Cases.All() {
			have[c.ID] = c.Title
		}
		for id, title := range acked {
			if have[id] != title {
				t.Fatalf("round %d: acknowledged %s %q missing (have %q)", round, id, title, have[id])
			}
		}
		if state.Version < maxAcked || doc.Version > state.Version {
			t.Fatalf("round %d: document v%d, with journal v%d, acknowledged v%d", round, doc.Version, state.Version, maxAcked)
		}
	}
	t.Logf("%d writes acknowledged; %d kills landed while a new document was being written", len(acked), torn)
}

// TestCompactingChild is the child process of the test above; it does
// nothing in a normal run.
func TestCompactingChild(t *testing.T) {
	path := os.Getenv("STORE_TEST_CHILD_DOC")
	if path == "" {
		t.Skip("only runs as a child process")
	}
	cfg := quietConfig(path)
	cfg.CompactIdle, cfg.CompactMaxDelay, cfg.CompactEntries = time.Millisecond, time.Millisecond, 1
	s, err := Open(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	round := os.Getenv("STORE_TEST_CHILD_ROUND")
	for i := 0; ; i++ {
		title := fmt.Sprintf("round %s write %d", round, i)
		var id string
		v, err := s.Update(context.Background(), wire.ActorAgent, nil, func(tx *Tx) error {
			id = tx.NextID("CASE")
			tx.Cases().Put(&wire.Case{ID: id, Title: title, Status: "todo", Domain: "work", Kind: "case"})
			return nil
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		fmt.Printf("%d %s %s\n", v, id, title) // acknowledged: durable from here on
	}
}
