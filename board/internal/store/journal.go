package store

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

// journal is the append-only log of committed writes. Writers enqueue their
// encoded entry; one committer goroutine writes everything queued in a single
// write and a single fsync (group commit), then publishes the newest state.
//
// Two locks: mu guards the queue and is never held across I/O, so a writer
// can always enqueue (or withdraw a write the disk has not taken, see
// Store.withdraw) even while the disk hangs; ioMu guards the file and is held
// across each append and trim.
type journal struct {
	path string

	mu    sync.Mutex // guards queue, busySince and busyLast
	cond  *sync.Cond
	queue []pendingWrite
	// busySince is when the oldest write of the batch being written was
	// queued; zero while the committer idles. busyLast is that batch's
	// newest state.
	busySince time.Time
	busyLast  *wire.Doc

	ioMu sync.Mutex // guards f, fi, size, ends, dirDirty and hw
	f    *os.File
	fi   os.FileInfo // f's identity, to notice the file deleted or replaced
	size int64
	// ends lists, in order, each entry's version and the offset just past it,
	// so compaction can trim the entries it no longer needs.
	ends []entryEnd
	// dirDirty is set when a trim's rename is not yet known to be durable.
	dirDirty bool
	hw       *highWaterFile

	// sizeNow mirrors size for the compactor, which must not wait on ioMu.
	sizeNow atomic.Int64
}

type entryEnd struct {
	version int64
	end     int64
}

type pendingWrite struct {
	line []byte
	doc  *wire.Doc
	// change is the write for the ring of recent writes; nil for a state
	// that did not come from a write (a hand edit), which resets the ring.
	change *Change
	done   chan error
	queued time.Time
}

// openJournal opens the journal for appending and cuts a torn tail beyond
// the good entries, which no acknowledged write can be part of: an entry is
// acknowledged only after its fsync, and a crash tears at most the batch
// being written. Damage before the tail was dealt with by the caller.
func openJournal(path string, scan *storefile.Scan, hw *highWaterFile, log *slog.Logger) (*journal, error) {
	good := scan.Good
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open journal: %w", err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("stat journal: %w", err)
	}
	if fi.Size() > good {
		log.Warn("store.journal_torn_tail", "path", path, "bytes", fi.Size()-good)
		if err := f.Truncate(good); err != nil {
			f.Close()
			return nil, fmt.Errorf("cut torn journal tail: %w", err)
		}
		if err := f.Sync(); err != nil {
			f.Close()
			return nil, fmt.Errorf("sync journal: %w", err)
		}
	}
	if err := syncDir(filepath.Dir(path)); err != nil {
		f.Close()
		return nil, err
	}
	j := &journal{path: path, f: f, fi: fi, size: good, hw: hw}
	j.sizeNow.Store(good)
	j.cond = sync.NewCond(&j.mu)
	for i, e := range scan.Entries {
		j.ends = append(j.ends, entryEnd{version: e.Version, end: scan.Ends[i]})
	}
	return j, nil
}

func (j *journal) enqueue(line []byte, d *wire.Doc, c *Change) <-chan error {
	done := make(chan error, 1)
	j.mu.Lock()
	j.queue = append(j.queue, pendingWrite{line: line, doc: d, change: c, done: done, queued: time.Now()})
	j.mu.Unlock()
	j.cond.Signal()
	return done
}

