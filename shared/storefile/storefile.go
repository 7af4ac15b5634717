// Package storefile reads the board's on-disk state: the JSON document,
// migrated to the current schema, with the journal of newer committed writes
// replayed on top. Only the board writes these files; other processes (the
// search sidecar) use this package to see the current state read-only.
package storefile

//go:generate go run ./kindgen -pkg storefile -out kinds_gen.go

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"strconv"

	"github.com/opsboard/opsboard/shared/wire"
)

// JournalPath is where the journal of a document lives: beside it.
func JournalPath(docPath string) string { return docPath + ".journal" }

// New returns an empty document at the current schema.
func New() *wire.Doc {
	d := &wire.Doc{SchemaVersion: wire.SchemaVersion}
	normalize(d)
	return d
}

// Decode parses a document and migrates it to the current schema. A file
// without a schema version reads as version 0. A file from a newer schema is
// refused: rewriting it would drop what this code does not understand.
func Decode(data []byte) (*wire.Doc, error) {
	var d wire.Doc
	if err := unmarshalDoc(data, &d); err != nil {
		return nil, fmt.Errorf("parse document: %w", err)
	}
	if d.SchemaVersion > wire.SchemaVersion {
		return nil, fmt.Errorf("document schema %d is newer than this board understands (%d)", d.SchemaVersion, wire.SchemaVersion)
	}
	if d.SchemaVersion < 0 {
		return nil, fmt.Errorf("document schema %d is not valid", d.SchemaVersion)
	}
	migrate(&d)
	return &d, nil
}

// migrate brings a document of any older schema to the current one. The
// steps up to 7 (3 base, 4 events, 5 reminders, 6 reminder labels/tasks and
// message reminderId, 7 priorities and starred) were additive, so migration
// is filling defaults: missing arrays read as empty, a missing domain is
// work, an absent kind is a leaf case. Step 8 changed the lane order (see
// mapLanePositions). Step 9 keeps mail bodies outside the document: a body
// found inline (any schema before 9, or a hand edit) stays as it is, and
// the board moves it to the body file when it next writes the document.
func migrate(d *wire.Doc) {
	normalize(d)
	if d.SchemaVersion < 8 {
		mapLanePositions(d)
	}
	d.SchemaVersion = wire.SchemaVersion
}

func normalize(d *wire.Doc) {
	normalizeRecords(d)
	for _, c := range d.Cases.All() {
		if c.Domain == "" {
			c.Domain = "work"
		}
		if c.Kind == "" {
			c.Kind = "case"
		}
		if c.Status == "" {
			c.Status = "todo"
		}
	}
	for _, r := range d.Reminders.All() {
		if r.Status == "" {
			r.Status = "open"
		}
	}
	d.Counters = Counters(d)
}

func dropNil[T any](list wire.List[*T]) wire.List[*T] {
	return list.Filter(func(r *T) bool { return r != nil })
}

var idNumber = regexp.MustCompile(`^([A-Z]+)-(\d+)$`)

// Counters returns the document's id counters raised to at least the highest
// id present, so a record added by hand never collides with a minted one.
func Counters(d *wire.Doc) map[string]int64 {
	out := make(map[string]int64, len(d.Counters)+8)
	for k, v := range d.Counters {
		out[k] = v
	}
	see := func(id string) {
		m := idNumber.FindStringSubmatch(id)
		if m == nil {
			return
		}
		n, err := strconv.ParseInt(m[2], 10, 64)
		if err == nil && n > out[m[1]] {
			out[m[1]] = n
		}
	}
	seeMintedIDs(d, see)
	return out
}

// ReadDoc reads and migrates the document at path. A missing file is
// reported with an error wrapping fs.ErrNotExist.
func ReadDoc(path string) (*wire.Doc, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	d, err := Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return d, nil
}

// Replay applies the journal entries newer than d over it and reports how
// many it applied. Runs of upsert-only entries are applied as one, which
// gives the same state as applying them one by one (coalesce says why).
func Replay(d *wire.Doc, entries []Entry) (applied int) {
	for i := range entries {
		if entries[i].Version > d.Version {
			applied++
		}
	}
	merged := coalesce(entries, d.Version)
	for i := range merged {
		Apply(d, &merged[i])
	}
	d.Counters = Counters(d)
	return applied
}

// Load returns the current state: the document with the journal replayed.
// A missing document is an empty one, so a journal alone still loads.
//
// The board may compact (rename the document, then trim the journal) while
// Load reads the two files; a read that spans that moment could pair an old
// document with an already-trimmed journal. Load therefore retries until the
// files' stamp is the same before and after the read.
func Load(path string) (*wire.Doc, error) {
	var (
		d   *wire.Doc
		err error
	)
	for range 8 {
		before := Stamp(path)
		d, err = loadOnce(path)
		if err == nil && Stamp(path) == before {
			return d, nil
		}
	}
	if err != nil {
		return nil, err
	}
	return d, nil // the files keep changing; the last read is as good as any
}

func loadOnce(path string) (*wire.Doc, error) {
	d, err := ReadDoc(path)
	if errors.Is(err, fs.ErrNotExist) {
		d, err = New(), nil
	}
	if err != nil {
		return nil, err
	}
	// Every good line is applied, also past a damaged one: a later line
	// holds the whole record it changed, so it is the newest known state.
	scan, err := ScanJournalFile(JournalPath(path), d.Version)
	if err != nil {
		return nil, err
	}
	Replay(d, scan.Entries)
	// Bodies are resolved after the journal, whose lines name a body in the
	// body file as the document does when a write left the body as it was.
	// A reader that only looks has no one to tell of a lost body: the
	// message reads with an empty body, as the board answers it.
	lost, err := ResolveFile(d, BodiesPath(path))
	if err != nil {
		return nil, err
	}
	for _, l := range lost {
		for _, m := range d.Messages.All() {
			if m.ID == l.ID {
				m.BodyRef = nil
			}
		}
	}
	return d, nil
}

// Stamp identifies the on-disk state cheaply (size, modification time and
// inode of the document and the journal): when the stamp is unchanged, so is
// the state, and a reader can skip re-reading it.
func Stamp(path string) string {
	return stampOf(path) + "|" + stampOf(JournalPath(path))
}

// FileStamp identifies one file's current content cheaply; "-" when absent.
func FileStamp(p string) string { return stampOf(p) }

func stampOf(p string) string {
	fi, err := os.Stat(p)
	if err != nil {
		return "-"
	}
	return fmt.Sprintf("%d:%d:%d", fi.Size(), fi.ModTime().UnixNano(), inode(fi))
}
