package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/opsboard/opsboard/board/internal/testkit"
	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

type ackedCase struct {
	id, title string
	version   int64
}

// ledger records every write the daemon acknowledged, and any answer that
// was neither an acknowledgement nor a dropped connection.
type ledger struct {
	mu    sync.Mutex
	acked []ackedCase
	odd   []string
}

func (l *ledger) maxVersion() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	var v int64
	for _, a := range l.acked {
		v = max(v, a.version)
	}
	return v
}

// drive posts cases from several clients until stop closes or the daemon
// stops answering.
func drive(d *daemon, l *ledger, prefix string, clients int, stop <-chan struct{}) *sync.WaitGroup {
	var wg sync.WaitGroup
	for w := 0; w < clients; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			client := &http.Client{Timeout: 10 * time.Second}
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				title := fmt.Sprintf("%s client %d write %d", prefix, w, i)
				body, _ := json.Marshal(map[string]string{"title": title})
				resp, err := client.Post(d.url+"/api/cases", "application/json", bytes.NewReader(body))
				if err != nil {
					return // the daemon is gone: this write was not acknowledged
				}
				raw, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				var out struct {
					Case    wire.Case `json:"case"`
					Version int64     `json:"version"`
				}
				if resp.StatusCode/100 != 2 || json.Unmarshal(raw, &out) != nil || out.Case.Title != title {
					if len(raw) == 0 {
						return // cut off mid-answer
					}
					l.mu.Lock()
					l.odd = append(l.odd, fmt.Sprintf("%d %s", resp.StatusCode, raw))
					l.mu.Unlock()
					return
				}
				l.mu.Lock()
				l.acked = append(l.acked, ackedCase{id: out.Case.ID, title: title, version: out.Version})
				l.mu.Unlock()
			}
		}()
	}
	return &wg
}

