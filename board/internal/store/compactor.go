package store

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
	"time"

	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

// compactDuty bounds the share of time spent compacting under steady writes:
// after a compaction that took d, the next starts no sooner than
// d*(compactDuty-1) later. Small documents never notice; a 200 MB one is not
// rewritten back to back.
const compactDuty = 5

// compactor folds the journal into the document after CompactIdle without
// writes, but no later than CompactMaxDelay after the first write it has not
// folded (so steady writes cannot starve it), or as soon as CompactEntries
// writes wait; never sooner than the duty cycle allows. A large document
// (CompactLargeFrom) is rewritten only once the journal holds a share of its
// size, or after CompactQuiet without writes. Once writes stop it also takes
// a snapshot that has come due, so the newest snapshot catches up with the
// last write.
func (s *Store) compactor() {
	defer s.wg.Done()
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	snapTimer := time.NewTimer(time.Hour)
	snapTimer.Stop()
	defer timer.Stop()
	defer snapTimer.Stop()
	var dirtySince, lastWrite, notBefore time.Time
	arm := func() {
		if dirtySince.IsZero() {
			timer.Stop()
			return
		}
		wake := s.compactDue(dirtySince, lastWrite)
		if wake.Before(notBefore) {
			wake = notBefore
		}
		timer.Reset(time.Until(wake))
	}
	run := func() {
		started := time.Now()
		deferred, took := s.compactLogged()
		notBefore = time.Now().Add(took * (compactDuty - 1))
		if deferred {
			// Someone else changed the document; the watcher reads it and
			// compacts. Look again later rather than spin meanwhile.
			timer.Reset(deferredRetry)
			return
		}
		dirtySince = time.Time{}
		if s.pending() > 0 { // writes that landed while it ran
			dirtySince, lastWrite = started, started
		}
		arm()
		if due, ok := s.snapshotOwed(); ok {
			snapTimer.Reset(due)
		}
	}
	fullRetry := time.NewTicker(time.Second)
	defer fullRetry.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-fullRetry.C:
			if s.full.Load() {
				s.recoverSpace()
			}
		case <-s.kick:
			if s.full.Load() {
				s.recoverSpace()
				continue
			}
			now := time.Now()
			lastWrite = now
			if dirtySince.IsZero() {
				dirtySince = now
			}
			arm()
		case <-timer.C:
			run()
		case <-snapTimer.C:
			run()
		}
	}
}

// compactShare is the share of a large document the journal may reach
// before the document is rewritten: every byte journaled then costs at most
// compactShare bytes of document rewrite, whatever the pace of the writes.
const compactShare = 4

// compactDue is when the next compaction should run, given when the first
// write it has not folded and the last write came. A small document follows
// the clock, which keeps it close behind the journal for a person who reads
// it. Rewriting a large one a second after every burst of writes would cost
// far more than the writes did, so it waits for the journal to reach its
// share of the document, or for the board to fall quiet.
func (s *Store) compactDue(dirtySince, lastWrite time.Time) time.Time {
	if s.journalGrown() {
		return time.Now()
	}
	if s.large() {
		return lastWrite.Add(s.cfg.CompactQuiet)
	}
	if s.pending() >= int64(s.cfg.CompactEntries) {
		return time.Now()
	}
	wake := lastWrite.Add(s.cfg.CompactIdle)
	if deadline := dirtySince.Add(s.cfg.CompactMaxDelay); deadline.Before(wake) {
		wake = deadline
	}
	return wake
}

// large reports whether the document is big enough to be compacted by the
// size of the journal rather than by the clock.
func (s *Store) large() bool { return s.docSize.Load() >= s.cfg.CompactLargeFrom }

// journalGrown reports whether the journal grew, since the last compaction,
// past CompactBytes or the document's size (a large document's share of
// it), whichever is larger: a journal that repeats a large record per write
// grows much faster than the count of entries says.
func (s *Store) journalGrown() bool {
	grown := s.j.sizeNow.Load() - s.grownFrom.Load()
	limit := s.docSize.Load()
	if s.large() {
		limit /= compactShare
	}
	return grown >= max(s.cfg.CompactBytes, limit)
}

// pending is how many versions the document on disk trails the durable state.
func (s *Store) pending() int64 { return s.visible.Load().Version - s.compacted.Load() }

