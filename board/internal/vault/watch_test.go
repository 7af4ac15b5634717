package vault

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opsboard/opsboard/shared/vaultpage"
	"github.com/opsboard/opsboard/shared/wire"
)

// A hand edit shows within 2 s: edits, new files, new folders (and files
// in them), moves and deletes.
func TestWatcherPicksUpHandEdits(t *testing.T) {
	f := open(t, obsidian)
	has := func(rel string, cond func(wire.Page) bool) func() bool {
		return func() bool {
			p, err := f.v.Get(rel)
			return err == nil && cond(p)
		}
	}
	f.write("people/Alice Martin.md", strings.Replace(obsidian["people/Alice Martin.md"], "Alice runs ops", "Alice runs sales", 1))
	eventually(t, 2*time.Second, "an edit is read", has("V-7", func(p wire.Page) bool { return strings.Contains(p.Body, "runs sales") }))

	f.write("New Folder/Deep/Eve.md", "---\ntype: person\nemails: [eve@x.io]\n---\n")
	eventually(t, 2*time.Second, "a page in a new folder is read", has("New Folder/Deep/Eve.md", func(wire.Page) bool { return true }))
	f.write("New Folder/Deep/Fay.md", "---\ntype: person\n---\n")
	eventually(t, 2*time.Second, "the new folder is watched", has("New Folder/Deep/Fay.md", func(wire.Page) bool { return true }))

	if err := os.Rename(filepath.Join(f.dir, "people/Alice Martin.md"), filepath.Join(f.dir, "New Folder/Alice Martin.md")); err != nil {
		t.Fatal(err)
	}
	eventually(t, 2*time.Second, "a moved page keeps its id", has("V-7", func(p wire.Page) bool { return p.Path == "New Folder/Alice Martin.md" }))

	if err := os.RemoveAll(filepath.Join(f.dir, "New Folder")); err != nil {
		t.Fatal(err)
	}
	eventually(t, 2*time.Second, "a removed folder's pages go", func() bool {
		_, err := f.v.Get("V-7")
		_, err2 := f.v.Get("New Folder/Deep/Eve.md")
		return err != nil && err2 != nil
	})
	f.write(".obsidian/workspace.md", "---\ntype: person\n---\n")
	f.write("Broken later.md", "---\na: [\n---\n")
	eventually(t, 2*time.Second, "a page broken by hand is listed broken", has("Broken later.md", func(p wire.Page) bool { return p.Broken != "" }))
	if _, err := f.v.Get(".obsidian/workspace.md"); err == nil {
		t.Error("a file in a dot folder was read")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.changes < 5 {
		t.Errorf("OnChange called %d times", f.changes)
	}
}

// The deterministic race: a person saves the page after the board read it
// and before it renames its write into place. The board's write must start
// over from the person's version, so both changes are on disk.
func TestAHandEditRacingAWriteIsNeverLost(t *testing.T) {
	f := open(t, obsidian)
	rel := "people/Alice Martin.md"
	hand := strings.Replace(obsidian[rel], "Alice runs ops", "Alice runs ops (edited by hand)", 1)
	calls := 0
	f.v.writeMu.Lock()
	_, wrote, err := f.v.update(rel, func(p vaultpage.Page) (vaultpage.Fields, string, error) {
		calls++
		if calls == 1 { // the person saves between the board's read and its rename
			f.write(rel, hand)
		}
		fl := p.Fields
		fl.Cases = []string{"CASE-5"}
		return fl, p.Body, nil
	})
	f.v.writeMu.Unlock()
	if err != nil || !wrote {
		t.Fatalf("update: wrote=%v %v", wrote, err)
	}
	if calls != 2 {
		t.Errorf("the write was computed %d times, want 2 (once more from the hand edit)", calls)
	}
	disk := vaultpage.Parse(rel, []byte(f.read(rel)))
	if !strings.Contains(disk.Body, "(edited by hand)") || len(disk.Fields.Cases) != 1 {
		t.Errorf("on disk after the race: cases %v body %q", disk.Fields.Cases, disk.Body)
	}
}

// The board's index is stale (the watcher has not seen the edit yet) when a
// request writes: the edit still stands, and only the patched key changes.
func TestAWriteOverAnEditTheWatcherHasNotSeenKeepsIt(t *testing.T) {
	f := open(t, obsidian)
	rel := "people/Alice Martin.md"
	f.v.mu.Lock() // hold the watcher off the index while the person saves
	f.write(rel, strings.Replace(obsidian[rel], "mood: sunny", "mood: rainy\nphone: \"123\"", 1))
	f.v.mu.Unlock()
	if _, _, err := f.v.Patch(t.Context(), "V-7", wire.PagePatch{Aliases: wire.Some([]string{"Ali", "AM"})}); err != nil {
		t.Fatal(err)
	}
	disk := f.read(rel)
	for _, want := range []string{"mood: rainy", "phone:", "AM"} {
		if !strings.Contains(disk, want) {
			t.Errorf("after the write the file lacks %q:\n%s", want, disk)
		}
	}
}

// Hand edits and board writes at once, many times. The person's editor
// saves the whole file each time (to a temp file renamed into place, as
// most do); every one of their lines is on disk at the end, whatever the
// board wrote in between.
func TestHandEditsAndWritesConcurrently(t *testing.T) {
	f := open(t, obsidian)
	rel := "people/Alice Martin.md"
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range 30 {
			f.save(rel, f.read(rel)+fmt.Sprintf("hand line %d\n", i))
		}
	}()
	for i := range 30 {
		if _, _, err := f.v.Patch(t.Context(), "V-7", wire.PagePatch{Append: fmt.Sprintf("board %d", i)}); err != nil {
			t.Errorf("patch %d: %v", i, err)
			break
		}
	}
	wg.Wait()
	disk := f.read(rel)
	for i := range 30 {
		if !strings.Contains(disk, fmt.Sprintf("hand line %d\n", i)) {
			t.Errorf("hand line %d lost:\n%s", i, disk)
		}
	}
}
