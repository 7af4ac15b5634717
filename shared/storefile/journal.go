package storefile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"strconv"

	"github.com/opsboard/opsboard/shared/wire"
)

// Collection names a collection of records: its field in the document and
// in a journal entry, and the key of the ids an entry deleted from it. The
// record kinds are listed once, in kindgen/kinds.go; kinds_gen.go holds the
// constants and the code that walks every kind.
type Collection string

// crcTable is Castagnoli: hardware-accelerated on amd64 and arm64.
var crcTable = crc32.MakeTable(crc32.Castagnoli)

// AppendEntry encodes e as one journal line: "<crc32c hex> <json>\n".
// The checksum lets a reader tell a torn or corrupted tail from a good line.
func AppendEntry(dst []byte, e *Entry) ([]byte, error) {
	body, err := json.Marshal(e)
	if err != nil {
		return dst, fmt.Errorf("encode journal entry v%d: %w", e.Version, err)
	}
	dst = fmt.Appendf(dst, "%08x ", crc32.Checksum(body, crcTable))
	dst = append(dst, body...)
	return append(dst, '\n'), nil
}

// ReadJournal decodes entries until the end of r or the first line that is
// torn, fails its checksum or does not decode. ends[i] is the byte offset
// just past entries[i]; the last one is the length of the good prefix, so a
// writer can truncate the bad tail.
func ReadJournal(r io.Reader) (entries []Entry, ends []int64, err error) {
	br := bufio.NewReaderSize(r, 1<<16)
	var off int64
	for {
		line, err := br.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			return entries, ends, nil // a line without its newline is torn
		}
		if err != nil {
			return entries, ends, fmt.Errorf("read journal: %w", err)
		}
		e, ok := decodeLine(line)
		if !ok {
			return entries, ends, nil
		}
		off += int64(len(line))
		entries = append(entries, e)
		ends = append(ends, off)
	}
}

// ReadJournalFile reads the journal at path; a missing file is empty.
func ReadJournalFile(path string) (entries []Entry, ends []int64, err error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("open journal: %w", err)
	}
	defer f.Close()
	return ReadJournal(f)
}

func decodeLine(line []byte) (Entry, bool) {
	line = bytes.TrimSuffix(line, []byte{'\n'})
	if len(line) < 10 || line[8] != ' ' {
		return Entry{}, false
	}
	sum, err := strconv.ParseUint(string(line[:8]), 16, 32)
	if err != nil || uint32(sum) != crc32.Checksum(line[9:], crcTable) {
		return Entry{}, false
	}
	var e Entry
	if err := json.Unmarshal(line[9:], &e); err != nil {
		return Entry{}, false
	}
	return e, true
}

// Apply replays e over d in place. Entries at or below d's version are
// already contained in the document and are skipped.
func Apply(d *wire.Doc, e *Entry) {
	if e.Version <= d.Version {
		return
	}
	applyRecords(d, e)
	if e.Counters != nil {
		d.Counters = e.Counters
	}
	if e.LabelSources != nil {
		d.LabelSources = e.LabelSources
	}
	if e.Prefs != nil {
		d.Prefs = e.Prefs
	}
	d.Version = e.Version
}

// Keyed is a stored record with an id.
type Keyed interface{ Key() string }

// upsert replaces records by id in place and appends new ones, keeping order.
func upsert[T Keyed](l wire.List[T], recs []T) wire.List[T] {
	if len(recs) == 0 {
		return l
	}
	// A replay builds a new state nobody reads yet, so one flat pass is
	// cheaper than a persistent change per record.
	list := l.Slice()
	if list == nil {
		list = []T{}
	}
	at := make(map[string]int, len(list))
	for i, r := range list {
		at[r.Key()] = i
	}
	for _, r := range recs {
		if i, ok := at[r.Key()]; ok {
			list[i] = r
			continue
		}
		at[r.Key()] = len(list)
		list = append(list, r)
	}
	return wire.ListOf(list...)
}

func remove[T Keyed](l wire.List[T], ids []string) wire.List[T] {
	gone := make(map[string]bool, len(ids))
	for _, id := range ids {
		gone[id] = true
	}
	return l.Filter(func(r T) bool { return !gone[r.Key()] })
}

// coalesce merges each run of journal entries newer than version that only
// upsert into one entry, so a replay builds its lookup of each collection
// once per run instead of once per entry (2000 entries over 10k cases cost
// seconds otherwise). Upserting a then b equals upserting a followed by b in
// one go: records replace in place or append in order either way. An entry
// that deletes stands alone, since its deletions apply after its upserts.
func coalesce(entries []Entry, version int64) []Entry {
	var out []Entry
	run := -1 // index in out of the entry the current run merges into
	for i := range entries {
		e := entries[i]
		if e.Version <= version {
			continue
		}
		version = e.Version
		if len(e.Deleted) > 0 || run < 0 {
			out = append(out, e)
			run = len(out) - 1
			if len(e.Deleted) > 0 {
				run = -1
			}
			continue
		}
		m := &out[run]
		m.Version = e.Version
		m.Actor, m.At = e.Actor, e.At // replay reads neither; the run's last write names them
		mergeRecords(m, &e)
		if e.Counters != nil {
			m.Counters = e.Counters
		}
		if e.LabelSources != nil {
			m.LabelSources = e.LabelSources
		}
		if e.Prefs != nil {
			m.Prefs = e.Prefs
		}
	}
	return out
}
