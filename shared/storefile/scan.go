package storefile

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"strconv"
)

// Scan is what ScanJournal found in a journal: every line that checks out,
// and what lies between and after them.
type Scan struct {
	// Entries are the good lines in file order. A line at or below the
	// version ScanJournal was given is not decoded: only its Version is set.
	Entries []Entry
	// Starts[i] and Ends[i] are the byte offsets of Entries[i]'s line and
	// just past it.
	Starts, Ends []int64
	// Good is the offset just past the last good line: what a writer keeps.
	Good int64
	// Size is how many bytes the journal held.
	Size int64
	// Damaged counts bad lines (wrong checksum, not JSON, garbage) that a
	// good line follows: damage, not a tear, since a crash tears only the end.
	Damaged int
	// TailLines counts the complete bad lines after the last good one; a
	// crash tears at most one batch but never leaves a complete bad line
	// followed by more, so more than one looks like damage as well.
	TailLines int
}

// Gap is a run of versions missing from a journal: From..To inclusive.
type Gap struct{ From, To int64 }

// Missing is how many versions the gap spans.
func (g Gap) Missing() int64 { return g.To - g.From + 1 }

// Gaps lists the versions missing between after and the last entry: a
// journal written by the board holds one line per version, each one above
// the last. Entries at or below after are ignored.
func (s *Scan) Gaps(after int64) []Gap {
	var out []Gap
	next := after + 1
	for i := range s.Entries {
		v := s.Entries[i].Version
		if v < next {
			continue
		}
		if v > next {
			out = append(out, Gap{From: next, To: v - 1})
		}
		next = v + 1
	}
	return out
}

// Last is the highest version among the good lines, or 0.
func (s *Scan) Last() int64 {
	var v int64
	for i := range s.Entries {
		v = max(v, s.Entries[i].Version)
	}
	return v
}

// ScanJournal reads every line of a journal, past damaged ones. Lines whose
// version is at or below after are checked (checksum and version) but their
// bodies are not decoded: the document already holds them, and decoding a
// long journal the document has caught up with is most of a cold start.
func ScanJournal(r io.Reader, after int64) (*Scan, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	s := &Scan{}
	var off int64
	bad := 0 // complete bad lines since the last good one
	for {
		line, err := br.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			s.Size = off + int64(len(line))
			s.TailLines = bad
			return s, nil // a line without its newline is torn
		}
		if err != nil {
			return s, fmt.Errorf("read journal: %w", err)
		}
		off += int64(len(line))
		start := 0
		e, ok := scanLine(line, after)
		if !ok {
			// Damage that took the newline before a good line (a zeroed
			// block) glues the two: look for a good line inside.
			if start, e, ok = goodLineInside(line, after); !ok {
				bad++
				continue
			}
			bad++
		}
		s.Damaged += bad
		bad = 0
		s.Entries = append(s.Entries, e)
		s.Starts = append(s.Starts, off-int64(len(line)-start))
		s.Ends = append(s.Ends, off)
		s.Good = off
	}
}

// ScanJournalFile scans the journal at path; a missing file is empty.
func ScanJournalFile(path string, after int64) (*Scan, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &Scan{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("open journal: %w", err)
	}
	defer f.Close()
	return ScanJournal(f, after)
}

// versionPrefix is how every encoded entry starts: Version is Entry's first
// field, so the version can be read without decoding the body.
var versionPrefix = []byte(`{"v":`)

func scanLine(line []byte, after int64) (Entry, bool) {
	body := bytes.TrimSuffix(line, []byte{'\n'})
	if len(body) < 10 || body[8] != ' ' {
		return Entry{}, false
	}
	sum, err := strconv.ParseUint(string(body[:8]), 16, 32)
	if err != nil || uint32(sum) != crc32.Checksum(body[9:], crcTable) {
		return Entry{}, false
	}
	if v, ok := peekVersion(body[9:]); ok && v <= after {
		return Entry{Version: v}, true
	}
	return decodeLine(line)
}

// peekVersion reads the version at the start of an encoded entry.
func peekVersion(body []byte) (int64, bool) {
	if !bytes.HasPrefix(body, versionPrefix) {
		return 0, false
	}
	rest := body[len(versionPrefix):]
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	if n == 0 || n == len(rest) || (rest[n] != ',' && rest[n] != '}') {
		return 0, false
	}
	v, err := strconv.ParseInt(string(rest[:n]), 10, 64)
	return v, err == nil
}

// goodLineInside finds the first good line that starts inside a bad one.
func goodLineInside(line []byte, after int64) (int, Entry, bool) {
	from := 1
	for {
		i := bytes.Index(line[from:], versionPrefix)
		if i < 0 {
			return 0, Entry{}, false
		}
		at := from + i - 9 // "<8 hex> " before the body
		if at >= 0 {
			if e, ok := scanLine(line[at:], after); ok {
				return at, e, true
			}
		}
		from += i + 1
	}
}
