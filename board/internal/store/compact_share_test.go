package store

import (
	"testing"
	"time"

	"github.com/opsboard/opsboard/board/internal/testkit"
	"github.com/opsboard/opsboard/shared/storefile"
)

// largeConfig makes every document large, with a clock and a count of
// entries that would fold each write at once into a small one.
func largeConfig(path string, quiet time.Duration) Config {
	cfg := quietConfig(path)
	cfg.CompactIdle, cfg.CompactMaxDelay, cfg.CompactEntries = time.Millisecond, time.Millisecond, 1
	cfg.CompactBytes = 1
	cfg.CompactLargeFrom = 1
	cfg.CompactQuiet = quiet
	return cfg
}

func TestLargeDocumentWaitsForItsJournalShare(t *testing.T) {
	path, _ := writeFixture(t, testkit.BoardDoc(20))
	s := mustOpen(t, largeConfig(path, time.Hour))
	defer s.Close()
	size := s.docSize.Load() // as stored: the seeded mail bodies moved to their own file
	from := s.compacted.Load()
	for i := range 5 {
		if err := patchTitle(s, "CASE-1", i); err != nil {
			t.Fatal(err)
		}
	}
	// A small document would have been rewritten a millisecond after each
	// write; this one's journal is far below a quarter of it.
	time.Sleep(300 * time.Millisecond)
	if got := s.compacted.Load(); got != from {
		t.Fatalf("the document was rewritten at version %d after %d bytes of journal, under a quarter of its %d", got, s.j.sizeNow.Load(), size)
	}
	for i := 0; s.j.sizeNow.Load() < size/compactShare; i++ {
		if err := patchTitle(s, "CASE-2", i); err != nil {
			t.Fatal(err)
		}
	}
	testkit.Eventually(t, "the journal's share folded into the document", func() bool { return s.compacted.Load() == s.Version() })
}

func TestLargeDocumentCatchesUpOnceQuiet(t *testing.T) {
	path, _ := writeFixture(t, testkit.BoardDoc(20))
	s := mustOpen(t, largeConfig(path, 50*time.Millisecond))
	defer s.Close()
	if err := patchTitle(s, "CASE-1", 1); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, "the quiet board's document holds the write", func() bool { return s.compacted.Load() == s.Version() })
}

func TestPreviousDocumentGoesOnceASnapshotHoldsIt(t *testing.T) {
	path, _ := writeFixture(t, testkit.BoardDoc(5))
	s := mustOpen(t, manualConfig(path))
	defer s.Close()
	step := func(i int) {
		t.Helper()
		if err := patchTitle(s, "CASE-1", i); err != nil {
			t.Fatal(err)
		}
		if err := s.compact(); err != nil {
			t.Fatal(err)
		}
	}
	// The first compaction keeps the loaded document as the previous one
	// and takes the first snapshot of the new one, which holds more.
	step(1)
	if fileExists(s.prevPath()) {
		t.Fatalf("%s stayed beside a snapshot of version %d that holds all of it", s.prevPath(), s.snapVersion)
	}
	// The next snapshot is not due yet: the document the second compaction
	// replaced is still the newest snapshot's; the one the third replaced
	// is newer than any snapshot, and the journal is trimmed to it.
	step(2)
	step(3)
	if !fileExists(s.prevPath()) {
		t.Fatalf("%s is gone with no snapshot holding version %d", s.prevPath(), s.compacted.Load()-1)
	}
	s.Close()
	d, err := storefile.Load(path)
	if err != nil || d.Cases.At(0).Title != "Renew the vendor contract, round 3" {
		t.Fatalf("after reopen: %v %v", err, d)
	}
}
