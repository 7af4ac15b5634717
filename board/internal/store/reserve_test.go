package store

import (
	"os"
	"testing"

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