// missing lists the acknowledged cases d lacks (by id and title).
func (l *ledger) missing(d *wire.Doc) []string {
	have := map[string]string{}
	for _, c := range d.Cases.All() {
		have[c.ID] = c.Title
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, a := range l.acked {
		if have[a.id] != a.title {
			out = append(out, fmt.Sprintf("%s %q (v%d)", a.id, a.title, a.version))
		}
	}
	return out
}

func listCases(t *testing.T, d *daemon) *wire.Doc {
	t.Helper()
	var out struct {
		Cases []*wire.Case `json:"cases"`
	}
	if code, err := getJSON(d.url+"/api/cases?includeArchived=true", &out); err != nil || code != http.StatusOK {
		t.Fatalf("list cases: %d %v", code, err)
	}
	return &wire.Doc{Cases: wire.ListOf(out.Cases...)}
}

// TestDaemon runs the real board binary: SIGKILL at random points under
// concurrent writes, a second daemon on the same file, a start on a broken
// document, and a graceful SIGTERM.
func TestDaemon(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the daemon")
	}
	data := filepath.Join(t.TempDir(), "board.json")
	var l ledger
	rng := rand.New(rand.NewPCG(testkit.Seed(t), 7))

	t.Run("kill -9 under concurrent writes loses no acknowledged write", func(t *testing.T) {
		for round := 0; round < 5; round++ {
			before := l.maxVersion()
			d := spawn(t, data, nil)
			h := d.ready(t)
			if v := int64(h["version"].(float64)); v < before {
				t.Fatalf("round %d: started at version %d, below the acknowledged %d", round, v, before)
			}
			if miss := l.missing(listCases(t, d)); len(miss) > 0 {
				t.Fatalf("round %d: acknowledged cases missing after restart: %v", round, miss)
			}
			firstNew := len(l.acked)
			stop := make(chan struct{})
			wg := drive(d, &l, fmt.Sprintf("round %d", round), 6, stop)
			// A random moment: early ones hit writes, later ones also the
			// background compaction (every 1-2 s under writes).
			time.Sleep(time.Duration(200+rng.IntN(1800)) * time.Millisecond)
			d.kill()
			close(stop)
			wg.Wait()
			if len(l.odd) > 0 {
				t.Fatalf("round %d: answers that were neither success nor a dropped connection: %v", round, l.odd)
			}
			if len(l.acked) == firstNew {
				t.Fatalf("round %d: no write was acknowledged:\n%s", round, d.stderr)
			}
			for _, a := range l.acked[firstNew:] {
				if a.version <= before {
					t.Fatalf("round %d: write acknowledged at version %d, not above the %d of earlier rounds", round, a.version, before)
				}
			}
			// The files parse as another process reads them, and hold every
			// acknowledged write; the document alone is never torn.
			if _, err := storefile.ReadDoc(data); err != nil && !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("round %d: the document does not parse after the kill: %v", round, err)
			}
			state, err := storefile.Load(data)
			if err != nil {
				t.Fatalf("round %d: load after the kill: %v", round, err)
			}
			if miss := l.missing(state); len(miss) > 0 {
				t.Fatalf("round %d: acknowledged cases missing on disk: %v", round, miss)
			}
			if state.Version < l.maxVersion() {
				t.Fatalf("round %d: disk at version %d, below the acknowledged %d", round, state.Version, l.maxVersion())
			}
			t.Logf("round %d: %d writes acknowledged, disk at version %d", round, len(l.acked)-firstNew, state.Version)
		}
	})

	t.Run("a second daemon on the same file refuses to start", func(t *testing.T) {
		first := spawn(t, data, nil)
		first.ready(t)
		second := spawn(t, data, nil)
		select {
		case <-second.exited:
		case <-time.After(30 * time.Second):
			t.Fatal("the second daemon is still running")
		}
		var exit *exec.ExitError
		if !errors.As(second.err, &exit) || exit.ExitCode() == 0 {
			t.Fatalf("second daemon exit: %v, want a non-zero status", second.err)
		}
		if msg := second.stderr.String(); !strings.Contains(msg, "another board is already running on "+data) {
			t.Errorf("second daemon said %q, want it to name the running board", msg)
		}
		if miss := l.missing(listCases(t, first)); len(miss) > 0 {
			t.Errorf("the first daemon lost cases: %v", miss)
		}
		first.kill()
	})

	t.Run("a start on a broken document serves everything and says so", func(t *testing.T) {
		broken := []byte(`{"schemaVersion": 7, "version": 3, "cases": [ {"id": `)
		if err := os.WriteFile(data, broken, 0o600); err != nil {
			t.Fatal(err)
		}
		d := spawn(t, data, nil)
		h := d.ready(t)
		if h["degraded"] != true || !strings.Contains(fmt.Sprint(h["problems"]), "board.json does not parse") {
			t.Errorf("health %v, want degraded with the reason", h)
		}
		if miss := l.missing(listCases(t, d)); len(miss) > 0 {
			t.Fatalf("acknowledged cases missing: %v", miss)
		}
		stop := make(chan struct{})
		wg := drive(d, &l, "while degraded", 2, stop)
		time.Sleep(300 * time.Millisecond)
		close(stop)
		wg.Wait()
		if err := d.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		<-d.exited
		if d.err != nil {
			t.Errorf("exit: %v\n%s", d.err, d.stderr)
		}
		if got, _ := os.ReadFile(data); !bytes.Equal(got, broken) {
			t.Errorf("the broken document was replaced: %q", got)
		}
		copies, _ := filepath.Glob(data + ".broken-*")
		if len(copies) == 0 {
			t.Error("no copy of the broken document was kept")
		}
		// The person gives up on the broken file and deletes it: the next
		// start rebuilds everything from the newest snapshot and the journal.
		if err := os.Remove(data); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("SIGTERM finishes in-flight writes, compacts and exits 0", func(t *testing.T) {
		d := spawn(t, data, nil)
		h := d.ready(t)
		if h["degraded"] == true {
			t.Errorf("degraded after the broken document was removed: %v", h["problems"])
		}
		if miss := l.missing(listCases(t, d)); len(miss) > 0 {
			t.Fatalf("acknowledged cases missing: %v", miss)
		}
		stop := make(chan struct{})
		wg := drive(d, &l, "until SIGTERM", 6, stop)
		time.Sleep(time.Duration(300+rng.IntN(700)) * time.Millisecond)
		if err := d.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		select {
		case <-d.exited:
		case <-time.After(30 * time.Second):
			t.Fatalf("still running 30 s after SIGTERM:\n%s", d.stderr)
		}
		close(stop)
		wg.Wait()
		if d.err != nil {
			t.Fatalf("exit after SIGTERM: %v\n%s", d.err, d.stderr)
		}
		if len(l.odd) > 0 {
			t.Fatalf("answers that were neither success nor a dropped connection: %v", l.odd)
		}
		// Compacted: the document alone holds every acknowledged write and
		// the journal nothing newer.
		doc, err := storefile.ReadDoc(data)
		if err != nil {
			t.Fatal(err)
		}
		if miss := l.missing(doc); len(miss) > 0 {
			t.Fatalf("acknowledged cases missing from the document: %v", miss)
		}
		state, err := storefile.Load(data)
		if err != nil {
			t.Fatal(err)
		}
		if state.Version != doc.Version || doc.Version < l.maxVersion() {
			t.Errorf("document at version %d, journal reaches %d, acknowledged %d", doc.Version, state.Version, l.maxVersion())
		}
	})
}
