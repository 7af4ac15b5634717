// Package store keeps the board's state: one JSON document on disk, a journal
// of committed writes beside it, and local snapshots. Every write runs in one
// serialized critical section and is durable (journal fsync, shared by
// concurrent writers) before it is acknowledged or visible to readers.
//
// It is the engine only: the domain rules are functions over a Tx in the
// packages named for them (cases, reminders, approvals, ...), and the store
// knows records only as the document type.
package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/labels"
	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

// Config says where the store lives and how it behaves. Zero durations take
// the defaults noted on each field.
type Config struct {
	Path   string           // the document, e.g. ~/.local/share/opsboard/board.json
	Now    func() time.Time // clock; time.Now when nil
	Logger *slog.Logger

	CompactIdle     time.Duration // compact after this long without writes (1s)
	CompactMaxDelay time.Duration // but no later than this after the first write not yet compacted (2s)
	CompactEntries  int           // or once this many journal entries wait (5000)
	SnapshotEvery   time.Duration // at most one snapshot per interval while writes happen (15m)

	// Bundles are the built-in label bundles (installable packs).
	Bundles []labels.Bundle
	// Seed fills a brand-new document (the universal label bundle).
	Seed func(tx *Tx) error
	// Verify, when set, runs on the draft after every write and rejects the
	// write when it fails; tests use it to assert whole-tree invariants.
	Verify func(d *wire.Doc) error
	// Check, when set, is the whole-document check a state built from a file
	// must pass; its error names the offending records. A hand edit that
	// fails it is refused like one that does not parse. A document that
	// fails it at start still loads (there is no last good state to serve):
	// the store reports itself degraded with the error until a later state
	// passes.
	Check func(d *wire.Doc) error
}

// Store is the board's state. Reads take the current snapshot and never wait
// on a write; writes go through Update.
type Store struct {
	cfg  Config
	path string
	dir  string
	log  *slog.Logger
	now  func() time.Time

	lockFile *os.File

	writeMu sync.Mutex // the critical section
	head    *wire.Doc  // newest committed state; may not be durable yet
	idx     *indexes   // locate the head's records by id

	visible atomic.Pointer[wire.Doc] // newest durable state: what readers see

	j *journal

	compactMu   sync.Mutex   // serializes compaction, reload and snapshot writes
	written     string       // stamp of the document as the board last wrote or read it; "-" when absent
	unreadable  string       // stamp of the document when it last could not be read
	compacted   atomic.Int64 // version of the document on disk (written under compactMu)
	snapVersion int64        // version of the newest snapshot
	snapTime    time.Time    // when it was taken
	snapDoc     *wire.Doc    // the state it holds, when this board wrote it; else nil
	enc         docEncoder   // keeps record encodings between compactions

	health healthState

	listenMu  sync.Mutex
	listeners map[int]func(version int64)
	nextL     int

	fresh   bool          // no document, journal or snapshot existed at open
	kick    chan struct{} // wakes the compactor
	recheck chan struct{} // asks the watcher to look at a document someone else changed
	stop    chan struct{}
	wg      sync.WaitGroup
	closed  atomic.Bool
}

// Open loads the store at cfg.Path, recovering from a torn journal tail or a
// broken document, and takes an advisory lock so a second daemon on the same
// file refuses to start.
func Open(cfg Config) (*Store, error) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.CompactIdle <= 0 {
		cfg.CompactIdle = time.Second
	}
	if cfg.CompactMaxDelay <= 0 {
		cfg.CompactMaxDelay = 2 * time.Second
	}
	if cfg.CompactMaxDelay < cfg.CompactIdle {
		cfg.CompactMaxDelay = cfg.CompactIdle
	}
	if cfg.CompactEntries <= 0 {
		cfg.CompactEntries = 5000
	}
	if cfg.SnapshotEvery <= 0 {
		cfg.SnapshotEvery = 15 * time.Minute
	}
	abs, err := filepath.Abs(cfg.Path)
	if err != nil {
		return nil, fmt.Errorf("store path %s: %w", cfg.Path, err)
	}
	s := &Store{
		cfg: cfg, path: abs, dir: filepath.Dir(abs), log: cfg.Logger, now: cfg.Now,
		listeners: map[int]func(int64){}, kick: make(chan struct{}, 1), recheck: make(chan struct{}, 1), stop: make(chan struct{}),
	}
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return nil, fmt.Errorf("create data directory: %w", err)
	}
	if err := s.lock(); err != nil {
		return nil, err
	}
	if err := s.load(); err != nil {
		s.unlock()
		return nil, err
	}
	s.wg.Add(2)
	go s.j.run(s)
	go s.compactor()
	if s.fresh && cfg.Seed != nil {
		if _, err := s.Update(context.Background(), wire.ActorSystem, nil, cfg.Seed); err != nil {
			s.Close()
			return nil, fmt.Errorf("seed new store: %w", err)
		}
	}
	if err := s.watch(); err != nil {
		s.log.Warn("store.watch", "err", err) // the compactor still notices an edit by its stamp
		s.health.set("watch", "the document is not watched, so a hand edit shows after the next write: "+err.Error())
	}
	return s, nil
}

