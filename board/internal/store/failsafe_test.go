package store

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/testkit"
	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

// manualConfig is a store whose compaction runs only when the test calls
// it, so the test decides what the document on disk holds.
func manualConfig(path string) Config {
	cfg := quietConfig(path)
	cfg.CompactIdle, cfg.CompactMaxDelay, cfg.CompactEntries = time.Hour, time.Hour, 1<<30
	return cfg
}

func mustOpen(t testing.TB, cfg Config) *Store {
	t.Helper()
	s, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// create adds a case and returns its id and the version that acknowledged it.
func create(t testing.TB, s *Store, title string) (string, int64) {
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

func rename(t testing.TB, s *Store, id, title string) int64 {
	t.Helper()
	v, err := s.Update(context.Background(), wire.ActorHuman, nil, func(tx *Tx) error {
		c, ok := tx.Cases().Get(id)
		if !ok {
			return errs.NotFound("case %s not found", id)
		}
		c.Title = title
		tx.Cases().Put(c)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func caseTitles(d *wire.Doc) []string {
	out := []string{}
	for _, c := range d.Cases.All() {
		out = append(out, c.ID+" "+c.Title)
	}
	sort.Strings(out)
	return out
}

// crash stops s as a kill would leave it: every acknowledged write in the
// journal, no compaction at the end.
func crash(s *Store) {
	s.writeMu.Lock()
	s.closed.Store(true)
	s.writeMu.Unlock()
	close(s.stop)
	s.wg.Wait()
	s.j.close()
	s.unlock()
}

func compactNow(t testing.TB, s *Store) {
	t.Helper()
	if err := s.compact(); err != nil {
		t.Fatal(err)
	}
}

// editDocument rewrites the document as a person with an editor would:
// read it, change it, save it in place.
func editDocument(t testing.TB, path string, change func(d *wire.Doc)) {
	t.Helper()
	d, err := storefile.ReadDoc(path)
	if err != nil {
		t.Fatal(err)
	}
	change(d)
	data, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

func brokenCopies(t testing.TB, path string) map[string][]byte {
	t.Helper()
	matches, err := filepath.Glob(path + ".broken-*")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, m := range matches {
		data, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		out[m] = data
	}
	return out
}

func problems(s *Store) string { return strings.Join(s.Health().Problems, " | ") }

func TestGoodHandEditIsPickedUpWithTheJournalOnTop(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board.json")
	s := mustOpen(t, manualConfig(path))
	defer s.Close()
	create(t, s, "one")
	create(t, s, "two")
	compactNow(t, s) // the document holds CASE-1 and CASE-2
	rename(t, s, "CASE-2", "two, renamed after the compaction")
	create(t, s, "three")
	seen := s.Version() // journal entries newer than the document

	var versions []int64
	cancel := s.OnChange(func(v int64) { versions = append(versions, v) })
	defer cancel()
	editDocument(t, path, func(d *wire.Doc) {
		d.Cases.At(0).Title = "one, edited by hand"
		d.Cases.At(1).Title = "two, edited by hand from a stale copy"
		d.Messages = d.Messages.Append(&wire.Message{ID: "M-7", Subject: "pasted in by hand", CaseID: "CASE-1"})
	})
	testkit.Eventually(t, "the hand edit to show", func() bool { return s.Snapshot().Cases.At(0).Title == "one, edited by hand" })

	want := []string{"CASE-1 one, edited by hand", "CASE-2 two, renamed after the compaction", "CASE-3 three"}
	if diff := cmp.Diff(want, caseTitles(s.Snapshot())); diff != "" {
		t.Errorf("state after the edit: the edit with newer journal entries on top (-want +got)\n%s", diff)
	}
	if got := s.Version(); got <= seen {
		t.Errorf("version %d after the reload, want above %d (every version seen before)", got, seen)
	}
	if s.Snapshot().Messages.Len() != 1 {
		t.Errorf("the message added by hand is missing: %v", s.Snapshot().Messages)
	}
	if s.Health().Degraded {
		t.Errorf("degraded after a good edit: %s", problems(s))
	}
	// Ids go on from the highest seen, also the one typed in by hand.
	if id, _ := create(t, s, "four"); id != "CASE-4" {
		t.Errorf("minted %s, want CASE-4", id)
	}
	var mid string
	s.Update(context.Background(), wire.ActorHuman, nil, func(tx *Tx) error { mid = tx.NextID("M"); return nil })
	if mid != "M-8" {
		t.Errorf("minted %s, want M-8", mid)
	}

	// The reloaded state is what the files hold, for another reader and for a restart.
	want = append(want, "CASE-4 four")
	testkit.Eventually(t, "the reloaded document to be written back", func() bool {
		d, err := storefile.ReadDoc(path)
		return err == nil && d.Version >= seen
	})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	d, err := storefile.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, caseTitles(d)); diff != "" {
		t.Errorf("after close (-want +got)\n%s", diff)
	}
	s = mustOpen(t, manualConfig(path))
	defer s.Close()
	if diff := cmp.Diff(want, caseTitles(s.Snapshot())); diff != "" {
		t.Errorf("after reopen (-want +got)\n%s", diff)
	}
	for i := 1; i < len(versions); i++ {
		if versions[i] <= versions[i-1] {
			t.Errorf("versions went %d then %d", versions[i-1], versions[i])
		}
	}
}

func TestBrokenHandEditKeepsServingAndLosesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board.json")
	s := mustOpen(t, manualConfig(path))
	create(t, s, "one")
	create(t, s, "two")
	compactNow(t, s)
	create(t, s, "three") // only in the journal
	before := caseTitles(s.Snapshot())
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}

	broken := []byte(`{"schemaVersion": 7, "version": 2, "cases": [ {"id": "CASE-1", "title": "one" ` + "\n")
	if err := os.WriteFile(path, broken, 0o600); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, "the board to report the broken file", func() bool { return s.Health().Degraded })
	if msg := problems(s); !strings.Contains(msg, "board.json does not parse") || !strings.Contains(msg, ".broken-") {
		t.Errorf("health problem %q does not name the file and its copy", msg)
	}
	copies := brokenCopies(t, path)
	if len(copies) != 1 {
		t.Fatalf("%d broken copies, want 1", len(copies))
	}
	for name, data := range copies {
		if !bytes.Equal(data, broken) {
			t.Errorf("%s holds %q, want the broken bytes", name, data)
		}
	}
	if diff := cmp.Diff(before, caseTitles(s.Snapshot())); diff != "" {
		t.Errorf("served state changed (-want +got)\n%s", diff)
	}

	// Writes go on; the broken file is left for the person.
	create(t, s, "four while broken")
	compactNow(t, s)
	if data, _ := os.ReadFile(path); !bytes.Equal(data, broken) {
		t.Errorf("the broken file was replaced: %q", data)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); !bytes.Equal(data, broken) {
		t.Errorf("close replaced the broken file: %q", data)
	}

	// A restart on the broken file starts from the newest good snapshot plus
	// the journal: nothing is lost, and it says so.
	want := append(before, "CASE-4 four while broken")
	sort.Strings(want)
	s = mustOpen(t, manualConfig(path))
	defer s.Close()
	if diff := cmp.Diff(want, caseTitles(s.Snapshot())); diff != "" {
		t.Errorf("restart on the broken file (-want +got)\n%s", diff)
	}
	if !s.Health().Degraded {
		t.Error("restart on the broken file is not degraded")
	}
	if len(brokenCopies(t, path)) != 1 {
		t.Errorf("the same broken content was copied again: %v", brokenCopies(t, path))
	}
	create(t, s, "five after restart")
	want = append(want, "CASE-5 five after restart")

	// The person repairs the file (here: back to the last good document);
	// the journal's newer writes land on top and degraded clears.
	if err := os.WriteFile(path, good, 0o600); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, "the repaired file to be picked up", func() bool { return !s.Health().Degraded })
	if diff := cmp.Diff(want, caseTitles(s.Snapshot())); diff != "" {
		t.Errorf("after the repair (-want +got)\n%s", diff)
	}
	testkit.Eventually(t, "the document to be written again", func() bool {
		d, err := storefile.ReadDoc(path)
		return err == nil && d.Version == s.Version()
	})
	d, err := storefile.ReadDoc(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, caseTitles(d)); diff != "" {
		t.Errorf("document after the repair (-want +got)\n%s", diff)
	}
}

func TestStartOnBrokenFileWithoutSnapshotUsesTheJournal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board.json")
	s := mustOpen(t, manualConfig(path))
	create(t, s, "one")
	create(t, s, "two")
	// No compaction ran: the journal holds everything, and no snapshot exists.
	crash(s)
	if err := os.WriteFile(path, []byte("{ not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	s2 := mustOpen(t, manualConfig(path))
	defer s2.Close()
	if diff := cmp.Diff([]string{"CASE-1 one", "CASE-2 two"}, caseTitles(s2.Snapshot())); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if !s2.Health().Degraded {
		t.Error("not degraded")
	}
}

func TestDeletedDocumentIsRewritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board.json")
	s := mustOpen(t, manualConfig(path))
	defer s.Close()
	create(t, s, "one")
	compactNow(t, s)
	create(t, s, "two")
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, "the document to be written again", func() bool {
		d, err := storefile.ReadDoc(path)
		return err == nil && d.Version == s.Version()
	})
	d, err := storefile.ReadDoc(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"CASE-1 one", "CASE-2 two"}, caseTitles(d)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if s.Health().Degraded {
		t.Errorf("degraded: %s", problems(s))
	}
}

