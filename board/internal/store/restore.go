package store

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"syscall"
	"time"

	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

// RestorePlan is what putting a snapshot back does: the state it brings
// back, how that differs from the board's current state, and the version
// and id counters the board continues from.
type RestorePlan struct {
	Snapshot        string // the file restored from
	SnapshotVersion int64
	CurrentVersion  int64 // the highest version the board's files show
	NewVersion      int64 // the restored document's version
	Counters        map[string]int64
	Collections     []RestoreDiff // one per collection, in the document's order
	// CurrentUnreadable says why the current document could not be read
	// (the plan then compares with the newest snapshot plus the journal).
	CurrentUnreadable string
	Aside             string // where --apply moved the current files; "" on a dry run
}

// RestoreDiff compares one collection of the snapshot with the current state.
type RestoreDiff struct {
	Name     string
	Snapshot int      // records the snapshot holds
	Current  int      // records the board holds now
	Lost     []string // ids only the current state holds: gone after the restore
	Changed  []string // ids both hold, differently: back to the snapshot's version
	Back     []string // ids only the snapshot holds: they come back
}

// Restore plans putting the snapshot at file (gzip-compressed as the board
// writes them, or a plain document) in place of the board's state at path,
// and with apply does it. Applying takes the board's lock, so it refuses
// while a board runs; it moves the current document and journal into a new
// pre-restore-<time> directory beside them, and installs the snapshot as the
// document with a version and id counters above every one the board's files
// show, so clients refetch and no id is ever minted twice. The dry run
// writes nothing.
func Restore(path, file string, apply bool, now time.Time) (*RestorePlan, error) {
	path, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("store path: %w", err)
	}
	aside := ""
	if apply {
		unlock, err := Lock(path)
		if err != nil {
			return nil, err
		}
		defer unlock()
		aside = AsideDir(filepath.Dir(path), now)
	}
	snap, err := readRestoreFile(file)
	if err != nil {
		return nil, err
	}
	// A local snapshot names its bodies in the body file; one it cannot
	// find keeps its reference, so the installed document still names it.
	if _, err := storefile.ResolveFile(snap, storefile.BodiesPath(path)); err != nil {
		return nil, err
	}
	return RestoreDoc(path, snap, file, aside)
}

// RestoreDoc plans putting snap, read from the file named from, in place of
// the board's state at path. With aside "" it is a dry run and writes
// nothing. Otherwise the caller holds Lock(path): the current document and
// journal move into aside (created when missing) and snap is installed with
// a version and id counters above every one the board's files show, the
// high-water mark's durable ceiling included, so clients refetch and no id
// is ever minted twice.
func RestoreDoc(path string, snap *wire.Doc, from, aside string) (*RestorePlan, error) {
	if err := checkNumbers(snap); err != nil {
		return nil, fmt.Errorf("%s %w", from, err)
	}
	cur, highest, why := currentState(path)
	plan := &RestorePlan{Snapshot: from, SnapshotVersion: snap.Version, CurrentVersion: highest.Version, CurrentUnreadable: why}
	plan.Collections = diffStates(snap, cur)
	plan.NewVersion = max(highest.Version, snap.Version) + 1
	plan.Counters = storefile.Counters(snap)
	for k, v := range highest.Counters {
		plan.Counters[k] = max(plan.Counters[k], v)
	}
	// The high-water mark knows versions and ids the files above may have
	// lost (a damaged journal): continue above its durable ceiling, so no
	// version or id the lost copy handed out is used again.
	if hw, err := ReadHighWater(path); err == nil {
		hw.RaiseToCeiling(&plan.NewVersion, plan.Counters)
	} else if plan.CurrentUnreadable == "" {
		plan.CurrentUnreadable = err.Error()
	}
	if aside == "" {
		return plan, nil
	}
	restored := *snap
	restored.Version, restored.Counters = plan.NewVersion, plan.Counters
	plan.Aside = aside
	return plan, install(path, &restored, aside)
}

// AsideDir names a new pre-restore-<time> directory in dir that does not
// exist yet, for what a restore replaces.
func AsideDir(dir string, now time.Time) string {
	stamp := now.UTC().Format("20060102T150405Z")
	aside := filepath.Join(dir, "pre-restore-"+stamp)
	for n := 2; fileExists(aside); n++ {
		aside = filepath.Join(dir, fmt.Sprintf("pre-restore-%s-%d", stamp, n))
	}
	return aside
}

// Lock takes the lock a running board holds on the document at path, so
// a tool that replaces the board's files refuses while a board runs.
func Lock(path string) (unlock func(), err error) {
	lp := path + ".lock"
	f, err := os.OpenFile(lp, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open lock %s: %w", lp, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("a board is running on %s (lock %s is held): stop it before restoring", path, lp)
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

// readRestoreFile reads a snapshot, gzip-compressed or not.
func readRestoreFile(file string) (*wire.Doc, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", file, err)
	}
	if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("open %s: %w", file, err)
		}
		if data, err = io.ReadAll(zr); err != nil {
			return nil, fmt.Errorf("decompress %s: %w", file, err)
		}
	}
	d, err := storefile.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return d, nil
}

