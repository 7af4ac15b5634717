package store

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"compress/gzip"
	"encoding/json"

	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

// This file holds what the store does when its disk misbehaves: the space
// reserve for a full disk, and the journal's file deleted or replaced while
// the board runs.

// reservePath is a preallocated file that holds disk space for compaction.
func (s *Store) reservePath() string { return s.path + ".reserve" }

// reserveWant is the reserve the board keeps when it can: what a compaction
// needs, a new document, with a margin for what the journal adds to it
// before the next one (a large document compacts when its journal reaches
// a quarter of it, and the journal's new mail bodies go to the body file
// then too), less what deleting board.json.prev would free: the recovery on
// a full disk deletes it first, so its blocks are room the board already
// holds. The recovery rewrites the document and trims the journal, and
// takes no snapshot, so room for one would only sit idle. reserveNeed is
// the least a compaction needs, likewise less prev; below it the disk
// counts as full.
func (s *Store) reserveWant() int64 {
	if s.cfg.ReserveBytes > 0 {
		return s.cfg.ReserveBytes
	}
	return s.lessPrevious(s.compactionRoom())
}

func (s *Store) reserveNeed() int64 {
	if s.cfg.ReserveBytes > 0 {
		return min(s.cfg.ReserveBytes, s.docSize.Load()+1<<20)
	}
	return s.lessPrevious(min(s.compactionRoom(), s.docSize.Load()+1<<20))
}

// reserveFloor is the least reserve kept: a board whose document is a few
// megabytes keeps the same reserve with or without a previous document.
const reserveFloor = 4 << 20

// compactionRoom is the room a compaction may take: a new document, a
// quarter more and 2 MB, within the reserve's floor and a 1 GB cap.
func (s *Store) compactionRoom() int64 {
	size := s.docSize.Load()
	return min(max(size+size/4+2<<20, reserveFloor), 1<<30)
}

// lessPrevious takes what deleting board.json.prev frees off n, keeping
// the floor (or n, when it is smaller).
func (s *Store) lessPrevious(n int64) int64 {
	return max(n-s.prevFree.Load(), min(n, reserveFloor))
}

// ensureReserve grows the reserve towards reserveWant. While it holds less
// than reserveNeed, the disk counts as full and writes are refused:
// otherwise the journal would take the space that frees up, and compaction,
// which trims the journal, would never get room.
func (s *Store) ensureReserve() bool {
	have := fileSize(s.reservePath())
	want := s.reserveWant()
	// A reserve well past the want (the document shrank, or an older board
	// kept twice the document) gives the surplus back.
	if have > want+want/4 {
		if err := os.Truncate(s.reservePath(), want); err != nil {
			s.log.Warn("store.reserve", "err", err)
		} else {
			have = want
		}
	}
	// Grow past what compaction needs only while that leaves the journal
	// as much room again; on a nearly full disk, take just the need.
	if free, ok := freeSpace(s.dir); ok && free < 2*(want-have) {
		want = s.reserveNeed()
	}
	if have >= want {
		s.diskRoom()
		return true
	}
	err := s.allocate(have, want)
	switch {
	case err == nil:
		s.diskRoom()
		return true
	case !isDiskFull(err):
		s.log.Warn("store.reserve", "err", err) // a file system without fallocate: no reserve
		return true
	case have >= s.reserveNeed():
		return true // enough for a compaction
	}
	s.diskFull(err)
	return false
}

// freeSpace is what the file system holding dir has free for this user.
func freeSpace(dir string) (int64, bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, false
	}
	return int64(st.Bavail) * st.Bsize, true
}

// allocate grows the reserve from have to want bytes; on failure it gives
// back what a partial allocation took.
func (s *Store) allocate(have, want int64) error {
	f, err := os.OpenFile(s.reservePath(), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return fmt.Errorf("reserve: %w", err)
	}
	err = syscall.Fallocate(int(f.Fd()), 0, 0, want)
	if err != nil {
		f.Truncate(have)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("reserve %d bytes: %w", want, err)
	}
	return syncDir(s.dir)
}