func TestDeletedWhileDownIsRestoredFromSnapshotAndJournal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board.json")
	s := mustOpen(t, manualConfig(path))
	create(t, s, "one")
	compactNow(t, s) // the first compaction also takes a snapshot
	create(t, s, "two")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	s = mustOpen(t, manualConfig(path))
	defer s.Close()
	if diff := cmp.Diff([]string{"CASE-1 one", "CASE-2 two"}, caseTitles(s.Snapshot())); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if id, _ := create(t, s, "three"); id != "CASE-3" {
		t.Errorf("minted %s, want CASE-3", id)
	}
}

// TestCompactionNeverOverwritesAHandEdit saves hand edits while writes keep
// the compactor busy: every edit must end up in the state, none may be
// replaced by a compaction before the board read it.
func TestCompactionNeverOverwritesAHandEdit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board.json")
	cfg := quietConfig(path)
	cfg.CompactIdle, cfg.CompactMaxDelay = time.Millisecond, time.Millisecond
	s := mustOpen(t, cfg)
	defer s.Close()
	create(t, s, "one")
	hasMessage := func(id string) bool {
		for _, m := range s.Snapshot().Messages.All() {
			if m.ID == id {
				return true
			}
		}
		return false
	}
	for i := 0; i < 10; i++ {
		id := fmt.Sprintf("M-%d", 100+i)
		testkit.Eventually(t, "a compacted document", func() bool {
			d, err := storefile.ReadDoc(path)
			return err == nil && d.Version == s.Version()
		})
		editDocument(t, path, func(d *wire.Doc) {
			d.Messages = d.Messages.Append(&wire.Message{ID: id, Subject: "typed in by hand"})
		})
		rename(t, s, "CASE-1", fmt.Sprintf("written while the edit is saved %d", i)) // wakes the compactor
		testkit.Eventually(t, "hand edit "+id+" to be picked up", func() bool { return hasMessage(id) })
	}
	if s.Health().Degraded {
		t.Errorf("degraded: %s", problems(s))
	}
	if s.Snapshot().Messages.Len() != 10 {
		t.Errorf("%d messages, want the 10 typed in", s.Snapshot().Messages.Len())
	}
}