// currentState is the board's state as its files hold it (the document,
// or the newest good snapshot when the document does not read, with the
// journal on top), and the highest version and id counters those files
// show anywhere: the document, every journal entry, the newest snapshot.
// why says why the document was not used.
func currentState(path string) (cur *wire.Doc, highest *wire.Doc, why string) {
	highest = &wire.Doc{Counters: map[string]int64{}}
	see := func(d *wire.Doc) {
		if d == nil {
			return
		}
		highest.Version = max(highest.Version, d.Version)
		for k, v := range storefile.Counters(d) {
			highest.Counters[k] = max(highest.Counters[k], v)
		}
	}
	newest := newestSnapshotIn(filepath.Join(filepath.Dir(path), "snapshots"))
	if newest != nil {
		storefile.ResolveFile(newest, storefile.BodiesPath(path)) // a body it cannot read only shows in the diff
	}
	see(newest)
	entries, _, err := storefile.ReadJournalFile(storefile.JournalPath(path))
	if err != nil {
		why = err.Error()
	}
	for i := range entries {
		highest.Version = max(highest.Version, entries[i].Version)
		for k, v := range entries[i].Counters {
			highest.Counters[k] = max(highest.Counters[k], v)
		}
	}
	cur, err = storefile.ReadDoc(path)
	if err == nil {
		_, err = storefile.ResolveFile(cur, storefile.BodiesPath(path))
	}
	switch {
	case err == nil:
		see(cur)
	case errors.Is(err, fs.ErrNotExist):
		cur = newest
	default:
		why = err.Error()
		cur = newest
	}
	if cur == nil {
		cur = storefile.New()
	}
	storefile.Replay(cur, entries)
	see(cur)
	return cur, highest, why
}

// newestSnapshotIn reads the newest snapshot in dir that decodes, or nil.
func newestSnapshotIn(dir string) *wire.Doc {
	s := &Store{dir: filepath.Dir(dir), log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	return s.newestGoodSnapshot(s.listSnapshots())
}

// diffOf compares one collection of the snapshot with the current state.
func diffOf[T storefile.Keyed](name storefile.Collection, snap, cur wire.List[T]) RestoreDiff {
	out := RestoreDiff{Name: string(name), Snapshot: snap.Len(), Current: cur.Len()}
	was := make(map[string][]byte, snap.Len())
	for _, r := range snap.All() {
		was[r.Key()], _ = json.Marshal(r)
	}
	now := make(map[string]bool, cur.Len())
	for _, r := range cur.All() {
		now[r.Key()] = true
		old, ok := was[r.Key()]
		if !ok {
			out.Lost = append(out.Lost, r.Key())
			continue
		}
		if data, _ := json.Marshal(r); !bytes.Equal(data, old) {
			out.Changed = append(out.Changed, r.Key())
		}
	}
	for _, r := range snap.All() {
		if !now[r.Key()] {
			out.Back = append(out.Back, r.Key())
		}
	}
	sort.Strings(out.Lost)
	sort.Strings(out.Changed)
	sort.Strings(out.Back)
	return out
}

// install writes d as the document at path and moves what was there into
// aside, created when missing. The order leaves every byte findable whenever
// it is cut short: the new document is written and synced under a
// temporary name first, then the journal and the document are moved aside,
// then the new one takes the name.
func install(path string, d *wire.Doc, aside string) error {
	dir := filepath.Dir(path)
	data, err := encodeDoc(d)
	if err != nil {
		return err
	}
	tmp := path + ".restore.tmp"
	if err := writeFileSync(tmp, data); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.MkdirAll(aside, 0o700); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("create %s: %w", aside, err)
	}
	// board.json.prev goes too: a later start must not take it for a copy of
	// the restored state.
	for _, p := range []string{storefile.JournalPath(path), path + ".prev", path} {
		if err := os.Rename(p, filepath.Join(aside, filepath.Base(p))); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("move %s aside: %w (the new document waits in %s)", p, err, tmp)
		}
	}
	// The body file stays, since the restored document may name its
	// bodies; a link keeps the one the moved document names as it is now,
	// whatever the board collects from it later.
	if err := os.Link(storefile.BodiesPath(path), filepath.Join(aside, filepath.Base(storefile.BodiesPath(path)))); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("keep the body file in %s: %w (the new document waits in %s)", aside, err, tmp)
	}
	if err := syncDir(aside); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("install the restored document: %w (it waits in %s)", err, tmp)
	}
	return syncDir(dir)
}