// releaseReserve gives the reserve's space to compaction.
func (s *Store) releaseReserve() {
	if err := os.Remove(s.reservePath()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		s.log.Error("store.reserve", "err", err)
	}
}

func isDiskFull(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
}

// diskFull refuses writes until compaction, with the reserve's space, has
// trimmed the journal and the reserve is whole again.
func (s *Store) diskFull(err error) {
	s.health.set(problemDiskFull, "the disk is full: writes are refused until space frees ("+err.Error()+")")
	if s.full.Swap(true) {
		return // the compactor already retries every second
	}
	s.log.Error("store.disk_full", "err", err)
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

func (s *Store) diskRoom() {
	if s.full.Swap(false) {
		s.log.Info("store.disk_room")
	}
	s.health.clear(problemDiskFull)
}

// recoverSpace runs on the compactor while the disk is full: it releases the
// reserve, brings the document up to date so the journal can go, empties
// the journal and takes the reserve back.
func (s *Store) recoverSpace() {
	s.releaseReserve()
	err := s.compactFully()
	if err != nil {
		s.log.Error("store.compact", "err", err)
		s.health.set("compact", "the document could not be rewritten: "+err.Error())
		return
	}
	s.health.clear("compact")
	s.ensureReserve()
}

// compactFully brings the document up to the newest durable state and makes
// it the previous document too, so the whole journal can go. Its callers
// run it on a full disk with the reserve released. The room it has is the
// reserve plus what deleting board.json.prev frees, at least
// compactionRoom (a new document, a quarter more and 2 MB), since the
// reserve is that less prev's share. So it deletes prev first and rewrites
// the document once without keeping the old one as prev: the new document
// takes one document's room and the rename frees the old one's blocks.
// Keeping the old one, as a normal compaction does, would need room for a
// second document. The journal is truncated in place, which needs none.
func (s *Store) compactFully() error {
	s.compactMu.Lock()
	defer s.compactMu.Unlock()
	if storefile.FileStamp(s.path) != s.written {
		s.askRecheck()
		return nil
	}
	d := s.visible.Load()
	if s.health.has(problemDocument) {
		return nil // the person's broken file stays; the journal must too
	}
	if s.compacted.Load() < d.Version || s.own != s.written || s.written == "-" {
		if err := s.dropPrevious(); err != nil {
			return err
		}
		switch err := s.replaceDocument(d, false); {
		case errors.Is(err, errChangedOnDisk):
			s.askRecheck()
			return nil
		case err != nil:
			return err
		}
		s.compacted.Store(d.Version)
	}
	// The new document is also the previous one, by a hard link that costs
	// no space, so the journal holds nothing either lacks. The two names
	// share the document's blocks, so prev guards only against the name
	// board.json being lost, not against its content changing (a hand edit
	// saved in place shows under both). That is acceptable because it lasts
	// only from a full-disk recovery, when there is no room for a copy, to
	// the next compaction, which makes prev a copy of its own again.
	if s.prevVersion < d.Version {
		if err := s.linkPrevious(d.Version); err != nil {
			return err
		}
	}
	err := s.j.trim(min(s.compacted.Load(), max(s.snapVersion, s.prevVersion)))
	s.grownFrom.Store(s.j.sizeNow.Load())
	return err
}

// checkJournalFile runs before every batch: when the journal's file was
// deleted or replaced, appends would go to a file no start reads. It saves
// the whole durable state as a snapshot first, then starts a new journal
// under the journal's name (keeping whatever was put there aside).
func (s *Store) checkJournalFile() error {
	j := s.j
	j.ioMu.Lock() // a trim renames a new file into place under it
	defer j.ioMu.Unlock()
	fi, err := os.Stat(j.path)
	why := ""
	switch {
	case errors.Is(err, fs.ErrNotExist):
		why = "deleted"
	case err != nil:
		return nil // cannot tell; the append reports a real problem
	case !os.SameFile(fi, j.fi):
		why = "replaced"
	default:
		return nil
	}
	d := s.visible.Load()
	s.log.Error("store.journal_lost", "path", j.path, "how", why, "version", d.Version)
	snap, err := s.writeBaseSnapshot(d)
	if err != nil {
		return fmt.Errorf("the journal was %s and the state could not be saved before a new one: %w", why, err)
	}
	kept := ""
	if why == "replaced" {
		kept = j.path + ".foreign-" + s.now().UTC().Format("20060102T150405.000Z")
		if err := os.Rename(j.path, kept); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("keep the file that replaced the journal: %w", err)
		}
	}
	f, err := os.OpenFile(j.path, os.O_CREATE|os.O_EXCL|os.O_RDWR, 0o600)
	if err != nil {
		return fmt.Errorf("start a new journal: %w", err)
	}
	nfi, err := f.Stat()
	if err == nil {
		err = syncDir(s.dir)
	}
	if err != nil {
		f.Close()
		return fmt.Errorf("start a new journal: %w", err)
	}
	j.f.Close()
	j.f, j.fi, j.size, j.ends, j.dirDirty = f, nfi, 0, nil, false
	j.sizeNow.Store(0)
	s.grownFrom.Store(0)
	msg := fmt.Sprintf("%s was %s while the board ran; every write acknowledged until then (version %d) was saved to %s and a new journal started, so nothing is lost",
		filepath.Base(j.path), why, d.Version, snap)
	if kept != "" {
		msg += "; the file found in its place was moved to " + kept
	}
	s.health.set(problemJournalLost, msg)
	return nil
}