// snapshotOwed reports whether the document holds writes no snapshot has,
// and how long until the schedule allows the next snapshot.
func (s *Store) snapshotOwed() (time.Duration, bool) {
	s.compactMu.Lock()
	defer s.compactMu.Unlock()
	if s.snapVersion >= s.compacted.Load() || s.health.has(problemDocument) {
		return 0, false
	}
	return max(s.snapTime.Add(s.cfg.SnapshotEvery).Sub(s.now()), 0), true
}

// deferredRetry is how long the compactor waits after it found the document
// changed by someone else.
const deferredRetry = time.Second

// compactLogged compacts and records a failure in the health report. It
// reports whether it deferred to a change someone else made on disk, and how
// long the work took (not counting the wait for another holder of the lock).
func (s *Store) compactLogged() (deferred bool, took time.Duration) {
	s.compactMu.Lock()
	started := time.Now()
	s.enc.pace = newPacer(s.stop)
	deferred, err := s.compactLocked()
	// The duty cycle spaces the work of document rewrites; the trim is not
	// one, and counting it would space compactions out while the journal
	// grows, which makes the next trim longer still. Nor is the pacer's
	// rest, which is time given to the writers.
	took = time.Since(started) - s.trimTook - s.enc.pace.restedFor()
	s.trimTook = 0
	s.enc.pace = nil
	s.compactMu.Unlock()
	if err != nil {
		s.log.Error("store.compact", "err", err)
		s.health.set("compact", "the document could not be rewritten: "+err.Error())
		if isDiskFull(err) {
			s.diskFull(err) // the reserve gives the next try room
		}
		return false, took
	}
	s.health.clear("compact")
	return deferred, took
}

// compact writes the newest durable state to the document by atomic rename,
// takes a snapshot when one is due, and trims the journal back to what the
// newest snapshot does not hold (so a broken document can always be rebuilt
// from a snapshot plus the journal).
func (s *Store) compact() error {
	s.compactMu.Lock()
	defer s.compactMu.Unlock()
	_, err := s.compactLocked()
	return err
}

// errChangedOnDisk stops a compaction that would overwrite a change someone
// else made to the document; the watcher deals with it first.
var errChangedOnDisk = errors.New("the document changed on disk")

// compactLocked does the work of compact. deferred reports that the
// document on disk changed since the board last wrote or read it, so nothing
// was written: the watcher has been asked to read that change first.
func (s *Store) compactLocked() (deferred bool, err error) {
	if storefile.FileStamp(s.path) != s.written {
		s.askRecheck()
		return true, nil
	}
	if s.health.has(problemDocument) {
		return false, nil // leave the person's broken file alone until they fix or remove it
	}
	d := s.visible.Load()
	if s.health.has(problemTree) && d.Version != s.compacted.Load() {
		s.noteTree(d) // writes since may have mended the hierarchy
	}
	if d.Version != s.compacted.Load() || s.written == "-" || s.rewrite {
		switch err := s.replaceDocument(d, true); {
		case errors.Is(err, errChangedOnDisk):
			s.askRecheck()
			return true, nil
		case err != nil:
			return false, err
		}
		s.compacted.Store(d.Version)
	}
	var snapErr error
	if s.snapshotDue(d.Version) {
		snapErr = s.writeSnapshot(d) // the trim below still may free space
	}
	if s.dropCoveredPrevious() && !s.full.Load() {
		// prev's blocks counted towards the reserve: take them back into
		// it at once, before the trim or the body file can.
		s.ensureReserve()
	}
	// The journal keeps what neither the previous document nor the newest
	// snapshot holds: either of them plus the journal rebuilds every
	// acknowledged write if the document is found broken.
	trimStart := time.Now()
	err = s.j.trim(min(s.compacted.Load(), max(s.snapVersion, s.prevVersion)))
	s.trimTook = time.Since(trimStart)
	s.grownFrom.Store(s.j.sizeNow.Load())
	s.collectBodies(d)
	s.releaseBodies()
	if err == nil {
		err = snapErr
	}
	if err == nil && !s.full.Load() {
		s.ensureReserve() // grow it with the document
	}
	return false, err
}

