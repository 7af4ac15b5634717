package store

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
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

// Snapshot retention (spec: Local snapshots).
const (
	keepAllFor   = 36 * time.Hour
	keepDailyFor = 30 * 24 * time.Hour
)

// compactor folds the journal into the document after a short idle or once
// enough entries have piled up.
func (s *Store) compactor() {
	defer s.wg.Done()
	idle := time.NewTimer(time.Hour)
	idle.Stop()
	for {
		select {
		case <-s.stop:
			idle.Stop()
			return
		case <-s.kick:
			if s.pendingCompac.Load() >= int64(s.cfg.CompactEntries) {
				s.compactLogged()
				continue
			}
			idle.Reset(s.cfg.CompactIdle)
		case <-idle.C:
			s.compactLogged()
		}
	}
}

func (s *Store) compactLogged() {
	if err := s.compact(); err != nil {
		s.log.Error("store.compact", "err", err)
		s.health.set("compact", "the document could not be rewritten: "+err.Error())
		return
	}
	s.health.clear("compact")
}

// compact writes the newest durable state to the document by atomic rename,
// takes a snapshot when one is due, and trims the journal back to what the
// newest snapshot does not hold (so a broken document can always be rebuilt
// from a snapshot plus the journal).
func (s *Store) compact() error {
	s.compactMu.Lock()
	defer s.compactMu.Unlock()
	return s.compactLocked()
}

func (s *Store) compactLocked() error {
	if s.health.has(problemDocument) {
		return nil // leave the person's broken file alone until they fix or remove it
	}
	d := s.visible.Load()
	if d.Version == s.compacted && storefile.FileStamp(s.path) == s.written {
		return nil
	}
	if cur := storefile.FileStamp(s.path); s.written != "" && cur != "-" && cur != s.written {
		return nil // a hand edit is waiting for the watcher; do not overwrite it
	}
	data, err := encodeDoc(d)
	if err != nil {
		return err
	}
	tmp := s.path + ".tmp"
	if err := writeFileSync(tmp, data); err != nil {
		return err
	}
	if err := os.Rename(tmp, s.path); err != nil {
		return fmt.Errorf("replace document: %w", err)
	}
	if err := syncDir(s.dir); err != nil {
		return err
	}
	s.written = storefile.FileStamp(s.path)
	s.compacted = d.Version
	s.pendingCompac.Store(0)
	if s.snapVersion == 0 || (d.Version > s.snapVersion && s.now().Sub(s.snapTime) >= s.cfg.SnapshotEvery) {
		if err := s.writeSnapshot(d.Version, data); err != nil {
			return err
		}
	}
	return s.j.trim(min(s.compacted, s.snapVersion))
}

func encodeDoc(d *wire.Doc) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", " ") // readable for a person with an editor
	if err := enc.Encode(d); err != nil {
		return nil, fmt.Errorf("encode document v%d: %w", d.Version, err)
	}
	return buf.Bytes(), nil
}

// TakeSnapshot writes a snapshot of the newest durable state now, whatever
// the schedule says; destructive operations (clean) call it first.
func (s *Store) TakeSnapshot() error {
	s.compactMu.Lock()
	defer s.compactMu.Unlock()
	d := s.visible.Load()
	data, err := encodeDoc(d)
	if err != nil {
		return err
	}
	return s.writeSnapshot(d.Version, data)
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

func (s *Store) writeSnapshot(version int64, data []byte) error {
	if err := os.MkdirAll(s.snapDir(), 0o700); err != nil {
		return fmt.Errorf("create snapshot directory: %w", err)
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	zw.Write(data)
	if err := zw.Close(); err != nil {
		return fmt.Errorf("compress snapshot: %w", err)
	}
	now := s.now().UTC()
	name := fmt.Sprintf("board-%s-v%d.json.gz", now.Format("20060102T150405Z"), version)
	final := filepath.Join(s.snapDir(), name)
	if err := writeFileSync(final+".tmp", buf.Bytes()); err != nil {
		return err
	}
	if err := os.Rename(final+".tmp", final); err != nil {
		return fmt.Errorf("place snapshot: %w", err)
	}
	if err := syncDir(s.snapDir()); err != nil {
		return err
	}
	if version >= s.snapVersion {
		s.snapVersion, s.snapTime = version, now
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

const problemDocument = "document"

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
