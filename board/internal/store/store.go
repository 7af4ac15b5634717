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
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/opsboard/opsboard/board/internal/errs"
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
	// WriteWait bounds how long a write waits for a disk that does not
	// answer before it is withdrawn, when it still can be (10s).
	WriteWait time.Duration
	// StallAfter is how long a write may wait for the disk before health
	// reports the store degraded (3s).
	StallAfter time.Duration
	// ReserveBytes is the disk space kept in reserve for compaction on a
	// full disk (twice the document plus 4 MB, at least 4 MB, at most 1 GB).
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

	compactMu   sync.Mutex    // serializes compaction, reload and snapshot writes
	written     string        // stamp of the document as the board last wrote or read it; "-" when absent
	own         string        // stamp of the document as the board itself last wrote or loaded it
	ownVersion  int64         // the version that document holds
	trimTook    time.Duration // how long the last compaction's journal trim took
	prevVersion int64         // version of board.json.prev, the document before the last compaction; 0 when unknown
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
	if cfg.CompactBytes <= 0 {
		cfg.CompactBytes = 1 << 20
	}
	if cfg.WriteWait <= 0 {
		cfg.WriteWait = 10 * time.Second
	}
	if cfg.StallAfter <= 0 {
		cfg.StallAfter = 3 * time.Second
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
// refused or missing while history exists, the newest good earlier copy)
// with the journal replayed on top, checked against the high-water mark.
func (s *Store) load() error {
	s.cleanSnapshotTemps()
	snaps := s.listSnapshots()
	if len(snaps) > 0 {
		s.snapVersion, s.snapTime = snaps[len(snaps)-1].version, snaps[len(snaps)-1].at
	}
	hw, err := ReadHighWater(s.path)
	if err != nil {
		s.log.Error("store.highwater", "err", err) // the journal's versions still count
	}
	jpath := storefile.JournalPath(s.path)
	d, fresh, scan, err := s.startingDoc(snaps, jpath, hw)
	if err != nil {
		return err
	}
	// A journal started anew while the board ran (its file was deleted)
	// begins above the document: the snapshot taken then bridges the two.
	if gaps := scan.Gaps(d.Version); len(gaps) > 0 && gaps[0].From == d.Version+1 {
		if alt := s.newestGoodCopy(snaps, gaps[0].To); alt != nil {
			s.log.Warn("store.bridged", "document_version", d.Version, "copy_version", alt.Version)
			d = alt
		}
	}
	from := d.Version
	storefile.Replay(d, scan.Entries)
	missing := scan.Gaps(from)
	if last := max(d.Version, scan.Last()); hw.Acked > last {
		missing = append(missing, storefile.Gap{From: last + 1, To: hw.Acked})
	}
	damaged := scan.Damaged
	if scan.TailLines > 1 {
		damaged += scan.TailLines
	}
	if len(missing) > 0 || damaged > 0 {
		if err := s.journalDamaged(scan, missing, damaged); err != nil {
			return err
		}
	}
	// Versions and id counters never go back, whatever the files lost.
	// When something may have been lost, or a tail was cut (the marks of a
	// batch cut by a power loss may not have reached the disk), the board
	// continues above the durable ceiling.
	if len(missing) > 0 || damaged > 0 || scan.Size > scan.Good {
		hw.RaiseToCeiling(&d.Version, d.Counters)
	} else {
		hw.Raise(&d.Version, d.Counters)
	}
	// A document edited by hand while the board was down may carry a lower
	// version than clients have already seen; versions never go backwards.
	if d.Version < s.snapVersion {
		d.Version = s.snapVersion
	}
	s.noteTree(d)
	hwf, err := openHighWater(s.path, HighWater{Acked: d.Version, Version: d.Version, Counters: d.Counters})
	if err != nil {
		return err
	}
	j, err := openJournal(jpath, scan, hwf, s.log)
	if err != nil {
		hwf.close()
		return err
	}
	s.j = j
	s.log.Info("store.open", "path", s.path, "version", d.Version, "replayed_from", from)
	s.head = d
	s.idx = buildIndexes(d, s.cfg.MessageKey)
	s.ring = newRing(s.cfg.RingSize, d.Version)
	s.visible.Store(d)
	s.fresh = fresh
	s.ensureReserve()
	return nil
}

// journalDamaged copies a damaged journal aside, rewrites it with its good
// lines only (so the damage is reported once, not on every start) and
// reports what is missing in the health report.
func (s *Store) journalDamaged(scan *storefile.Scan, missing []storefile.Gap, damaged int) error {
	jpath := storefile.JournalPath(s.path)
	data, err := os.ReadFile(jpath)
	if err != nil {
		return fmt.Errorf("read damaged journal: %w", err)
	}
	aside := jpath + ".damaged-" + s.now().UTC().Format("20060102T150405.000Z")
	if err := writeFileSync(aside, data); err != nil {
		return fmt.Errorf("keep damaged journal: %w", err)
	}
	var good []byte
	for i, end := range scan.Ends {
		good = append(good, data[scan.Starts[i]:end]...)
	}
	tmp := jpath + ".tmp"
	if err := writeFileSync(tmp, good); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("rewrite damaged journal: %w", err)
	}
	if err := os.Rename(tmp, jpath); err != nil {
		return fmt.Errorf("rewrite damaged journal: %w", err)
	}
	if err := syncDir(s.dir); err != nil {
		return err
	}
	// The rewritten file holds the good lines back to back.
	var off int64
	for i := range scan.Ends {
		off += scan.Ends[i] - scan.Starts[i]
		scan.Ends[i] = off
	}
	scan.Good = off
	var n int64
	var spans []string
	for _, g := range missing {
		n += g.Missing()
		if g.From == g.To {
			spans = append(spans, fmt.Sprintf("version %d", g.From))
		} else {
			spans = append(spans, fmt.Sprintf("versions %d to %d", g.From, g.To))
		}
	}
	msg := fmt.Sprintf("the journal was damaged (%d bad lines): ", damaged)
	if n > 0 {
		verb := "writes are"
		if n == 1 {
			verb = "write is"
		}
		msg += fmt.Sprintf("%d acknowledged %s missing (%s). ", n, verb, strings.Join(spans, ", "))
	} else {
		msg += "no acknowledged write is missing. "
	}
	msg += "The damaged journal was copied to " + aside + "; versions and ids continue above everything ever written, so none is reused."
	s.log.Error("store.journal_damaged", "path", jpath, "bad_lines", damaged, "missing", n, "copy", aside)
	s.health.set(problemJournalDamaged, msg)
	s.afterDamage = true
	return nil
}