// replaceDocument puts d in place of the document by atomic rename, so a
// reader or a crash sees the old or the new document, never a torn one. It
// refuses when the document changed since the board last wrote or read it:
// the check sits right before the rename to keep that window tiny. keep
// makes the document being replaced board.json.prev.
func (s *Store) replaceDocument(d *wire.Doc, keep bool) error {
	tmp := s.path + ".tmp"
	if err := writeFileWith(tmp, func(w io.Writer) error { return s.enc.write(w, d) }); err != nil {
		os.Remove(tmp)
		return err
	}
	// A rename keeps size, time and inode, so the new file's stamp is known
	// before it takes the name; stamping after the rename could mistake an
	// edit saved right after it for the board's own write.
	stamp := storefile.FileStamp(tmp)
	if storefile.FileStamp(s.path) != s.written {
		os.Remove(tmp)
		return errChangedOnDisk
	}
	// Keep the document being replaced as board.json.prev when the board
	// wrote or loaded it itself: the journal then only needs the writes
	// since it, and can be trimmed after every compaction.
	prev := int64(0)
	if keep && s.own == s.written && s.written != "-" {
		if err := s.keepPrevious(); err != nil {
			s.log.Warn("store.prev", "err", err)
		} else {
			prev = s.ownVersion
		}
	}
	if err := os.Rename(tmp, s.path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("replace document: %w", err)
	}
	s.written, s.own, s.ownVersion = stamp, stamp, d.Version
	s.rewrite = false
	s.docSize.Store(fileSize(s.path))
	if err := syncDir(s.dir); err != nil {
		return err
	}
	s.setPrevious(cmp.Or(prev, s.prevVersion))
	return nil
}

// dropCoveredPrevious removes board.json.prev once the newest snapshot holds
// everything it does: a broken document is then rebuilt from the snapshot
// and the journal, and the copy would only take a document's worth of disk.
// It reports whether it removed it.
func (s *Store) dropCoveredPrevious() bool {
	if s.prevVersion == 0 || s.snapVersion < s.prevVersion {
		return false
	}
	if err := s.dropPrevious(); err != nil {
		s.log.Warn("store.prev", "err", err)
		return false
	}
	return true
}

// dropPrevious removes board.json.prev, whatever version it holds.
func (s *Store) dropPrevious() error {
	if err := os.Remove(s.prevPath()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove previous document: %w", err)
	}
	s.setPrevious(0)
	return nil
}

// setPrevious records the version board.json.prev holds (0: none the board
// knows of) and what deleting it would free, which the reserve counts on:
// nothing when another name, such as the document itself, holds the same
// blocks.
func (s *Store) setPrevious(version int64) {
	s.prevVersion = version
	var free int64
	if version > 0 {
		if fi, err := os.Stat(s.prevPath()); err == nil {
			if st, ok := fi.Sys().(*syscall.Stat_t); ok && st.Nlink == 1 {
				free = fi.Size()
			}
		}
	}
	s.prevFree.Store(free)
}

// linkPrevious makes the document, which holds version, board.json.prev
// too, durably.
func (s *Store) linkPrevious(version int64) error {
	if err := s.keepPrevious(); err != nil {
		return err
	}
	if err := syncDir(s.dir); err != nil {
		return err
	}
	s.setPrevious(version)
	return nil
}

// keepPrevious links the document to board.json.prev, atomically replacing
// the one before: a reader never finds either name missing.
func (s *Store) keepPrevious() error {
	if sameFile(s.path, s.prevPath()) {
		// Already one file (after a full-disk recovery); a rename between
		// two names of one file would do nothing and leave the link behind.
		return nil
	}
	tmp := s.prevPath() + ".tmp"
	os.Remove(tmp)
	if err := os.Link(s.path, tmp); err != nil {
		return fmt.Errorf("keep previous document: %w", err)
	}
	if err := os.Rename(tmp, s.prevPath()); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("keep previous document: %w", err)
	}
	return nil
}

// sameFile reports whether a and b name one file.
func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// snapshotDue applies the schedule: the first snapshot at once, then at most
// one per SnapshotEvery, and only when the state moved since the last one.
func (s *Store) snapshotDue(version int64) bool {
	return version > s.snapVersion && (s.snapVersion == 0 || s.now().Sub(s.snapTime) >= s.cfg.SnapshotEvery)
}

// askRecheck wakes the watcher to look at the document; it also covers a
// change the file watch missed or could not see.
func (s *Store) askRecheck() {
	select {
	case s.recheck <- struct{}{}:
	default:
	}
}