// writeBaseSnapshot writes d as a snapshot without the compactor's lock (the
// committer calls it, and the lock's holders may wait on the committer), so
// it uses its own temporary name and a plain encoder.
func (s *Store) writeBaseSnapshot(d *wire.Doc) (string, error) {
	if err := os.MkdirAll(s.snapDir(), 0o700); err != nil {
		return "", fmt.Errorf("create snapshot directory: %w", err)
	}
	final := filepath.Join(s.snapDir(), fmt.Sprintf("board-%s-v%d.json.gz", s.now().UTC().Format("20060102T150405Z"), d.Version))
	tmp := final + ".base.tmp"
	err := writeFileWith(tmp, func(w io.Writer) error {
		zw, err := gzip.NewWriterLevel(w, gzip.BestSpeed)
		if err != nil {
			return err
		}
		if err := json.NewEncoder(zw).Encode(d); err != nil {
			return err
		}
		return zw.Close()
	})
	if err == nil {
		err = os.Rename(tmp, final)
	}
	if err == nil {
		err = syncDir(s.snapDir())
	}
	if err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("snapshot: %w", err)
	}
	return final, nil
}

// cleanSnapshotTemps removes what a snapshot killed half-way left behind.
func (s *Store) cleanSnapshotTemps() {
	ents, err := os.ReadDir(s.snapDir())
	if err != nil {
		return
	}
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".tmp") {
			p := filepath.Join(s.snapDir(), e.Name())
			if err := os.Remove(p); err != nil {
				s.log.Warn("store.snapshot_tmp", "path", p, "err", err)
			}
		}
	}
}

// newestGoodCopy loads the newest earlier copy of the document that decodes
// and holds at least version atLeast: the document before the last
// compaction (board.json.prev) or a snapshot. nil when there is none.
func (s *Store) newestGoodCopy(snaps []snapshotFile, atLeast int64) *wire.Doc {
	prev, err := storefile.ReadDoc(s.prevPath())
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		s.log.Warn("store.prev.unreadable", "path", s.prevPath(), "err", err)
	}
	if prev != nil {
		s.resolveLoaded(prev)
	}
	var newer []snapshotFile
	for _, sn := range snaps {
		if prev == nil || sn.version > prev.Version {
			newer = append(newer, sn)
		}
	}
	if d := s.newestGoodSnapshot(newer); d != nil && d.Version >= atLeast {
		return d
	}
	if prev != nil && prev.Version >= atLeast {
		s.log.Warn("store.from_prev", "path", s.prevPath(), "version", prev.Version)
		return prev
	}
	return nil
}

// prevPath is the document as it was before the last compaction.
func (s *Store) prevPath() string { return s.path + ".prev" }
