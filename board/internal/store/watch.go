package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

// watchDebounce lets an editor finish saving before the board reads the file.
const watchDebounce = 150 * time.Millisecond

// watch picks up hand edits of the document. The board's own renames are
// recognised by the file's stamp and ignored.
func (s *Store) watch() error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watch %s: %w", s.dir, err)
	}
	if err := w.Add(s.dir); err != nil {
		w.Close()
		return fmt.Errorf("watch %s: %w", s.dir, err)
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer w.Close()
		timer := time.NewTimer(time.Hour)
		timer.Stop()
		for {
			select {
			case <-s.stop:
				timer.Stop()
				return
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				if ev.Name == s.path {
					timer.Reset(watchDebounce)
				}
			case err, ok := <-w.Errors:
				if !ok {
					return
				}
				s.log.Warn("store.watch", "err", err)
			case <-timer.C:
				s.checkDocument()
			}
		}
	}()
	return nil
}

// checkDocument reacts to a change of the document on disk that the board
// did not make: a good edit is loaded with the journal's newer entries on
// top; a broken one is copied aside and the board keeps serving; a deleted
// document is written anew from the current state.
func (s *Store) checkDocument() {
	s.compactMu.Lock()
	defer s.compactMu.Unlock()
	st := storefile.FileStamp(s.path)
	if st == s.written {
		return
	}
	data, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		s.log.Warn("store.document_removed", "path", s.path)
		s.health.clear(problemDocument)
		s.written = ""
		if err := s.compactLocked(); err != nil {
			s.log.Error("store.compact", "err", err)
		}
		return
	}
	if err != nil {
		s.log.Error("store.read_document", "err", err)
		return
	}
	d, err := storefile.Decode(data)
	if err != nil {
		s.markBroken(err)
		s.written = st
		return
	}
	s.health.clear(problemDocument)
	s.written = st
	if err := s.reload(d); err != nil {
		s.log.Error("store.reload", "err", err)
		return
	}
	if err := s.compactLocked(); err != nil {
		s.log.Error("store.compact", "err", err)
	}
}

// reload makes a hand-edited document the new state: the journal's entries
// newer than the file are replayed on top, and the version continues from the
// highest one seen so every client refetches.
func (s *Store) reload(d *wire.Doc) error {
	s.writeMu.Lock()
	if s.closed.Load() {
		s.writeMu.Unlock()
		return nil
	}
	// Let queued writes land first so the journal is complete.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for s.visible.Load() != s.head {
		if ctx.Err() != nil {
			s.writeMu.Unlock()
			return fmt.Errorf("reload: queued writes did not settle")
		}
		time.Sleep(time.Millisecond)
	}
	entries, _, err := storefile.ReadJournalFile(storefile.JournalPath(s.path))
	if err != nil {
		s.writeMu.Unlock()
		return err
	}
	storefile.Replay(d, entries)
	for k, v := range s.head.Counters { // an id is never reused, whatever the edit did
		if v > d.Counters[k] {
			d.Counters[k] = v
		}
	}
	d.Version = max(d.Version, s.head.Version) + 1
	line, err := storefile.AppendEntry(nil, &storefile.Entry{Version: d.Version, Counters: d.Counters})
	if err != nil {
		s.writeMu.Unlock()
		return err
	}
	s.head = d
	done := s.j.enqueue(line, d)
	s.writeMu.Unlock()
	if err := <-done; err != nil {
		return err
	}
	s.log.Info("store.reloaded", "path", s.path, "version", d.Version)
	return nil
}
