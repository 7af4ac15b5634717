package store

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

// problemBodies reports messages whose body the body file does not hold
// intact.
const problemBodies = "bodies"

// bodyFile is the board's side of the body file (storefile says why it
// exists and how a record looks). Writers never touch it: a write's journal
// line carries the body, and compaction moves new bodies here, synced
// before the document that names them takes its name. Everything below runs
// at start or under compactMu, except read, which any reader may call
// (bodyread.go): what it reads (f, size, spans) changes under mu.
type bodyFile struct {
	path string
	log  *slog.Logger
	mu   sync.RWMutex
	f    *os.File
	size int64 // durable records end here; pending follows
	// pending are records encoded since the last flush, and their hashes.
	pending     []byte
	pendingSHAs []string
	spans       map[string]storefile.BodySpan
	// data is the whole file while the store loads, so start-up resolves
	// every body from one read; nil afterwards.
	data []byte
	// lost holds, by message id, the reference of a body that failed its
	// checksum or is missing: the message answers with an empty body, and
	// the document keeps the reference until the body is edited.
	lost map[string]wire.BodyRef
	// checkAt is the size the file must pass before its garbage is
	// measured again (collect says why).
	checkAt int64
	cache   *bodyCache
	warned  sync.Map // hashes of bodies found unreadable after start, logged once
	// moved are the messages the encoder wrote with their body moved here,
	// since the last compaction let go of them (bodyrelease.go).
	moved map[*wire.Message]wire.BodyRef
}

// openBodyFile reads and checks the body file, cutting a torn tail (what
// follows the last record that checks out: an append a crash cut short,
// which no document names, since a body is synced before a document naming
// it replaces the old one).
func openBodyFile(path string, log *slog.Logger) (*bodyFile, error) {
	os.Remove(path + ".tmp") // a collection a crash cut short; the file it was to replace is whole
	data, scan, err := storefile.ReadBodyFile(path)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open bodies: %w", err)
	}
	if scan.Size > scan.Good {
		log.Warn("store.bodies_torn_tail", "path", path, "bytes", scan.Size-scan.Good)
		err := f.Truncate(scan.Good)
		if err == nil {
			err = f.Sync()
		}
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("cut torn tail of %s: %w", path, err)
		}
	}
	if scan.Damaged > 0 {
		log.Error("store.bodies_damaged", "path", path, "stretches", scan.Damaged)
	}
	return &bodyFile{path: path, log: log, f: f, size: scan.Good, spans: scan.Spans, data: data[:scan.Good], lost: map[string]wire.BodyRef{}, cache: newBodyCache(bodyCacheBytes)}, nil
}

// openBodies opens the body file and has the encoder put bodies there.
func (s *Store) openBodies() error {
	b, err := openBodyFile(storefile.BodiesPath(s.path), s.log)
	if err != nil {
		return err
	}
	s.bodies = b
	s.enc.diskForm, s.enc.flush = b.diskForm, s.flushBodies
	s.cfg.MessageKey = b.keyWithBody(s.cfg.MessageKey)
	return nil
}

// dropData lets go of the body file's bytes read at start: from now on a
// body is read from the file when it is asked for.
func (b *bodyFile) dropData() {
	if b == nil {
		return
	}
	b.mu.Lock()
	b.data = nil
	b.mu.Unlock()
}

// bodiesLoaded runs once the starting state is built: bodies inline in the
// document move to the body file now, so the next start reads the new
// layout (after damage the compaction that follows does it).
func (s *Store) bodiesLoaded() {
	s.bodies.dropData()
	if s.rewrite && !s.afterDamage {
		if err := s.compact(); err != nil {
			s.log.Error("store.compact", "err", err)
		}
	}
}

// read returns the body ref names, checked against its hash.
func (b *bodyFile) read(ref wire.BodyRef) (string, bool) { return b.readBody(ref, true) }

// readBody is read with the checksum optional: a pass that only looks for
// words in many bodies (a keyword search) skips it, since every hash was
// checked at start and no answer carries what it reads.
func (b *bodyFile) readBody(ref wire.BodyRef, verify bool) (string, bool) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	sp, ok := b.spans[ref.SHA256]
	if !ok || sp.Len != ref.Bytes || sp.End > b.size {
		return "", false
	}
	if b.data != nil {
		return string(b.data[sp.Off : sp.Off+sp.Len]), true // checked by the scan
	}
	buf := make([]byte, sp.Len)
	if _, err := b.f.ReadAt(buf, sp.Off); err != nil {
		return "", false
	}
	if verify {
		if sum := sha256.Sum256(buf); hex.EncodeToString(sum[:]) != ref.SHA256 {
			return "", false
		}
	}
	return string(buf), true
}

// has reports whether the body file holds the body ref names; the scan at
// start checked every record against its hash, and compaction appends only
// records it hashed itself.
func (b *bodyFile) has(ref wire.BodyRef) bool {
	b.mu.RLock()
	defer b.mu.RUnlock()
	sp, ok := b.spans[ref.SHA256]
	return ok && sp.Len == ref.Bytes && sp.End <= b.size
}

