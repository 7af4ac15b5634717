package store

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/testkit"
	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

func TestWriteDocDecodesToTheSameDocument(t *testing.T) {
	d := testkit.BoardDoc(20)
	d.Priorities = wire.List[*wire.Priority]{} // an absent collection stays absent
	var got bytes.Buffer
	if err := WriteDoc(&got, d); err != nil {
		t.Fatal(err)
	}
	want, err := encodeDoc(d)
	if err != nil {
		t.Fatal(err)
	}
	a, err := storefile.Decode(want)
	if err != nil {
		t.Fatal(err)
	}
	b, err := storefile.Decode(got.Bytes())
	if err != nil {
		t.Fatalf("%v\n%.300s", err, got.Bytes())
	}
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("(-board's encoding +WriteDoc)\n%s", diff)
	}
	if lines := bytes.Count(got.Bytes(), []byte("\n")); lines < d.Cases.Len()+d.Messages.Len() {
		t.Errorf("%d lines for %d records: not one record a line", lines, d.Cases.Len()+d.Messages.Len())
	}
}

func TestLockRefusesWhileAStoreIsOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board.json")
	s := open(t, path)
	if _, err := Lock(path); err == nil {
		t.Fatal("Lock succeeded while a store held the file")
	}
	s.Close()
	unlock, err := Lock(path)
	if err != nil {
		t.Fatalf("Lock after close: %v", err)
	}
	unlock()
}

// TestRestoreDocInstallsAboveTheHighWaterMark checks the dry run writes
// nothing, and applying moves the current files aside and installs the
// document with a version and counters above any the board handed out.
func TestRestoreDocInstallsAboveTheHighWaterMark(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board.json")
	s := open(t, path)
	addCase(t, s, "kept")
	held := s.Snapshot()
	lost, acked := addCase(t, s, "made after the copy")
	s.Close()
	files := func() map[string][]byte {
		out := map[string][]byte{}
		entries, _ := os.ReadDir(filepath.Dir(path))
		for _, e := range entries {
			if !e.IsDir() {
				out[e.Name()], _ = os.ReadFile(filepath.Join(filepath.Dir(path), e.Name()))
			}
		}
		return out
	}
	before := files()
	plan, err := RestoreDoc(path, held, "off-site copy", "")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(before, files()); diff != "" {
		t.Fatalf("the dry run wrote (-before +after)\n%s", diff)
	}
	if got := plan.Collections[0].Lost; len(got) != 1 || got[0] != lost {
		t.Errorf("lost %v, want [%s]", got, lost)
	}
	unlock, err := Lock(path)
	if err != nil {
		t.Fatal(err)
	}
	aside := AsideDir(filepath.Dir(path), time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	if _, err := RestoreDoc(path, held, "off-site copy", aside); err != nil {
		t.Fatal(err)
	}
	unlock()
	if got, err := os.ReadFile(filepath.Join(aside, "board.json")); err != nil || !bytes.Equal(got, before["board.json"]) {
		t.Errorf("the previous document was not moved aside whole (%v)", err)
	}
	d, err := storefile.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(titles(held), titles(d)); diff != "" {
		t.Errorf("restored cases (-want +got)\n%s", diff)
	}
	if d.Version <= acked {
		t.Errorf("version %d, want above %d", d.Version, acked)
	}
	s = open(t, path)
	defer s.Close()
	next, _ := addCase(t, s, "after the restore")
	if next == lost {
		t.Errorf("minted %s again", lost)
	}
}