func fileSize(p string) int64 {
	fi, err := os.Stat(p)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// startingDoc reads the document the journal replays onto, and scans the
// journal above it. A document that cannot be read (permissions, an I/O
// error) stops the start: serving an empty board in its place would take
// writes that the next start loses. A document that does not parse, or
// that the board refuses (a version it cannot count on from, an older copy
// whose later writes the journal no longer holds), is left in place and
// copied aside, and the newest good earlier copy stands in for it. fresh
// reports that nothing existed yet.
func (s *Store) startingDoc(snaps []snapshotFile, jpath string, hw HighWater) (d *wire.Doc, fresh bool, scan *storefile.Scan, err error) {
	scanFrom := func(d *wire.Doc) (*storefile.Scan, error) {
		sc, err := storefile.ScanJournalFile(jpath, d.Version)
		if err != nil {
			return nil, fmt.Errorf("replay journal: %w", err)
		}
		return sc, nil
	}
	standIn := func() (*wire.Doc, bool, *storefile.Scan, error) {
		d := s.newestGoodCopy(snaps, 0)
		if d == nil {
			d = storefile.New()
		}
		sc, err := scanFrom(d)
		return d, false, sc, err
	}
	// The stamp is taken before the read: if the file changes in between, the
	// stamps differ and the watcher looks again.
	s.written = storefile.FileStamp(s.path)
	data, err := os.ReadFile(s.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		d := s.newestGoodCopy(snaps, 0)
		if d == nil {
			d = storefile.New()
			fresh = !fileExists(jpath) && len(snaps) == 0
		} else {
			s.log.Warn("store.missing", "path", s.path, "restored_from_version", d.Version)
		}
		sc, err := scanFrom(d)
		return d, fresh, sc, err
	case err != nil:
		return nil, false, nil, fmt.Errorf("cannot read %s: %w. The board does not start on a document it cannot read: fix its permissions or the disk, or move it aside to start from the newest snapshot and the journal", s.path, err)
	}
	d, err = storefile.Decode(data)
	if err == nil {
		err = checkNumbers(d)
	}
	if err == nil {
		if scan, err = scanFrom(d); err != nil {
			return nil, false, nil, err
		}
		// What the board acknowledged, as far as its files tell.
		acked := max(s.snapVersion, hw.Acked, scan.Last())
		err = checkNotStale(d, acked, scan.Entries)
	}
	if err == nil {
		s.compacted.Store(d.Version)
		s.own, s.ownVersion = s.written, d.Version
		s.docSize.Store(int64(len(data)))
		return d, false, scan, nil
	}
	var refused *refusedError
	if errors.As(err, &refused) {
		s.refuse(refused.why, err)
	} else {
		s.markBroken(err)
	}
	return standIn()
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
func (s *Store) Update(ctx context.Context, actor wire.Actor, expectedVersion *int64, fn func(tx *Tx) error) (int64, error) {
	for {
		v, err := s.update(ctx, actor, expectedVersion, fn)
		if !errors.Is(err, errRingBehind) {
			return v, err
		}
		// fn reads the recent writes (Tx.Recent) and one is still on its
		// way to the disk, which adds it to the ring: let it land.
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(time.Millisecond):
		}
	}
}

func (s *Store) update(ctx context.Context, actor wire.Actor, expectedVersion *int64, fn func(tx *Tx) error) (int64, error) {
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
	if s.full.Load() {
		s.writeMu.Unlock()
		return 0, &errs.UnavailableError{Msg: "the disk is full: writes are refused until space frees, so that the board keeps room to fold its journal into the document"}
	}
	if expectedVersion != nil && *expectedVersion != s.head.Version {
		cur := s.head.Version
		s.writeMu.Unlock()
		return 0, &errs.VersionConflictError{Expected: *expectedVersion, Current: cur}
	}
	tx := newTx(s.head, s.now(), actor)
	tx.messageKey = s.cfg.MessageKey
	tx.zone = s.cfg.Zone
	tx.useIndexes(s.idx)
	tx.ring = s.ring
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
	change := tx.change(v)
	s.head = tx.d
	tx.commitIndexes()
	if stale := tx.changedInPlace(); len(stale) > 0 {
		s.enc.forget(stale)
	}
	done := s.j.enqueue(line, tx.d, change)
	s.writeMu.Unlock()
	// Durability does not honour ctx: once queued, the write completes,
	// unless the disk takes longer than WriteWait and the write can still
	// be withdrawn whole (none of its bytes went to the journal).
	wait := time.NewTimer(s.cfg.WriteWait)
	defer wait.Stop()
	select {
	case err = <-done:
	case <-wait.C:
		if s.withdraw(done) {
			return 0, &errs.UnavailableError{Msg: fmt.Sprintf("the disk did not take the write within %s; it was not applied", s.cfg.WriteWait)}
		}
		err = <-done
	}
	if err != nil {
		return 0, &errs.UnavailableError{Msg: "the write was not saved: " + err.Error()}
	}
	return v, nil
}

// commitFailed rolls the head back to the last durable state after the
// journal refused a batch, and returns the writes queued behind it, which
// were built on it and fail too. Both happen under writeMu, so no write can
// be queued on the failed state in between.
func (s *Store) commitFailed(err error) []pendingWrite {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	s.log.Error("store.commit", "err", err)
	s.j.mu.Lock()
	behind := s.j.queue
	s.j.queue = nil
	s.j.busySince, s.j.busyLast = time.Time{}, nil
	s.j.mu.Unlock()
	s.head = s.visible.Load()
	s.idx = buildIndexes(s.head, s.cfg.MessageKey)
	if isDiskFull(err) {
		s.diskFull(err)
	} else {
		s.health.set(problemJournal, "a write could not be saved: "+err.Error())
	}
	return behind
}

// withdraw takes a write the committer has not started on out of the queue,
// with every write queued after it (they were built on it), and rolls the
// head back to the state before it. It reports false when the write already
// went to the journal: then it must wait for the outcome like any other.
func (s *Store) withdraw(done <-chan error) bool {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	j := s.j
	j.mu.Lock()
	defer j.mu.Unlock()
	at := -1
	for i, w := range j.queue {
		if w.done == done {
			at = i
			break
		}
	}
	if at < 0 {
		return false
	}
	gone := j.queue[at:]
	j.queue = j.queue[:at:at]
	switch {
	case at > 0:
		s.head = j.queue[at-1].doc
	case j.busyLast != nil:
		s.head = j.busyLast
	default:
		s.head = s.visible.Load()
	}
	s.idx = buildIndexes(s.head, s.cfg.MessageKey)
	for _, w := range gone[1:] {
		w.done <- errWithdrawn
	}
	return true
}

var errWithdrawn = errors.New("an earlier write it was built on was withdrawn")

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
	s.unlock()
	return err
}
