// Package store keeps the board's state: one JSON document on disk, a journal
// of committed writes beside it, and local snapshots. Every write runs in one
// serialized critical section and is durable (journal fsync, shared by
// concurrent writers) before it is acknowledged or visible to readers.
//
// It is the engine only: the domain rules are functions over a Tx in the
// packages named for them (cases, reminders, proposals, ...), and the store
// knows records only as the document type.
package store

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

// Config says where the store lives and how it behaves. Zero durations take
// the defaults noted on each field.
type Config struct {
	Path   string           // the document, e.g. ~/.local/share/opsboard/board.json
	Now    func() time.Time // clock; time.Now when nil
	Logger *slog.Logger
	// Zone is the machine's time zone: the board's zone until the timezone
	// preference names another (UTC when nil). Rules that read a wall-clock
	// time, such as the next occurrence of a repeating reminder, need it.
	Zone *time.Location

	CompactIdle     time.Duration // compact after this long without writes (1s)
	CompactMaxDelay time.Duration // but no later than this after the first write not yet compacted (2s)
	CompactEntries  int           // or once this many journal entries wait (5000)
	SnapshotEvery   time.Duration // at most one snapshot per interval while writes happen (15m)
	// CompactBytes: compact once the journal has grown by this much since the
	// last compaction, or by the document's size when that is larger (1 MB).
	CompactBytes int64
	// CompactLargeFrom is the document size from which the clock and the
	// count of entries no longer start a compaction (32 MB): the journal
	// must grow by a quarter of the document (at least CompactBytes), or the
	// board be without writes for CompactQuiet (1 min).
	CompactLargeFrom int64
	CompactQuiet     time.Duration
	// WriteWait bounds how long a write waits for a disk that does not
	// answer before it is withdrawn, when it still can be (10s).
	WriteWait time.Duration
	// StallAfter is how long a write may wait for the disk before health
	// reports the store degraded (3s).
	StallAfter time.Duration
	// ReserveBytes is the disk space kept in reserve for compaction on a
	// full disk (the document and a quarter more plus 2 MB, at least 4 MB,
	// at most 1 GB, less what deleting the previous document frees).
	ReserveBytes int64

	// MessageKey names a message by what makes it the same mail, so a
	// create can find the one already stored through an index. The daemon
	// wires in the mail dedupe key; without one, no message is a duplicate.
	MessageKey func(m *wire.Message) string
	// Seed fills a brand-new document (the universal label bundle).
	Seed func(tx *Tx) error
	// Verify, when set, runs on the draft after every write and rejects the
	// write when it fails; tests use it to assert whole-tree invariants.
	Verify func(d *wire.Doc) error
	// RingSize is how many recent writes the store remembers, with the
	// records each changed, for ChangesSince and undo (DefaultRingSize).
	RingSize int
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

	bodies  *bodyFile // message bodies beside the document (bodies.go)
	rewrite bool      // the document holds a body inline: write it anew (under compactMu)

	compactMu   sync.Mutex    // serializes compaction, reload and snapshot writes
	written     string        // stamp of the document as the board last wrote or read it; "-" when absent
	own         string        // stamp of the document as the board itself last wrote or loaded it
	ownVersion  int64         // the version that document holds
	trimTook    time.Duration // how long the last compaction's journal trim took
	prevVersion int64         // version of board.json.prev, the document before the last compaction; 0 when unknown
	prevFree    atomic.Int64  // what deleting board.json.prev frees (set with prevVersion); the reserve counts it
	docSize     atomic.Int64  // size of the document as last written
	grownFrom   atomic.Int64  // journal size right after the last compaction
	compacted   atomic.Int64  // version of the document on disk (written under compactMu)
	snapVersion int64         // version of the newest snapshot
	snapTime    time.Time     // when it was taken
	unreadable  string        // stamp of the document when it last could not be read
	snapDoc     *wire.Doc     // the state the newest snapshot holds, when this board wrote it; else nil
	enc         docEncoder    // keeps record encodings between compactions

	health healthState

	ring *ring // the last committed writes (ring.go)

	listenMu  sync.Mutex
	listeners map[int]func(version int64)
	nextL     int

	fresh       bool // no document, journal or snapshot existed at open
	afterDamage bool // the journal was found damaged at open: fold it in at once

	full    atomic.Bool   // the disk is full and the reserve not whole: writes are refused
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
	cfg.setDefaults()
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
	if err := s.openBodies(); err != nil {
		s.unlock()
		return nil, err
	}
	if err := s.load(); err != nil {
		s.bodies.close()
		s.unlock()
		return nil, err
	}
	s.bodiesLoaded()
	if s.afterDamage {
		// Fold what survived into a snapshot and the document now, so the
		// journal starts clean and the next start does not report it again.
		if err := s.TakeSnapshot(); err != nil {
			s.log.Error("store.snapshot", "err", err)
		}
		if err := s.compact(); err != nil {
			s.log.Error("store.compact", "err", err)
		}
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

// setDefaults fills every setting left at zero with the board's own.
func (c *Config) setDefaults() {
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.CompactIdle <= 0 {
		c.CompactIdle = time.Second
	}
	if c.CompactMaxDelay <= 0 {
		c.CompactMaxDelay = 2 * time.Second
	}
	if c.CompactMaxDelay < c.CompactIdle {
		c.CompactMaxDelay = c.CompactIdle
	}
	if c.CompactEntries <= 0 {
		c.CompactEntries = 5000
	}
	if c.SnapshotEvery <= 0 {
		c.SnapshotEvery = 15 * time.Minute
	}
	if c.CompactBytes <= 0 {
		c.CompactBytes = 1 << 20
	}
	if c.CompactLargeFrom <= 0 {
		c.CompactLargeFrom = 32 << 20
	}
	if c.CompactQuiet <= 0 {
		c.CompactQuiet = time.Minute
	}
	if c.WriteWait <= 0 {
		c.WriteWait = 10 * time.Second
	}
	if c.StallAfter <= 0 {
		c.StallAfter = 3 * time.Second
	}
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
	if isDiskFull(err) {
		s.releaseReserve() // this is what it is for
		err = s.compactFully()
	}
	if isDiskFull(err) {
		err = fmt.Errorf("the disk is full, so the document could not be brought up to date at shutdown; every acknowledged write is safe in %s and the next start replays it (free some space): %w", storefile.JournalPath(s.path), err)
	}
	if cerr := s.j.close(); err == nil {
		err = cerr
	}
	s.bodies.close()
	s.unlock()
	return err
}
