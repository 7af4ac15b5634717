package storefile

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"strconv"
	"sync"

	"github.com/opsboard/opsboard/shared/wire"
)

// The body file keeps message bodies out of the document, which the board
// rewrites on every compaction while a body, once received, rarely changes.
// It is append-only; each record is a header line and the body's bytes:
//
//	body <sha256 hex> <length> <message id>\n<body bytes>\n
//
// A record is found by its SHA-256, which is also its checksum: a hash that
// names the content lets two messages share a record and lets the file be
// rewritten (its garbage dropped) without the document changing, so the two
// files never have to be replaced together. A CRC would catch a torn write
// as well, but could not serve as a name.

// BodiesPath is where the body file of a document lives: beside it.
func BodiesPath(docPath string) string { return docPath + ".bodies" }

// BodyRefOf names body by its content.
func BodyRefOf(body string) wire.BodyRef {
	sum := sha256.Sum256([]byte(body))
	return wire.BodyRef{SHA256: hex.EncodeToString(sum[:]), Bytes: int64(len(body))}
}

// AppendBody encodes one record of the body file.
func AppendBody(dst []byte, ref wire.BodyRef, id, body string) []byte {
	dst = fmt.Appendf(dst, "body %s %d %s\n", ref.SHA256, ref.Bytes, id)
	dst = append(dst, body...)
	return append(dst, '\n')
}

// BodySpan is where a record sits in the body file.
type BodySpan struct {
	Start int64 // the record's first byte
	Off   int64 // the body's first byte
	Len   int64 // the body's length
	End   int64 // just past the record
}

// BodyScan is what ScanBodies found in a body file.
type BodyScan struct {
	Spans map[string]BodySpan // good records by SHA-256
	// Good is the offset just past the last good record: what follows it
	// is a torn tail (a crash cut an append) and no document refers to it,
	// since a body is synced before a document naming it takes its name.
	Good int64
	Size int64
	// Damaged counts stretches between good records that do not check
	// out: damage, not a tear.
	Damaged int
}

const bodyMagic = "body "

// ScanBodies checks every record of a body file held in data. The records
// are found first and their hashes checked in parallel afterwards: hashing
// is most of the work, and at 100k messages a start would otherwise spend
// most of a second on one core.
func ScanBodies(data []byte) *BodyScan {
	type found struct {
		sha  string
		sp   BodySpan
		gap  bool // a stretch that is no record lies before it
		good bool
	}
	var recs []found
	off, gap := 0, false
	for off < len(data) {
		sha, sp, ok := bodyRecordAt(data, off)
		if !ok {
			// Look for the next record; the stretch up to it is damage
			// (or, with none after it, the torn tail).
			next := bytes.Index(data[off+1:], []byte("\n"+bodyMagic))
			if next < 0 {
				break
			}
			off += 1 + next + 1
			gap = true
			continue
		}
		recs = append(recs, found{sha: sha, sp: sp, gap: gap})
		off, gap = int(sp.End), false
	}
	workers := max(1, min(runtime.GOMAXPROCS(0), len(recs)/64))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(recs); i += workers {
				r := &recs[i]
				sum := sha256.Sum256(data[r.sp.Off : r.sp.Off+r.sp.Len])
				r.good = hex.EncodeToString(sum[:]) == r.sha
			}
		}()
	}
	wg.Wait()
	s := &BodyScan{Spans: make(map[string]BodySpan, len(recs)), Size: int64(len(data))}
	bad := false
	for _, r := range recs {
		if !r.good {
			bad = true
			continue
		}
		if bad || r.gap {
			s.Damaged++
		}
		bad = false
		s.Spans[r.sha], s.Good = r.sp, r.sp.End
	}
	return s
}

// bodyRecordAt decodes the record at off: a header that parses and as
// many bytes as it says, then a newline. The hash is checked by the caller.
func bodyRecordAt(data []byte, off int) (string, BodySpan, bool) {
	rest := data[off:]
	nl := bytes.IndexByte(rest, '\n')
	if nl < 0 || nl > 512 || !bytes.HasPrefix(rest, []byte(bodyMagic)) {
		return "", BodySpan{}, false
	}
	f := bytes.Fields(rest[len(bodyMagic):nl])
	if len(f) < 2 || len(f[0]) != 64 {
		return "", BodySpan{}, false
	}
	n, err := strconv.ParseInt(string(f[1]), 10, 64)
	if err != nil || n < 0 || int64(len(rest)-nl-1) < n+1 || rest[nl+1+int(n)] != '\n' {
		return "", BodySpan{}, false
	}
	start := int64(off)
	return string(f[0]), BodySpan{Start: start, Off: start + int64(nl) + 1, Len: n, End: start + int64(nl) + 1 + n + 1}, true
}

// LostBody is a message whose body the body file does not hold intact.
type LostBody struct {
	ID  string
	Ref wire.BodyRef
}

// ResolveBodies puts each message's body in place of its reference, reading
// it with read (which reports false when the body is missing or fails its
// checksum). Such a message keeps its reference and an empty body, and is
// listed in lost. inline counts messages whose body was in the document
// itself (an older schema, or a hand edit): it wins over a reference.
func ResolveBodies(d *wire.Doc, read func(wire.BodyRef) (string, bool)) (inline int, lost []LostBody) {
	for _, m := range d.Messages.All() {
		switch {
		case m.Body != "":
			inline++
			m.BodyRef = nil
		case m.BodyRef != nil:
			body, ok := read(*m.BodyRef)
			if !ok {
				lost = append(lost, LostBody{ID: m.ID, Ref: *m.BodyRef})
				continue
			}
			m.Body, m.BodyRef = body, nil
		}
	}
	return inline, lost
}

// BodiesFrom reads bodies out of a body file held in data, as scanned.
func BodiesFrom(data []byte, scan *BodyScan) func(wire.BodyRef) (string, bool) {
	return func(ref wire.BodyRef) (string, bool) {
		sp, ok := scan.Spans[ref.SHA256]
		if !ok || sp.Len != ref.Bytes {
			return "", false
		}
		return string(data[sp.Off : sp.Off+sp.Len]), true
	}
}

// ReadBodyFile reads the body file at path; a missing one is empty.
func ReadBodyFile(path string) ([]byte, *BodyScan, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ScanBodies(nil), nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("read bodies: %w", err)
	}
	return data, ScanBodies(data), nil
}

// ResolveFile gives d the bodies of the body file at path. A message whose
// body is lost keeps its reference and an empty body, and is listed.
func ResolveFile(d *wire.Doc, path string) ([]LostBody, error) {
	if !hasRefs(d) {
		return nil, nil
	}
	data, scan, err := ReadBodyFile(path)
	if err != nil {
		return nil, err
	}
	_, lost := ResolveBodies(d, BodiesFrom(data, scan))
	return lost, nil
}

func hasRefs(d *wire.Doc) bool {
	for _, m := range d.Messages.All() {
		if m.BodyRef != nil {
			return true
		}
	}
	return false
}
