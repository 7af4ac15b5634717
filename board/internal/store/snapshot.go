package store

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"time"

	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

// Snapshot retention: every snapshot from the last 36 hours, then the newest
// of each UTC day for 30 days (board/README.md, Snapshots and disk use).
const (
	keepAllFor   = wire.SnapshotKeepAll
	keepDailyFor = wire.SnapshotKeepDaily
)

// TakeSnapshot writes a snapshot of the newest durable state now, whatever
// the schedule says; destructive operations (clean) call it first. It writes
// nothing when the newest snapshot this board wrote holds that very state.
func (s *Store) TakeSnapshot() error {
	s.compactMu.Lock()
	defer s.compactMu.Unlock()
	d := s.visible.Load()
	if d == s.snapDoc {
		return nil
	}
	return s.writeSnapshot(d)
}

// SnapshotState is the state the newest snapshot holds, when this board
// wrote that snapshot; nil when it is not known (none written since the
// board started). Records are immutable once committed, so a record of the
// current state that is the very pointer found here has not changed since
// the snapshot. Do not mutate what it holds.
func (s *Store) SnapshotState() *wire.Doc {
	s.compactMu.Lock()
	defer s.compactMu.Unlock()
	return s.snapDoc
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
		s.resolveLoaded(d)
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
		s.snapVersion, s.snapTime, s.snapDoc = d.Version, now, d
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
