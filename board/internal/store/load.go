package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime/debug"
	"strings"

	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

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
	s.settleLost(d)
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
	s.bodies.dropData() // the keys were its last readers at start
	s.ring = newRing(s.cfg.RingSize, d.Version)
	s.visible.Store(d)
	s.fresh = fresh
	s.ensureReserve()
	// The file's bytes and the decoder's scratch are garbage now, as large
	// as the document; handed back to the system they do not stay in the
	// board's resident memory. In the background, so serving starts at once.
	if s.docSize.Load() >= 4<<20 {
		go debug.FreeOSMemory()
	}
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
		s.resolveLoaded(d)
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
