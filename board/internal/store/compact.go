package store

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

// Snapshot retention: every snapshot from the last 36 hours, then the newest
// of each UTC day for 30 days (board/README.md, Snapshots and disk use).
const (
	keepAllFor   = 36 * time.Hour
	keepDailyFor = 30 * 24 * time.Hour
)

// compactDuty bounds the share of time spent compacting under steady writes:
// after a compaction that took d, the next starts no sooner than
// d*(compactDuty-1) later. Small documents never notice; a 200 MB one is not
// rewritten back to back.
const compactDuty = 5

// compactor folds the journal into the document after CompactIdle without
// writes, but no later than CompactMaxDelay after the first write it has not
// folded (so steady writes cannot starve it), or as soon as CompactEntries
// writes wait; never sooner than the duty cycle allows. Once writes stop it
// also takes a snapshot that has come due, so the newest snapshot catches up
// with the last write.
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
		wake := lastWrite.Add(s.cfg.CompactIdle)
		if deadline := dirtySince.Add(s.cfg.CompactMaxDelay); deadline.Before(wake) {
			wake = deadline
		}
		if s.pending() >= int64(s.cfg.CompactEntries) {
			wake = time.Now()
		}
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
	for {
		select {
		case <-s.stop:
			return
		case <-s.kick:
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
	deferred, err := s.compactLocked()
	took = time.Since(started)
	s.compactMu.Unlock()
	if err != nil {
		s.log.Error("store.compact", "err", err)
		s.health.set("compact", "the document could not be rewritten: "+err.Error())
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
	if d.Version != s.compacted.Load() || s.written == "-" {
		switch err := s.replaceDocument(d); {
		case errors.Is(err, errChangedOnDisk):
			s.askRecheck()
			return true, nil
		case err != nil:
			return false, err
		}
		s.compacted.Store(d.Version)
	}
	if s.snapshotDue(d.Version) {
		if err := s.writeSnapshot(d); err != nil {
			return false, err
		}
	}
	return false, s.j.trim(min(s.compacted.Load(), s.snapVersion))
}

// replaceDocument puts d in place of the document by atomic rename, so a
// reader or a crash sees the old or the new document, never a torn one. It
// refuses when the document changed since the board last wrote or read it:
// the check sits right before the rename to keep that window tiny.
func (s *Store) replaceDocument(d *wire.Doc) error {
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
	if err := os.Rename(tmp, s.path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("replace document: %w", err)
	}
	s.written = stamp
	return syncDir(s.dir)
}

// writeFileWith streams fill into a new file at path and fsyncs it.
func writeFileWith(path string, fill func(w io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	bw := bufio.NewWriterSize(&syncEvery{f: f}, 1<<20)
	err = fill(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
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

// encodeDoc is the document as a person reads it in an editor: JSON indented
// by one space per level. docEncoder produces the same bytes faster.
func encodeDoc(d *wire.Doc) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", " ")
	if err := enc.Encode(d); err != nil {
		return nil, fmt.Errorf("encode document v%d: %w", d.Version, err)
	}
	return buf.Bytes(), nil
}

// docEncoder writes the document byte for byte as encodeDoc does, but keeps
// each record's encoding between calls and encodes only the records that
// changed: committed records are immutable (a write replaces the pointer), so
// a record's pointer identifies its bytes. Without it every compaction
// re-encodes the whole document, which at 1k cases with 10k messages costs
// about half a second of CPU. It streams, so no copy of the whole document
// is built in memory. Only compaction and snapshots use it, under compactMu.
type docEncoder struct {
	gen   uint32
	cache map[any]encodedRecord

	staleMu sync.Mutex
	stale   []any // records changed in place since the last call: re-encode them
}

// forget drops the cached bytes of records a write changed in place. Writers
// call it, so it does not need compactMu.
func (e *docEncoder) forget(recs []any) {
	e.staleMu.Lock()
	defer e.staleMu.Unlock()
	e.stale = append(e.stale, recs...)
}

type encodedRecord struct {
	gen  uint32 // the last call that saw the record; older entries are dropped
	data []byte // indented for its place in the document
}

// recordDepth is how deep a record of a top-level collection sits.
const recordDepth = 2

func (e *docEncoder) write(w io.Writer, d *wire.Doc) error {
	if e.cache == nil {
		e.cache = map[any]encodedRecord{}
	}
	e.staleMu.Lock()
	for _, r := range e.stale {
		delete(e.cache, r)
	}
	e.stale = nil
	e.staleMu.Unlock()
	e.gen++
	env := *d
	env.Cases, env.Messages, env.Events, env.Reminders, env.Priorities, env.Labels = nil, nil, nil, nil, nil, nil
	head, err := json.Marshal(&env)
	if err != nil {
		return fmt.Errorf("encode document v%d: %w", d.Version, err)
	}
	rest := appendIndent(nil, head, 0)
	for _, f := range []struct {
		name string
		list func(io.Writer) error
	}{
		{"cases", func(w io.Writer) error { return writeRecords(e, w, d.Cases) }},
		{"messages", func(w io.Writer) error { return writeRecords(e, w, d.Messages) }},
		{"events", func(w io.Writer) error { return writeRecords(e, w, d.Events) }},
		{"reminders", func(w io.Writer) error { return writeRecords(e, w, d.Reminders) }},
		{"priorities", func(w io.Writer) error { return writeRecords(e, w, d.Priorities) }},
		{"labels", func(w io.Writer) error { return writeRecords(e, w, d.Labels) }},
	} {
		// The collections were encoded as null at depth 1; a JSON string
		// cannot hold a raw newline, so the marker is always the field.
		marker := []byte("\n \"" + f.name + "\": null")
		i := bytes.Index(rest, marker)
		if i < 0 {
			return fmt.Errorf("encode document: field %s not found", f.name)
		}
		if _, err := w.Write(rest[:i+len(marker)-len("null")]); err != nil {
			return err
		}
		if err := f.list(w); err != nil {
			return err
		}
		rest = rest[i+len(marker):]
	}
	if _, err := w.Write(append(rest, '\n')); err != nil {
		return err
	}
	for k, r := range e.cache {
		if r.gen != e.gen {
			delete(e.cache, k)
		}
	}
	return nil
}

// writeRecords writes one top-level collection as encodeDoc lays it out.
func writeRecords[T any](e *docEncoder, w io.Writer, list []*T) error {
	switch {
	case list == nil:
		_, err := io.WriteString(w, "null")
		return err
	case len(list) == 0:
		_, err := io.WriteString(w, "[]")
		return err
	}
	sep := []byte("[\n  ")
	for _, r := range list {
		c, ok := e.cache[r]
		if !ok {
			raw, err := json.Marshal(r)
			if err != nil {
				return fmt.Errorf("encode record: %w", err)
			}
			c.data = appendIndent(nil, raw, recordDepth)
		}
		c.gen = e.gen
		e.cache[r] = c
		if _, err := w.Write(sep); err != nil {
			return err
		}
		if _, err := w.Write(c.data); err != nil {
			return err
		}
		sep = []byte(",\n  ")
	}
	_, err := io.WriteString(w, "\n ]")
	return err
}

// appendIndent indents compact JSON exactly as json.Indent does with an
// empty prefix and a one-space indent, starting at depth. It assumes valid
// input (it only ever sees json.Marshal output) and is several times faster
// than json.Indent, which dominates the cost of encoding a large document.
func appendIndent(dst, src []byte, depth int) []byte {
	newline := func(dst []byte, depth int) []byte {
		dst = append(dst, '\n')
		for range depth {
			dst = append(dst, ' ')
		}
		return dst
	}
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '"':
			j := i + 1
			for j < len(src) {
				k := bytes.IndexAny(src[j:], `"\`)
				if k < 0 {
					j = len(src)
					break
				}
				j += k
				if src[j] == '\\' {
					j += 2
					continue
				}
				break
			}
			end := min(j+1, len(src))
			dst = append(dst, src[i:end]...)
			i = end - 1
		case '{', '[':
			if i+1 < len(src) && (src[i+1] == '}' || src[i+1] == ']') {
				dst = append(dst, c, src[i+1])
				i++
				continue
			}
			depth++
			dst = newline(append(dst, c), depth)
		case '}', ']':
			depth--
			dst = append(newline(dst, depth), c)
		case ',':
			dst = newline(append(dst, c), depth)
		case ':':
			dst = append(dst, ':', ' ')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// TakeSnapshot writes a snapshot of the newest durable state now, whatever
// the schedule says; destructive operations (clean) call it first. It writes
// nothing when the newest snapshot already holds that state.
func (s *Store) TakeSnapshot() error {
	s.compactMu.Lock()
	defer s.compactMu.Unlock()
	return s.snapshotNowLocked()
}

func (s *Store) snapshotNowLocked() error {
	d := s.visible.Load()
	if d.Version == s.snapVersion {
		return nil
	}
	return s.writeSnapshot(d)
}

type snapshotFile struct {
	path    string
	at      time.Time
	version int64
}

var snapName = regexp.MustCompile(`^board-(\d{8}T\d{6}Z)-v(\d+)\.json\.gz$`)

func (s *Store) snapDir() string { return filepath.Join(s.dir, "snapshots") }

// listSnapshots returns the snapshots on disk, oldest first.
func (s *Store) listSnapshots() []snapshotFile {
	ents, err := os.ReadDir(s.snapDir())
	if err != nil {
		return nil
	}
	var out []snapshotFile
	for _, e := range ents {
		m := snapName.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		at, err1 := time.Parse("20060102T150405Z", m[1])
		v, err2 := strconv.ParseInt(m[2], 10, 64)
		if err1 != nil || err2 != nil {
			continue
		}
		out = append(out, snapshotFile{path: filepath.Join(s.snapDir(), e.Name()), at: at, version: v})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].version != out[j].version {
			return out[i].version < out[j].version
		}
		return out[i].at.Before(out[j].at)
	})
	return out
}

// newestGoodSnapshot loads the newest snapshot that decodes, or nil.
func (s *Store) newestGoodSnapshot(snaps []snapshotFile) *wire.Doc {
	for i := len(snaps) - 1; i >= 0; i-- {
		d, err := readSnapshot(snaps[i].path)
		if err != nil {
			s.log.Warn("store.snapshot.unreadable", "path", snaps[i].path, "err", err)
			continue
		}
		s.log.Warn("store.from_snapshot", "path", snaps[i].path, "version", d.Version)
		return d
	}
	return nil
}

func readSnapshot(path string) (*wire.Doc, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("open snapshot %s: %w", path, err)
	}
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(zr); err != nil {
		return nil, fmt.Errorf("read snapshot %s: %w", path, err)
	}
	return storefile.Decode(buf.Bytes())
}

// writeSnapshot writes d, gzip-compressed, to the snapshot directory and
// prunes what the retention rule no longer keeps.
func (s *Store) writeSnapshot(d *wire.Doc) error {
	if err := os.MkdirAll(s.snapDir(), 0o700); err != nil {
		return fmt.Errorf("create snapshot directory: %w", err)
	}
	now := s.now().UTC()
	name := fmt.Sprintf("board-%s-v%d.json.gz", now.Format("20060102T150405Z"), d.Version)
	final := filepath.Join(s.snapDir(), name)
	err := writeFileWith(final+".tmp", func(w io.Writer) error {
		zw, err := gzip.NewWriterLevel(w, gzip.BestSpeed)
		if err != nil {
			return err
		}
		if err := s.enc.write(zw, d); err != nil {
			return err
		}
		return zw.Close()
	})
	if err != nil {
		os.Remove(final + ".tmp")
		return fmt.Errorf("snapshot: %w", err)
	}
	if err := os.Rename(final+".tmp", final); err != nil {
		return fmt.Errorf("place snapshot: %w", err)
	}
	if err := syncDir(s.snapDir()); err != nil {
		return err
	}
	if d.Version >= s.snapVersion {
		s.snapVersion, s.snapTime = d.Version, now
	}
	s.pruneSnapshots(now)
	return nil
}

// pruneSnapshots keeps every snapshot from the last 36 hours, then the newest
// of each calendar day (UTC) for 30 days, and always the newest one.
func (s *Store) pruneSnapshots(now time.Time) {
	snaps := s.listSnapshots()
	for _, p := range SnapshotsToPrune(snaps2times(snaps), now) {
		os.Remove(snaps[p].path)
	}
}

func snaps2times(snaps []snapshotFile) []time.Time {
	out := make([]time.Time, len(snaps))
	for i, sn := range snaps {
		out[i] = sn.at
	}
	return out
}

// SnapshotsToPrune is the retention rule as a pure function: given snapshot
// times ordered oldest first, it returns the indexes to delete.
func SnapshotsToPrune(times []time.Time, now time.Time) []int {
	newestOfDay := map[string]int{}
	for i, t := range times {
		day := t.UTC().Format("2006-01-02")
		if j, ok := newestOfDay[day]; !ok || !t.Before(times[j]) {
			newestOfDay[day] = i
		}
	}
	var out []int
	for i, t := range times {
		age := now.Sub(t)
		switch {
		case i == len(times)-1, age < keepAllFor:
		case age < keepDailyFor && newestOfDay[t.UTC().Format("2006-01-02")] == i:
		default:
			out = append(out, i)
		}
	}
	return out
}

// Health is what /api/health reports about the store.
type Health struct {
	Degraded bool
	Problems []string
}

// Keys of the problems Health reports.
const (
	problemDocument = "document"
	problemJournal  = "journal"
)

type healthState struct {
	mu       sync.Mutex
	problems map[string]string
}

func (h *healthState) set(key, msg string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.problems == nil {
		h.problems = map[string]string{}
	}
	h.problems[key] = msg
}

func (h *healthState) clear(key string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.problems, key)
}

func (h *healthState) has(key string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	_, ok := h.problems[key]
	return ok
}

// Health reports whether the store is degraded and why.
func (s *Store) Health() Health {
	s.health.mu.Lock()
	defer s.health.mu.Unlock()
	var out Health
	for _, m := range s.health.problems {
		out.Problems = append(out.Problems, m)
	}
	sort.Strings(out.Problems)
	out.Degraded = len(out.Problems) > 0
	return out
}

// markBroken records that the document does not parse and copies it aside
// (once per distinct content) before anything can replace it.
func (s *Store) markBroken(cause error) {
	data, err := os.ReadFile(s.path)
	aside := ""
	if err == nil {
		aside = s.copyAside(data)
	}
	msg := fmt.Sprintf("%s does not parse (%v); serving the last good state and journaling every write. ", filepath.Base(s.path), shortErr(cause))
	if aside != "" {
		msg += "The broken file was copied to " + aside + ". "
	}
	msg += "Fix the file or delete it to resume writing the document."
	s.log.Error("store.document_broken", "path", s.path, "err", cause, "copy", aside)
	s.health.set(problemDocument, msg)
}

func (s *Store) copyAside(data []byte) string {
	base := filepath.Base(s.path) + ".broken-"
	ents, _ := os.ReadDir(s.dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), base) {
			if old, err := os.ReadFile(filepath.Join(s.dir, e.Name())); err == nil && bytes.Equal(old, data) {
				return filepath.Join(s.dir, e.Name())
			}
		}
	}
	p := filepath.Join(s.dir, base+s.now().UTC().Format("20060102T150405.000Z"))
	for n := 2; fileExists(p); n++ { // never replace an earlier copy
		p = filepath.Join(s.dir, fmt.Sprintf("%s%s-%d", base, s.now().UTC().Format("20060102T150405.000Z"), n))
	}
	if err := writeFileSync(p, data); err != nil {
		s.log.Error("store.copy_aside", "err", err)
		return ""
	}
	return p
}

func shortErr(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, ": "); i >= 0 && strings.Contains(msg, "parse document") {
		return msg[i+2:]
	}
	return msg
}

// syncEvery bounds how much of a file being written is dirty in memory: it
// syncs after every few megabytes. A journal fsync may have to wait for other
// files' dirty pages (ext4 orders data before the metadata it commits), so a
// whole document flushed at once shows up as a stall in write latency.
type syncEvery struct {
	f       *os.File
	pending int
}

const syncChunk = 4 << 20

func (w *syncEvery) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	w.pending += n
	if err == nil && w.pending >= syncChunk {
		w.pending = 0
		err = w.f.Sync()
	}
	return n, err
}
