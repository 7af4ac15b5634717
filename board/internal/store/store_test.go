package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

func open(t testing.TB, path string) *Store {
	t.Helper()
	s, err := Open(Config{Path: path, CompactIdle: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func addCase(t testing.TB, s *Store, title string) (string, int64) {
	t.Helper()
	var id string
	v, err := s.Update(context.Background(), wire.ActorHuman, nil, func(tx *Tx) error {
		id = tx.NextID("CASE")
		tx.Cases().Put(&wire.Case{ID: id, Title: title, Status: "todo", Domain: "work", Kind: "case", CreatedAt: tx.Stamp(), UpdatedAt: tx.Stamp()})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return id, v
}

func titles(d *wire.Doc) []string {
	var out []string
	for _, c := range d.Cases.All() {
		out = append(out, c.ID+" "+c.Title)
	}
	return out
}

func TestWritesSurviveReopenWithAndWithoutCompaction(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board.json")
	s := open(t, path)
	addCase(t, s, "one")
	addCase(t, s, "two")
	want := titles(s.Snapshot())
	// Read the state as another process would, before any compaction.
	d, err := storefile.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, titles(d)); diff != "" {
		t.Errorf("shared reader before compaction (-want +got)\n%s", diff)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = open(t, path)
	defer s.Close()
	if diff := cmp.Diff(want, titles(s.Snapshot())); diff != "" {
		t.Errorf("after reopen (-want +got)\n%s", diff)
	}
	if id, _ := addCase(t, s, "three"); id != "CASE-3" {
		t.Errorf("minted %s after reopen, want CASE-3", id)
	}
}

func TestRejectedWriteChangesNothing(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "board.json"))
	defer s.Close()
	_, v := addCase(t, s, "one")
	before := s.Snapshot()
	_, err := s.Update(context.Background(), wire.ActorHuman, nil, func(tx *Tx) error {
		tx.NextID("CASE")
		c, _ := tx.Cases().Get("CASE-1")
		c.Title = "changed"
		tx.Cases().Put(c)
		return errs.BadRequest("no")
	})
	if err == nil {
		t.Fatal("write succeeded")
	}
	stale := v - 1
	if _, err := s.Update(context.Background(), wire.ActorHuman, &stale, func(tx *Tx) error { return nil }); err == nil {
		t.Fatal("stale expectedVersion accepted")
	}
	if s.Snapshot() != before || before.Cases.At(0).Title != "one" {
		t.Fatal("rejected write changed the state")
	}
	if id, _ := addCase(t, s, "two"); id != "CASE-2" {
		t.Errorf("a rejected write consumed an id: minted %s", id)
	}
}

func TestConcurrentWritersAllDurable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board.json")
	s := open(t, path)
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < 25; i++ {
				addCase(t, s, fmt.Sprintf("w%d-%d", w, i))
			}
		}(w)
	}
	wg.Wait()
	if n := s.Snapshot().Cases.Len(); n != 200 {
		t.Fatalf("%d cases, want 200", n)
	}
	s.Close()
	d, err := storefile.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if d.Cases.Len() != 200 || d.Version != 200 {
		t.Fatalf("reloaded %d cases at version %d, want 200 at 200", d.Cases.Len(), d.Version)
	}
}

// TestTrimKeepsWritesAppendedMeanwhile: a trim copies the journal's rest
// while writers go on appending; what they append before the new file takes
// the journal's name must be in it.
func TestTrimKeepsWritesAppendedMeanwhile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board.json")
	s, err := Open(Config{Path: path, CompactIdle: time.Hour, CompactMaxDelay: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				addCase(t, s, fmt.Sprintf("w%d-%d %s", w, i, strings.Repeat("x", 2000)))
			}
		}(w)
	}
	for range 40 {
		if err := s.compact(); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	want := s.Snapshot()
	got, err := storefile.Load(path) // the document and the journal on disk
	if err != nil {
		t.Fatal(err)
	}
	if got.Version != want.Version || got.Cases.Len() != want.Cases.Len() {
		t.Fatalf("on disk: %d cases at version %d; acknowledged: %d at %d", got.Cases.Len(), got.Version, want.Cases.Len(), want.Version)
	}
}

func TestSecondStoreOnSameFileRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board.json")
	s := open(t, path)
	defer s.Close()
	if _, err := Open(Config{Path: path}); err == nil {
		t.Fatal("second store opened the same file")
	}
}

func TestTornJournalTailIsCut(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board.json")
	s := open(t, path)
	addCase(t, s, "kept")
	s.Close()
	f, _ := os.OpenFile(storefile.JournalPath(path), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`0000abcd {"v":99,"cases":[{"id":"CASE-9`)
	f.Close()
	s = open(t, path)
	defer s.Close()
	if diff := cmp.Diff([]string{"CASE-1 kept"}, titles(s.Snapshot())); diff != "" {
		t.Fatal(diff)
	}
	addCase(t, s, "after")
	d, _ := storefile.Load(path)
	if d.Cases.Len() != 2 {
		t.Fatalf("entry after a cut tail not readable: %v", titles(d))
	}
}