// run is the committer. It exits when the store stops and the queue is empty.
func (j *journal) run(s *Store) {
	defer s.wg.Done()
	stopped := make(chan struct{})
	go func() { // wake the committer on stop so it can drain and exit
		<-s.stop
		j.mu.Lock()
		close(stopped)
		j.mu.Unlock()
		j.cond.Broadcast()
	}()
	var buf bytes.Buffer
	failing := false
	for {
		j.mu.Lock()
		for len(j.queue) == 0 {
			select {
			case <-stopped:
				j.mu.Unlock()
				return
			default:
			}
			j.cond.Wait()
		}
		batch := j.queue
		j.queue = nil
		j.busySince, j.busyLast = batch[0].queued, batch[len(batch)-1].doc
		j.mu.Unlock()

		acked := s.visible.Load().Version
		err := s.checkJournalFile()
		if err == nil {
			buf.Reset()
			for _, w := range batch {
				buf.Write(w.line)
			}
			j.ioMu.Lock()
			err = j.appendLocked(buf.Bytes(), batch, acked)
			j.ioMu.Unlock()
		}
		if err != nil {
			failing = true
			for _, w := range append(batch, s.commitFailed(err)...) {
				w.done <- err
			}
			continue
		}
		if failing {
			failing = false
			s.health.clear(problemJournal)
		}
		last := batch[len(batch)-1].doc
		// The ring learns of the writes before readers see them, so a client
		// told of a version can always ask what it changed.
		for _, w := range batch {
			if w.change != nil {
				s.ring.add(w.change)
			} else {
				s.ring.reset(w.doc.Version)
			}
		}
		j.mu.Lock()
		s.visible.Store(last)
		j.busySince, j.busyLast = time.Time{}, nil
		j.mu.Unlock()
		for _, w := range batch {
			w.done <- nil
		}
		s.notify(last.Version)
		select {
		case s.kick <- struct{}{}:
		default:
		}
	}
}

// appendLocked writes and fsyncs p, and the high-water mark with it; on
// failure it cuts the file back so a half-written batch never sits in front
// of later entries. acked is the newest version answered before this batch.
func (j *journal) appendLocked(p []byte, batch []pendingWrite, acked int64) error {
	last := batch[len(batch)-1].doc
	hw, past := j.hw.next(acked, last.Version, last.Counters)
	err := j.hw.write(hw)
	var n int
	if err == nil {
		n, err = j.f.WriteAt(p, j.size)
	}
	if err == nil && !past {
		err = j.f.Sync()
	} else if err == nil {
		// A new ceiling must be durable before the batch past the old one
		// is answered; the two syncs overlap.
		hwErr := make(chan error, 1)
		go func() { hwErr <- j.hw.sync() }()
		err = j.f.Sync()
		if herr := <-hwErr; err == nil {
			err = herr
		}
	}
	if err == nil && j.dirDirty {
		// The last trim's rename must be durable before anything appended to
		// the new file is acknowledged.
		if err = syncDir(filepath.Dir(j.path)); err == nil {
			j.dirDirty = false
		}
	}
	if err != nil {
		if n > 0 {
			j.f.Truncate(j.size)
		}
		return fmt.Errorf("append journal: %w", j.named(err))
	}
	off := j.size
	for _, w := range batch {
		off += int64(len(w.line))
		j.ends = append(j.ends, entryEnd{version: w.doc.Version, end: off})
	}
	j.size = off
	j.sizeNow.Store(off)
	return nil
}

// named gives a file error the journal's name: after a trim the open file
// was created as <journal>.tmp, and the error would say so.
func (j *journal) named(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && strings.HasSuffix(pe.Path, ".tmp") {
		return &fs.PathError{Op: pe.Op, Path: j.path, Err: pe.Err}
	}
	return err
}

// trim drops the entries at or below version keep, which a durable document
// or snapshot already holds, by writing the rest to a new file and renaming
// it into place. Most of the rest is copied while writers go on appending:
// bytes below the size seen at the start never change again (a failed
// append cuts the file back only to its own start). Writers wait only while
// what they appended meanwhile is copied and the new file takes the name;
// copying the whole rest under the lock stalled every write for tens of
// milliseconds per compaction.
func (j *journal) trim(keep int64) error {
	j.ioMu.Lock()
	src, seen := j.f, j.size
	cut, _ := j.cutAt(keep)
	j.ioMu.Unlock()
	if cut == 0 {
		return nil
	}
	tmp := j.path + ".tmp"
	var f *os.File
	if cut < seen {
		var err error
		if f, err = copyTail(tmp, src, cut, seen); err != nil {
			os.Remove(tmp)
			j.ioMu.Lock()
			moved := j.f != src // the journal was replaced meanwhile: nothing to trim
			j.ioMu.Unlock()
			if moved {
				return nil
			}
			return err
		}
	}
	j.ioMu.Lock()
	defer j.ioMu.Unlock()
	if j.f != src || j.size < seen { // replaced meanwhile; the new one starts empty
		if f != nil {
			f.Close()
			os.Remove(tmp)
		}
		return nil
	}
	return j.swapTail(f, tmp, keep, seen)
}