func (s *Store) lock() error {
	lp := s.path + ".lock"
	f, err := os.OpenFile(lp, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return fmt.Errorf("open lock %s: %w", lp, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return fmt.Errorf("another board is already running on %s (lock %s is held): stop it or point SVC_BOARD_DATA elsewhere", s.path, lp)
	}
	s.lockFile = f
	return nil
}

func (s *Store) unlock() {
	if s.lockFile != nil {
		syscall.Flock(int(s.lockFile.Fd()), syscall.LOCK_UN)
		s.lockFile.Close()
	}
}

// load builds the starting state: the document (or, when it is broken,
// refused or missing while history exists, the newest good snapshot) with
// the journal replayed on top.
func (s *Store) load() error {
	snaps := s.listSnapshots()
	if len(snaps) > 0 {
		s.snapVersion, s.snapTime = snaps[len(snaps)-1].version, snaps[len(snaps)-1].at
	}
	entries, ends, err := storefile.ReadJournalFile(storefile.JournalPath(s.path))
	if err != nil {
		return fmt.Errorf("replay journal: %w", err)
	}
	d, fresh, err := s.startingDoc(snaps, entries)
	if err != nil {
		return err
	}
	from := d.Version
	storefile.Replay(d, entries)
	// A document edited by hand while the board was down may carry a lower
	// version than clients have already seen; versions never go backwards.
	if d.Version < s.snapVersion {
		d.Version = s.snapVersion
	}
	s.noteTree(d)
	j, err := openJournal(storefile.JournalPath(s.path), entries, ends, s.now, s.log)
	if err != nil {
		return err
	}
	s.j = j
	s.log.Info("store.open", "path", s.path, "version", d.Version, "replayed_from", from)
	s.head = d
	s.idx = buildIndexes(d)
	s.visible.Store(d)
	s.fresh = fresh
	return nil
}

// startingDoc reads the document the journal replays onto. A document that
// cannot be read (permissions, an I/O error) stops the start: serving an
// empty board in its place would take writes that the next start loses. A
// document that does not parse, or that the board refuses (a version it
// cannot count on from, an older copy whose later writes the journal no
// longer holds), is left in place and copied aside, and the newest good
// snapshot stands in for it. fresh reports that nothing existed yet.
func (s *Store) startingDoc(snaps []snapshotFile, entries []storefile.Entry) (d *wire.Doc, fresh bool, err error) {
	// The stamp is taken before the read: if the file changes in between, the
	// stamps differ and the watcher looks again.
	s.written = storefile.FileStamp(s.path)
	data, err := os.ReadFile(s.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if d := s.newestGoodSnapshot(snaps); d != nil {
			s.log.Warn("store.missing", "path", s.path, "restored_from_snapshot_version", d.Version)
			return d, false, nil
		}
		return storefile.New(), !fileExists(storefile.JournalPath(s.path)) && len(snaps) == 0, nil
	case err != nil:
		return nil, false, fmt.Errorf("cannot read %s: %w. The board does not start on a document it cannot read: fix its permissions or the disk, or move it aside to start from the newest snapshot and the journal", s.path, err)
	}
	d, err = storefile.Decode(data)
	if err == nil {
		err = checkNumbers(d)
	}
	if err == nil {
		acked := s.snapVersion // what the board acknowledged, as far as its files tell
		if n := len(entries); n > 0 {
			acked = max(acked, entries[n-1].Version)
		}
		err = checkNotStale(d, acked, entries)
	}
	if err == nil {
		s.compacted.Store(d.Version)
		return d, false, nil
	}
	var refused *refusedError
	if errors.As(err, &refused) {
		s.refuse(refused.why, err)
	} else {
		s.markBroken(err)
	}
	if d = s.newestGoodSnapshot(snaps); d == nil {
		d = storefile.New()
	}
	return d, false, nil
}

// noteTree runs the configured whole-document check on d and reports a
// failure in the health report, or clears an earlier one.
func (s *Store) noteTree(d *wire.Doc) {
	if err := s.checkTree(d); err != nil {
		s.health.set(problemTree, "the cases break the hierarchy ("+err.Error()+"); every node is still shown, those in a cycle of parents as detached roots, until they are fixed")
		return
	}
	s.health.clear(problemTree)
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// Bundles are the built-in label bundles the board was configured with; the
// catalog rules install from them.
func (s *Store) Bundles() []labels.Bundle { return s.cfg.Bundles }

// Path is the document's location.
func (s *Store) Path() string { return s.path }

// Dir is the directory that holds everything the board keeps.
func (s *Store) Dir() string { return s.dir }

// Snapshot is the newest durable state. It is immutable: never change it.
func (s *Store) Snapshot() *wire.Doc { return s.visible.Load() }

// Version is the newest durable version.
func (s *Store) Version() int64 { return s.visible.Load().Version }

// OnChange registers f to run after every durable change, with the new
// version. f must not block. The returned func unregisters it.
func (s *Store) OnChange(f func(version int64)) (cancel func()) {
	s.listenMu.Lock()
	defer s.listenMu.Unlock()
	id := s.nextL
	s.nextL++
	s.listeners[id] = f
	return func() {
		s.listenMu.Lock()
		defer s.listenMu.Unlock()
		delete(s.listeners, id)
	}
}

func (s *Store) notify(v int64) {
	s.listenMu.Lock()
	fs := make([]func(int64), 0, len(s.listeners))
	for _, f := range s.listeners {
		fs = append(fs, f)
	}
	s.listenMu.Unlock()
	for _, f := range fs {
		f(v)
	}
}

// Update runs fn as one write: it checks expectedVersion, lets fn validate
// and mutate a draft, bumps the version, and returns once the write is
// durable and visible. When fn (or the check) fails, nothing changes.
func (s *Store) Update(ctx context.Context, actor string, expectedVersion *int64, fn func(tx *Tx) error) (int64, error) {
	if actor == "" {
		actor = wire.ActorHuman
	}
	s.writeMu.Lock()
	if s.closed.Load() {
		s.writeMu.Unlock()
		return 0, &errs.UnavailableError{Msg: "the board is shutting down"}
	}
	if err := ctx.Err(); err != nil {
		s.writeMu.Unlock()
		return 0, err
	}
	if expectedVersion != nil && *expectedVersion != s.head.Version {
		cur := s.head.Version
		s.writeMu.Unlock()
		return 0, &errs.VersionConflictError{Expected: *expectedVersion, Current: cur}
	}
	tx := newTx(s.head, s.now(), actor)
	tx.useIndexes(s.idx)
	if err := fn(tx); err != nil {
		s.writeMu.Unlock()
		return 0, err
	}
	if s.cfg.Verify != nil {
		if err := s.cfg.Verify(tx.d); err != nil {
			s.writeMu.Unlock()
			return 0, fmt.Errorf("invariant broken by this write: %w", err)
		}
	}
	v := s.head.Version + 1
	tx.d.Version = v
	line, err := storefile.AppendEntry(nil, tx.entry(v))
	if err != nil {
		s.writeMu.Unlock()
		return 0, err
	}
	s.head = tx.d
	tx.commitIndexes()
	if stale := tx.changedInPlace(); len(stale) > 0 {
		s.enc.forget(stale)
	}
	done := s.j.enqueue(line, tx.d)
	s.writeMu.Unlock()
	// Durability does not honour ctx: once queued, the write completes.
	if err := <-done; err != nil {
		return 0, &errs.UnavailableError{Msg: "the write was not saved: " + err.Error()}
	}
	return v, nil
}

// commitFailed rolls the head back to the last durable state after the
// journal refused a batch; the writes queued behind it fail too.
func (s *Store) commitFailed(err error) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	s.log.Error("store.commit", "err", err)
	s.head = s.visible.Load()
	s.idx = buildIndexes(s.head)
	s.health.set(problemJournal, "a write could not be saved: "+err.Error())
}

// Close stops accepting writes, waits for queued writes to be durable,
// compacts the journal into the document and releases the lock.
func (s *Store) Close() error {
	s.writeMu.Lock()
	if s.closed.Swap(true) {
		s.writeMu.Unlock()
		return nil
	}
	s.writeMu.Unlock()
	close(s.stop)
	s.wg.Wait() // committer drained, compactor stopped, watcher stopped
	err := s.compact()
	if cerr := s.j.close(); err == nil {
		err = cerr
	}
	s.unlock()
	return err
}
