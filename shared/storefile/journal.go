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

// Entry is one committed write: the records it upserted, the ids it deleted,
// and the singleton fields it replaced. Replaying entries in order over the
// document they were written after reproduces the state exactly.
type Entry struct {
	Version int64 `json:"v"`
	// Actor and At say who made the write and when (RFC 3339, UTC). Entries
	// written before they were kept have neither; replay ignores both.
	Actor      wire.Actor        `json:"actor,omitempty"`
	At         string            `json:"at,omitempty"`
	Cases      []*wire.Case      `json:"cases,omitempty"`
	Messages   []*wire.Message   `json:"messages,omitempty"`
	Events     []*wire.Event     `json:"events,omitempty"`
	Reminders  []*wire.Reminder  `json:"reminders,omitempty"`
	Priorities []*wire.Priority  `json:"priorities,omitempty"`
	Labels     []*wire.LabelDef  `json:"labels,omitempty"`
	Proposals  []*wire.Proposal  `json:"pending,omitempty"`
	Views      []*wire.View      `json:"views,omitempty"`
	Templates  []*wire.Template  `json:"templates,omitempty"`
	IngestRuns []*wire.IngestRun `json:"ingestRuns,omitempty"`
	// Deleted maps a collection name (the Doc's JSON field) to removed ids.
	Deleted      map[string][]string `json:"deleted,omitempty"`
	Counters     map[string]int64    `json:"counters,omitempty"`
	LabelSources *wire.LabelSources  `json:"labelSources,omitempty"`
	Prefs        json.RawMessage     `json:"prefs,omitempty"`
}

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
	d.Cases = upsert(d.Cases, e.Cases)
	d.Messages = upsert(d.Messages, e.Messages)
	d.Events = upsert(d.Events, e.Events)
	d.Reminders = upsert(d.Reminders, e.Reminders)
	d.Priorities = upsert(d.Priorities, e.Priorities)
	d.Labels = upsert(d.Labels, e.Labels)
	d.Proposals = upsert(d.Proposals, e.Proposals)
	d.Views = upsert(d.Views, e.Views)
	d.Templates = upsert(d.Templates, e.Templates)
	d.IngestRuns = upsert(d.IngestRuns, e.IngestRuns)
	for coll, ids := range e.Deleted {
		switch coll {
		case "cases":
			d.Cases = remove(d.Cases, ids)
		case "messages":
			d.Messages = remove(d.Messages, ids)
		case "events":
			d.Events = remove(d.Events, ids)
		case "reminders":
			d.Reminders = remove(d.Reminders, ids)
		case "priorities":
			d.Priorities = remove(d.Priorities, ids)
		case "labels":
			d.Labels = remove(d.Labels, ids)
		case "pending":
			d.Proposals = remove(d.Proposals, ids)
		case "views":
			d.Views = remove(d.Views, ids)
		case "templates":
			d.Templates = remove(d.Templates, ids)
		case "ingestRuns":
			d.IngestRuns = remove(d.IngestRuns, ids)
		}
	}
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
func upsert[T Keyed](list, recs []T) []T {
	if len(recs) == 0 {
		return list
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
	return list
}

func remove[T Keyed](list []T, ids []string) []T {
	gone := make(map[string]bool, len(ids))
	for _, id := range ids {
		gone[id] = true
	}
	out := list[:0]
	for _, r := range list {
		if !gone[r.Key()] {
			out = append(out, r)
		}
	}
	clear(list[len(out):])
	return out
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
		m.Cases = append(m.Cases, e.Cases...)
		m.Messages = append(m.Messages, e.Messages...)
		m.Events = append(m.Events, e.Events...)
		m.Reminders = append(m.Reminders, e.Reminders...)
		m.Priorities = append(m.Priorities, e.Priorities...)
		m.Labels = append(m.Labels, e.Labels...)
		m.Proposals = append(m.Proposals, e.Proposals...)
		m.Views = append(m.Views, e.Views...)
		m.Templates = append(m.Templates, e.Templates...)
		m.IngestRuns = append(m.IngestRuns, e.IngestRuns...)
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
