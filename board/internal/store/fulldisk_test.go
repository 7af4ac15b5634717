package store

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/opsboard/opsboard/board/internal/testkit"
	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

// tmpfsOrSkip mounts a tmpfs of size for a test and unmounts it after.
func tmpfsOrSkip(t *testing.T, size string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting needs root")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("mount tmpfs: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	return dir
}

// fillUp writes a file in dir until the file system is full.
func fillUp(t *testing.T, dir string) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, n := range []int{1 << 20, 4 << 10, 512} {
		chunk := make([]byte, n)
		for {
			if _, err := f.Write(chunk); err != nil {
				break
			}
		}
	}
}

func TestFullDiskRecoversWithTheReserveAndThePreviousDocument(t *testing.T) {
	mnt := tmpfsOrSkip(t, "128m")
	path := filepath.Join(mnt, "board.json")
	data, err := encodeDoc(testkit.BoardDoc(1000))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	s := mustOpen(t, manualConfig(path))
	defer s.Close()
	// Two compactions: the first one's snapshot covers what it replaced,
	// the second keeps the document it replaced as prev.
	for i := range 2 {
		if err := patchTitle(s, "CASE-1", i); err != nil {
			t.Fatal(err)
		}
		compactNow(t, s)
	}
	reserve, prev, doc := fileSize(s.reservePath()), fileSize(s.prevPath()), s.docSize.Load()
	if reserve >= doc || reserve+prev < doc+doc/4 {
		t.Fatalf("reserve %d, prev %d, document %d bytes: want a reserve that holds a new document only with prev's room", reserve, prev, doc)
	}

	// Writes the document does not hold yet: the recovery must rewrite it.
	acked := "" // CASE-2's title as last acknowledged
	for i := range 20 {
		if err := patchTitle(s, "CASE-2", 100+i); err != nil {
			t.Fatal(err)
		}
		acked = titleOf(100 + i)
	}
	fillUp(t, mnt)
	for i := 0; ; i++ {
		if i == 10000 {
			t.Fatal("10000 writes succeeded on a full disk")
		}
		if patchTitle(s, "CASE-2", i) != nil {
			break
		}
		acked = titleOf(i)
	}
	// Nothing frees on the disk: the board's own reserve and prev are all
	// the room it gets to bring the document up to date.
	testkit.Eventually(t, "writes accepted again", func() bool { return patchTitle(s, "CASE-3", 1) == nil })
	entries, _, err := storefile.ReadJournalFile(storefile.JournalPath(path))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Fatalf("%d journal entries after the recovery and one write, want the one write", len(entries))
	}
	if !sameFile(path, s.prevPath()) {
		t.Fatalf("%s is not the recovered document", s.prevPath())
	}
	// Still full: shutdown brings the document up to date the same way.
	if err := s.Close(); err != nil {
		t.Fatalf("close on a full disk: %v", err)
	}
	d, err := storefile.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := titleIn(d, "CASE-3"); got != titleOf(1) {
		t.Errorf("after close CASE-3 is titled %q, want %q", got, titleOf(1))
	}
	if got := titleIn(d, "CASE-2"); acked != "" && got != acked {
		t.Errorf("after close CASE-2 is titled %q, want the last acknowledged %q", got, acked)
	}
}

func titleIn(d *wire.Doc, id string) string {
	i := d.Cases.IndexFunc(func(c *wire.Case) bool { return c.ID == id })
	if i < 0 {
		return ""
	}
	return d.Cases.At(i).Title
}

// titleOf is the title patchTitle gives for round i.
func titleOf(i int) string { return fmt.Sprintf("Renew the vendor contract, round %d", i) }
