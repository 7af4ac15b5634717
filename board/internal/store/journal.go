package store

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

// journal is the append-only log of committed writes. Writers enqueue their
// encoded entry; one committer goroutine writes everything queued in a single
// write and a single fsync (group commit), then publishes the newest state.
type journal struct {
	path string
	mu   sync.Mutex // guards f, size, ends and the queue
	cond *sync.Cond
	f    *os.File
	size int64
	// ends lists, in order, each entry's version and the offset just past it,
	// so compaction can trim the entries it no longer needs.
	ends  []entryEnd
	queue []pendingWrite
	// dirDirty is set when a trim's rename is not yet known to be durable.
	dirDirty bool
}

type entryEnd struct {
	version int64
	end     int64
}

type pendingWrite struct {
	line []byte
	doc  *wire.Doc
	done chan error
}

// openJournal opens the journal for appending and cuts any torn tail beyond
// the good entries, which no acknowledged write can be part of: an entry is
// acknowledged only after its fsync, and a crash tears at most the batch
// being written. When more than one line follows the first bad one, the cut
// bytes are copied aside first, since that looks like damage, not a tear.
func openJournal(path string, entries []storefile.Entry, ends []int64, now func() time.Time, log *slog.Logger) (*journal, error) {
	var good int64
	if len(ends) > 0 {
		good = ends[len(ends)-1]
	}
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
		if err := keepDamagedTail(f, path, good, fi.Size(), now, log); err != nil {
			f.Close()
			return nil, err
		}
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
	j := &journal{path: path, f: f, size: good}
	j.cond = sync.NewCond(&j.mu)
	for i, e := range entries {
		j.ends = append(j.ends, entryEnd{version: e.Version, end: ends[i]})
	}
	return j, nil
}

// keepDamagedTail copies the bytes after the good prefix to
// <journal>.damaged-<time> when they hold more than one line.
func keepDamagedTail(f *os.File, path string, good, size int64, now func() time.Time, log *slog.Logger) error {
	tail := make([]byte, size-good)
	if _, err := f.ReadAt(tail, good); err != nil && err != io.EOF {
		return fmt.Errorf("read journal tail: %w", err)
	}
	if bytes.Count(bytes.TrimRight(tail, "\n\x00"), []byte{'\n'}) == 0 {
		log.Warn("store.journal_torn_tail", "path", path, "bytes", len(tail))
		return nil
	}
	aside := path + ".damaged-" + now().UTC().Format("20060102T150405.000Z")
	if err := writeFileSync(aside, tail); err != nil {
		return fmt.Errorf("keep damaged journal tail: %w", err)
	}
	log.Error("store.journal_damaged", "path", path, "bytes", len(tail), "copy", aside)
	return nil
}

func (j *journal) enqueue(line []byte, d *wire.Doc) <-chan error {
	done := make(chan error, 1)
	j.mu.Lock()
	j.queue = append(j.queue, pendingWrite{line: line, doc: d, done: done})
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
		buf.Reset()
		for _, w := range batch {
			buf.Write(w.line)
		}
		err := j.appendLocked(buf.Bytes(), batch)
		j.mu.Unlock()
		if err != nil {
			failing = true
			s.commitFailed(err)
			// Writes queued behind the failed batch were built on it.
			j.mu.Lock()
			batch = append(batch, j.queue...)
			j.queue = nil
			j.mu.Unlock()
			for _, w := range batch {
				w.done <- err
			}
			continue
		}
		if failing {
			failing = false
			s.health.clear(problemJournal)
		}
		last := batch[len(batch)-1].doc
		s.visible.Store(last)
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

// appendLocked writes and fsyncs p; on failure it cuts the file back so a
// half-written batch never sits in front of later entries.
func (j *journal) appendLocked(p []byte, batch []pendingWrite) error {
	n, err := j.f.WriteAt(p, j.size)
	if err == nil {
		err = j.f.Sync()
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
		return fmt.Errorf("append journal: %w", err)
	}
	off := j.size
	for _, w := range batch {
		off += int64(len(w.line))
		j.ends = append(j.ends, entryEnd{version: w.doc.Version, end: off})
	}
	j.size = off
	return nil
}

// trim drops the entries at or below version keep, which a durable document
// and snapshot already hold, by writing the rest to a new file and renaming
// it into place. Writers wait meanwhile; the rest is small, since trim runs
// right after compaction.
func (j *journal) trim(keep int64) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	cut := int64(0)
	i := 0
	for ; i < len(j.ends) && j.ends[i].version <= keep; i++ {
		cut = j.ends[i].end
	}
	if cut == 0 {
		return nil
	}
	tail := make([]byte, j.size-cut)
	if _, err := j.f.ReadAt(tail, cut); err != nil && err != io.EOF {
		return fmt.Errorf("read journal tail: %w", err)
	}
	tmp := j.path + ".tmp"
	if err := writeFileSync(tmp, tail); err != nil {
		return err
	}
	// Open the new file before it takes the journal's name, so that once
	// the rename happens nothing can leave appends going to the old inode.
	f, err := os.OpenFile(tmp, os.O_RDWR, 0o600)
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("open new journal: %w", err)
	}
	if err := os.Rename(tmp, j.path); err != nil {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("replace journal: %w", err)
	}
	j.f.Close()
	j.f = f
	j.size -= cut
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

func (j *journal) close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.f.Close()
}