var laterLine, _ = storefile.AppendEntry(nil, &storefile.Entry{Version: 4, Cases: []*wire.Case{{ID: "CASE-4", Title: "after the damage"}}})

func TestDamagedJournalTailIsKeptAside(t *testing.T) {
	for _, tc := range []struct {
		name      string
		damage    func(good []byte) []byte
		wantAside bool
		later     []byte // a good line after the damage, which is kept and replayed
	}{
		{"a torn last line is only cut", func(good []byte) []byte { return append(good, `0badc0de {"v":3,"cases":[`...) }, false, nil},
		{"zeros after a crash are only cut", func(good []byte) []byte { return append(good, make([]byte, 100)...) }, false, nil},
		{"a damaged journal is kept aside, the good lines after the damage replayed", func(good []byte) []byte {
			return append(append(good, "00000000 {\"v\":3}\n"...), laterLine...)
		}, true, laterLine},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "board.json")
			s := mustOpen(t, manualConfig(path))
			create(t, s, "one")
			create(t, s, "two")
			crash(s)
			jp := storefile.JournalPath(path)
			good, err := os.ReadFile(jp)
			if err != nil {
				t.Fatal(err)
			}
			damaged := tc.damage(bytes.Clone(good))
			if err := os.WriteFile(jp, damaged, 0o600); err != nil {
				t.Fatal(err)
			}
			s = mustOpen(t, manualConfig(path))
			defer s.Close()
			want := []string{"CASE-1 one", "CASE-2 two"}
			if tc.later != nil {
				want = append(want, "CASE-4 after the damage")
			}
			if diff := cmp.Diff(want, caseTitles(s.Snapshot())); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			if got, _ := os.ReadFile(jp); tc.later == nil && !bytes.Equal(got, good) {
				t.Errorf("journal not cut back to its good entries")
			}
			aside, _ := filepath.Glob(jp + ".damaged-*")
			if (len(aside) > 0) != tc.wantAside {
				t.Fatalf("copies %v, want a copy: %v", aside, tc.wantAside)
			}
			if tc.wantAside {
				kept, _ := os.ReadFile(aside[0])
				if !bytes.Equal(kept, damaged) {
					t.Errorf("copy holds %q, want the damaged journal", kept)
				}
				if h := problems(s); !strings.Contains(h, "1 acknowledged write is missing (version 3)") || !strings.Contains(h, aside[0]) {
					t.Errorf("health %q, want the missing write and the copy named", h)
				}
			}
		})
	}
}
