package store

import (
	"os"
	"testing"
	"time"

	"github.com/opsboard/opsboard/board/internal/testkit"
)

// reserveOf opens a store on path and returns its reserve's size after the
// open and the document's (its mail bodies moved out by then), skipping
// where the file system cannot preallocate.
func reserveOf(t *testing.T, path string) (reserve, doc int64) {
	t.Helper()
	s := mustOpen(t, manualConfig(path))
	defer s.Close()
	fi, err := os.Stat(s.reservePath())
	if err != nil {
		t.Skipf("no reserve on this file system: %v", err)
	}
	di, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size(), di.Size()
}

func TestReserveHoldsOneCompactionNotTwoDocuments(t *testing.T) {
	path, _ := writeFixture(t, testkit.BoardDoc(1000)) // large enough to pass the reserve's 4 MB floor
	got, size := reserveOf(t, path)
	if got < size+1<<20 || got >= 2*size {
		t.Fatalf("reserve of %d bytes for a %d-byte document; want room for one new document and a margin, under twice the document", got, size)
	}
}

func TestReserveLeftTooLargeShrinks(t *testing.T) {
	path, size := writeFixture(t, testkit.BoardDoc(200))
	// An older board kept twice the document and a snapshot's worth more.
	if err := os.WriteFile(path+".reserve", make([]byte, 3*size), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, _ := reserveOf(t, path); got >= 2*size {
		t.Fatalf("a %d-byte reserve left for a %d-byte document stayed %d bytes", 3*size, size, got)
	}
}

// compactionRoomOf is the reserve the store keeps with no previous document.
func compactionRoomOf(s *Store) int64 {
	size := s.docSize.Load()
	return min(max(size+size/4+2<<20, 4<<20), 1<<30)
}

func TestReserveCountsThePreviousDocument(t *testing.T) {
	path, _ := writeFixture(t, testkit.BoardDoc(1000)) // large enough that the reserve less prev stays above its floor
	clock := &fakeClock{t: time.Date(2025, 3, 1, 8, 0, 0, 0, time.UTC)}
	cfg := manualConfig(path)
	cfg.Now = clock.now
	s := mustOpen(t, cfg)
	defer s.Close()
	if !fileExists(s.reservePath()) {
		t.Skip("no reserve on this file system")
	}
	step := func(i int) {
		t.Helper()
		if err := patchTitle(s, "CASE-1", i); err != nil {
			t.Fatal(err)
		}
		compactNow(t, s)
	}
	// The first compaction takes the first snapshot, which holds what the
	// document it replaced held: no previous document stays.
	step(1)
	if got, want := fileSize(s.reservePath()), compactionRoomOf(s); fileExists(s.prevPath()) || got != want {
		t.Fatalf("with no previous document (present: %v) the reserve is %d bytes, want %d", fileExists(s.prevPath()), got, want)
	}
	// No snapshot is due yet: the document the second compaction replaced
	// stays as prev, and its blocks are part of the room a full disk gets.
	step(2)
	prev := fileSize(s.prevPath())
	want := compactionRoomOf(s) - prev
	if want <= 4<<20 {
		t.Fatalf("the fixture is too small: a %d-byte prev takes the reserve to its floor", prev)
	}
	if got := fileSize(s.reservePath()); prev == 0 || got != want {
		t.Fatalf("the reserve is %d bytes beside a %d-byte previous document, want %d (%d less it)", got, prev, want, compactionRoomOf(s))
	}
	// A snapshot comes due and holds prev's version: prev goes, and the
	// reserve takes its room back in the same compaction.
	clock.advance(16 * time.Minute)
	step(3)
	if fileExists(s.prevPath()) {
		t.Fatalf("%s stayed beside a snapshot of version %d", s.prevPath(), s.snapVersion)
	}
	if got, want := fileSize(s.reservePath()), compactionRoomOf(s); got != want {
		t.Fatalf("once the previous document went the reserve is %d bytes, want %d", got, want)
	}
}
