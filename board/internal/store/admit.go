package store

import (
	"fmt"

	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

// maxFileVersion is the highest version, and the highest id counter, the
// board accepts from a file. The page and the agent read versions as JSON
// numbers, which hold integers exactly only up to 2^53, and a value near 2^63
// would wrap to a negative one a few writes later; 2^52 leaves room for 2^52
// more writes below 2^53.
const maxFileVersion = 1 << 52

// checkNumbers refuses a document whose version or id counters are beyond
// maxFileVersion (or negative), before the board counts on from them.
func checkNumbers(d *wire.Doc) error {
	if d.Version < 0 || d.Version > maxFileVersion {
		return &refusedError{fmt.Sprintf("carries version %d, outside 0 to %d, so the board could not count on from it", d.Version, int64(maxFileVersion))}
	}
	for k, v := range d.Counters {
		if v < 0 || v > maxFileVersion {
			return &refusedError{fmt.Sprintf("carries id counter %s at %d, outside 0 to %d, so the board could not mint ids from it", k, v, int64(maxFileVersion))}
		}
	}
	return nil
}

// coveredBy reports whether entries hold every write after version from up
// to version to, one per version with none missing, so replaying them on a
// document at from rebuilds the state at to.
func coveredBy(entries []storefile.Entry, from, to int64) bool {
	next := from + 1
	for i := range entries {
		switch v := entries[i].Version; {
		case v < next:
		case v == next:
			next++
		default:
			return next > to
		}
	}
	return next > to
}

// checkNotStale refuses a document older than the state the board has
// acknowledged (version head) when the journal no longer holds every write
// in between: loading it would silently undo those writes.
func checkNotStale(d *wire.Doc, head int64, entries []storefile.Entry) error {
	if d.Version >= head || coveredBy(entries, d.Version, head) {
		return nil
	}
	return &refusedError{fmt.Sprintf("is an older copy (version %d) than the board's state (version %d), and the journal no longer holds every write in between, so loading it would undo acknowledged writes. To go back to an older state on purpose, stop the board and use `board restore` with a snapshot", d.Version, head)}
}

// checkTree runs the configured whole-document check on a state built from
// a file, when one is configured.
func (s *Store) checkTree(d *wire.Doc) error {
	if s.cfg.Check == nil {
		return nil
	}
	return s.cfg.Check(d)
}
