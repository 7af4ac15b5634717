package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

// watchDebounce lets an editor finish saving before the board reads the file.
const watchDebounce = 150 * time.Millisecond

// watch picks up hand edits of the document. The board's own renames are
// recognised by the file's stamp and ignored. When the file watch cannot be
// set up, the loop still runs: the compactor notices a foreign change by its
// stamp and asks for a recheck, so edits are then picked up within a
// compaction cycle of the next write.
func (s *Store) watch() error {
	var events <-chan fsnotify.Event
	var errs <-chan error
	w, err := fsnotify.NewWatcher()
	if err == nil {
		if err = w.Add(s.dir); err != nil {
			w.Close()
		} else {
			events, errs = w.Events, w.Errors
		}
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		if events != nil {
			defer w.Close()
		}
		timer := time.NewTimer(time.Hour)
		timer.Stop()
		defer timer.Stop()
		armed := false
		for {
			select {
			case <-s.stop:
				return
			case ev, ok := <-events:
				if !ok {
					events = nil
					continue
				}
				if ev.Name == s.path { // an editor still saving pushes the read back
					timer.Reset(watchDebounce)
					armed = true
				}
			case err, ok := <-errs:
				if !ok {
					errs = nil
					continue
				}
				s.log.Warn("store.watch", "err", err)
			case <-s.recheck:
				if !armed { // a pending read already covers it; do not push it back
					timer.Reset(watchDebounce)
					armed = true
				}
			case <-timer.C:
				armed = false
				s.checkDocument()
			}
		}
	}()
	if err != nil {
		return fmt.Errorf("watch %s: %w", s.dir, err)
	}
	return nil
}

// checkDocument reacts to a change of the document on disk that the board
// did not make: a good edit is loaded with the journal's newer entries on
// top; a broken one is copied aside, the last good state is kept in a
// snapshot and served; a deleted document is written anew from the current
// state.
func (s *Store) checkDocument() {
	s.compactMu.Lock()
	defer s.compactMu.Unlock()
	if s.closed.Load() {
		return // the next start reads whatever is there
	}
	st := storefile.FileStamp(s.path)
	if st == s.written {
		return
	}
	data, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		s.log.Warn("store.document_removed", "path", s.path)
		s.health.clear(problemDocument)
		s.written = "-"
		if _, err := s.compactLocked(); err != nil {
			s.log.Error("store.compact", "err", err)
		}
		return
	}
	if err != nil {
		// Nothing is lost: writes go on into the journal, and compaction
		// waits, since the file changed; but it must not go unnoticed. The
		// compactor asks for another read every cycle, so fixing the
		// permissions alone is noticed too.
		if st != s.unreadable { // it is read again every cycle; say so once
			s.log.Error("store.read_document", "err", err)
			s.unreadable = st
		}
		s.health.set(problemDocument, fmt.Sprintf("%s cannot be read (%v); serving the current state and journaling every write. Fix its permissions or the disk to resume writing the document.", filepath.Base(s.path), err))
		return
	}
	d, err := storefile.Decode(data)
	if err == nil {
		s.resolveLoaded(d) // an edit that put a body back inline is moved out again
		err = checkNumbers(d)
	}
	if err == nil {
		err = s.reload(d)
	}
	if err == nil {
		s.settleLost(d)
	}
	var refused *refusedError
	switch {
	case errors.As(err, &refused):
		s.refuse(refused.why, err)
	case errors.Is(err, errReload):
		// s.written still differs from the file, so the compactor's next
		// cycle asks for another look.
		s.log.Error("store.reload", "err", err)
		return
	case err != nil:
		s.markBroken(err)
	}
	if err != nil {
		s.written = st
		// A restart on the refused file starts from the newest snapshot plus
		// the journal: make that snapshot hold what is being served now.
		if err := s.snapshotNowLocked(); err != nil {
			s.log.Error("store.snapshot", "err", err)
		}
		return
	}
	s.health.clear(problemDocument)
	s.written = st
	// The edit exists only in the document and the journal holds just the
	// writes on top of it: snapshot the new state so snapshot plus journal
	// still rebuild everything if the document breaks later.
	if err := s.snapshotNowLocked(); err != nil {
		s.log.Error("store.snapshot", "err", err)
	}
	if _, err := s.compactLocked(); err != nil {
		s.log.Error("store.compact", "err", err)
	}
}

// errReload marks a reload that failed for a reason of the board's own (the
// journal could not be read or written), not of the file: it is retried.
var errReload = errors.New("reload")

// reload makes a hand-edited document the new state: the journal's entries
// newer than the file are replayed on top, and the version continues from the
// highest one seen so every client refetches. It refuses (a *refusedError) a
// file older than the board's state whose later writes the journal no longer
// holds, and a state that fails the configured whole-document check.
func (s *Store) reload(d *wire.Doc) error {
	s.writeMu.Lock()
	if s.closed.Load() {
		s.writeMu.Unlock()
		return nil
	}
	// Let queued writes land first so the journal file is complete. No new
	// write can queue while writeMu is held.
	if err := s.settle(); err != nil {
		s.writeMu.Unlock()
		return fmt.Errorf("%w: %w", errReload, err)
	}
	entries, _, err := storefile.ReadJournalFile(storefile.JournalPath(s.path))
	if err != nil {
		s.writeMu.Unlock()
		return fmt.Errorf("%w: %w", errReload, err)
	}
	if err := checkNotStale(d, s.head.Version, entries); err != nil {
		s.writeMu.Unlock()
		return err
	}
	storefile.Replay(d, entries)
	if err := s.checkTree(d); err != nil {
		s.writeMu.Unlock()
		return &refusedError{"breaks the case hierarchy (" + err.Error() + ")"}
	}
	for k, v := range s.head.Counters { // an id is never reused, whatever the edit did
		if v > d.Counters[k] {
			d.Counters[k] = v
		}
	}
	d.Version = max(d.Version, s.head.Version) + 1
	line, err := storefile.AppendEntry(nil, &storefile.Entry{Version: d.Version, Counters: d.Counters})
	if err != nil {
		s.writeMu.Unlock()
		return fmt.Errorf("%w: %w", errReload, err)
	}
	s.head = d
	s.idx = buildIndexes(d, s.cfg.MessageKey)
	done := s.j.enqueue(line, d, nil)
	s.writeMu.Unlock()
	if err := <-done; err != nil {
		return fmt.Errorf("%w: %w", errReload, err)
	}
	s.health.clear(problemTree)
	s.log.Info("store.reloaded", "path", s.path, "version", d.Version)
	return nil
}

// settle waits, with writeMu held, until every queued write is durable.
func (s *Store) settle() error {
	deadline := time.Now().Add(5 * time.Second)
	// By version: a state whose bodies were let go of (bodyrelease.go)
	// keeps the version of the one it replaced.
	for s.visible.Load().Version != s.head.Version {
		if time.Now().After(deadline) {
			return fmt.Errorf("reload: queued writes did not settle")
		}
		time.Sleep(time.Millisecond)
	}
	return nil
}