// resolve readies d's messages, which must be d's own (freshly decoded),
// and reports whether d held a body inline, which moves to the body file
// when the document is next written. A body in the body file stays there:
// its message keeps its reference and an empty body, and readers ask the
// store for it (bodyread.go). Only a message without a preview gets its
// body now, since a summary shows the start of the body in its place.
func (b *bodyFile) resolve(d *wire.Doc) (inline bool) {
	n := 0
	for _, m := range d.Messages.All() {
		switch {
		case m.Body != "":
			n++ // it wins over a reference
			m.BodyRef = nil
		case m.BodyRef != nil && m.Preview == "":
			if body, ok := b.read(*m.BodyRef); ok {
				m.Body, m.BodyRef = body, nil
			}
		}
	}
	return n > 0
}

// resolveLoaded resolves the bodies of a document read from disk; one
// holding a body inline is written anew at the next compaction.
func (s *Store) resolveLoaded(d *wire.Doc) {
	if s.bodies != nil && s.bodies.resolve(d) {
		s.rewrite = true
	}
}

// settleLost notes, once d is the state, the messages whose body the body
// file does not hold (their reference names no intact record), and keeps
// those noted earlier that still have no body; then reports them. It only
// reads d, which readers may already see: a lost body reads as empty.
func (s *Store) settleLost(d *wire.Doc) {
	still := map[string]wire.BodyRef{}
	for _, m := range d.Messages.All() {
		switch {
		case m.Body != "":
		case m.BodyRef != nil:
			if !s.bodies.has(*m.BodyRef) {
				still[m.ID] = *m.BodyRef
			}
		default:
			if ref, ok := s.bodies.lost[m.ID]; ok {
				still[m.ID] = ref
			}
		}
	}
	s.bodies.lost = still
	s.reportBodies()
}

func (s *Store) reportBodies() {
	if len(s.bodies.lost) == 0 {
		s.health.clear(problemBodies)
		return
	}
	ids := make([]string, 0, len(s.bodies.lost))
	for id := range s.bodies.lost {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	if len(ids) > 5 {
		ids = append(ids[:5], "...")
	}
	s.health.set(problemBodies, fmt.Sprintf("%d message bodies are missing or fail their checksum in %s (%s): those messages answer with an empty body until a body is set again with PATCH /api/messages/{id}",
		len(s.bodies.lost), filepath.Base(s.bodies.path), strings.Join(ids, ", ")))
}

// flushBodies is the encoder's flush: what it appended becomes durable.
func (s *Store) flushBodies() error {
	err := s.bodies.flush()
	s.reportBodies() // a body edited since may have mended a lost one
	return err
}

// diskForm is m as the document on disk holds it: a reference in place of
// the body, whose record is appended to the body file when it is new.
func (b *bodyFile) diskForm(m *wire.Message) (*wire.Message, error) {
	if m.Body == "" {
		ref, ok := b.lost[m.ID]
		if !ok {
			return m, nil
		}
		c := *m
		c.BodyRef = &ref
		return &c, nil
	}
	ref := storefile.BodyRefOf(m.Body)
	if sp, ok := b.spans[ref.SHA256]; !ok || sp.Len != ref.Bytes {
		start := b.size + int64(len(b.pending))
		b.pending = storefile.AppendBody(b.pending, ref, m.ID, m.Body)
		end := b.size + int64(len(b.pending))
		b.mu.Lock() // a reader skips it until flush moves size past it
		b.spans[ref.SHA256] = storefile.BodySpan{Start: start, Off: end - ref.Bytes - 1, Len: ref.Bytes, End: end}
		b.mu.Unlock()
		b.pendingSHAs = append(b.pendingSHAs, ref.SHA256)
	}
	delete(b.lost, m.ID) // a new body mends a lost one
	b.noteMoved(m, ref)
	c := *m
	c.Body, c.BodyRef = "", &ref
	return &c, nil
}

// flush appends the pending records and syncs them: it runs before the
// document or snapshot that names them is renamed into place. On failure
// the records are forgotten, so the next try appends them again.
func (b *bodyFile) flush() error {
	if len(b.pending) == 0 {
		return nil
	}
	_, err := b.f.WriteAt(b.pending, b.size)
	if err == nil {
		err = b.f.Sync()
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if err != nil {
		b.f.Truncate(b.size)
		for _, sha := range b.pendingSHAs {
			delete(b.spans, sha)
		}
		b.pending, b.pendingSHAs = reuse(b.pending), nil
		return fmt.Errorf("append bodies: %w", err)
	}
	b.size += int64(len(b.pending))
	b.pending, b.pendingSHAs = reuse(b.pending), nil
	return nil
}

// reuse empties a buffer of pending records for the next compaction,
// keeping it unless a large one (a first ingest's bodies) made it big.
func reuse(p []byte) []byte {
	if cap(p) > 1<<20 {
		return nil
	}
	return p[:0]
}

func (b *bodyFile) close() error {
	if b == nil || b.f == nil {
		return nil
	}
	return b.f.Close()
}