// cutAt returns the offset just past the last entry at or below version
// keep, and how many entries that is. Under ioMu.
func (j *journal) cutAt(keep int64) (int64, int) {
	cut, i := int64(0), 0
	for ; i < len(j.ends) && j.ends[i].version <= keep; i++ {
		cut = j.ends[i].end
	}
	return cut, i
}

// copyTail writes src's bytes [from, to) to a new file at path, synced, and
// returns it open for appending.
func copyTail(path string, src *os.File, from, to int64) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	if _, err := io.Copy(f, io.NewSectionReader(src, from, to-from)); err != nil {
		f.Close()
		return nil, fmt.Errorf("copy journal tail: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return nil, fmt.Errorf("sync %s: %w", path, err)
	}
	return f, nil
}

// swapTail finishes a trim under ioMu: it copies into f what was appended
// since seen and renames f into the journal's place. f is nil when nothing
// stayed at seen; if writers appended nothing since either, the file is cut
// in place, which needs no disk space (a full disk is when this matters): a
// crash leaves it whole or empty, and the document holds every entry.
func (j *journal) swapTail(f *os.File, tmp string, keep, seen int64) error {
	cut, i := j.cutAt(keep)
	if cut == j.size {
		if err := j.f.Truncate(0); err != nil {
			return fmt.Errorf("empty journal: %w", j.named(err))
		}
		if err := j.f.Sync(); err != nil {
			return fmt.Errorf("empty journal: %w", j.named(err))
		}
		j.size, j.ends = 0, nil
		j.sizeNow.Store(0)
		return nil
	}
	fail := func(err error) error {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if f == nil {
		var err error
		if f, err = os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_RDWR, 0o600); err != nil {
			return fmt.Errorf("create %s: %w", tmp, err)
		}
		seen = cut
	}
	if seen < j.size {
		rest := make([]byte, j.size-seen)
		if _, err := j.f.ReadAt(rest, seen); err != nil && err != io.EOF {
			return fail(fmt.Errorf("read journal tail: %w", err))
		}
		if _, err := f.WriteAt(rest, seen-cut); err != nil {
			return fail(fmt.Errorf("copy journal tail: %w", err))
		}
		if err := f.Sync(); err != nil {
			return fail(fmt.Errorf("sync %s: %w", tmp, err))
		}
	}
	fi, err := f.Stat()
	if err != nil {
		return fail(fmt.Errorf("stat new journal: %w", err))
	}
	// The new file is open before it takes the journal's name, so once the
	// rename happens nothing can leave appends going to the old inode.
	if err := os.Rename(tmp, j.path); err != nil {
		return fail(fmt.Errorf("replace journal: %w", err))
	}
	j.f.Close()
	j.f, j.fi = f, fi
	j.size -= cut
	j.sizeNow.Store(j.size)
	rest := j.ends[i:]
	j.ends = make([]entryEnd, len(rest))
	for k, e := range rest {
		j.ends[k] = entryEnd{version: e.version, end: e.end - cut}
	}
	if err := syncDir(filepath.Dir(j.path)); err != nil {
		j.dirDirty = true // the next append retries before it acknowledges
		return err
	}
	return nil
}

// waiting reports how long the oldest write not yet durable has waited:
// the batch being written, or else the first one queued.
func (j *journal) waiting(now time.Time) time.Duration {
	j.mu.Lock()
	defer j.mu.Unlock()
	switch {
	case !j.busySince.IsZero():
		return now.Sub(j.busySince)
	case len(j.queue) > 0:
		return now.Sub(j.queue[0].queued)
	}
	return 0
}

func (j *journal) close() error {
	j.ioMu.Lock()
	defer j.ioMu.Unlock()
	j.hw.close()
	return j.f.Close()
}
