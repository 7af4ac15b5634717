package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

// encodeDoc is the document as a person reads it in an editor: JSON indented
// by one space per level. docEncoder produces the same bytes faster.
func encodeDoc(d *wire.Doc) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", " ")
	if err := enc.Encode(d); err != nil {
		return nil, fmt.Errorf("encode document v%d: %w", d.Version, err)
	}
	return buf.Bytes(), nil
}

// docEncoder writes the document byte for byte as encodeDoc does (for any
// document no deeper than maxIndent, where appendIndent stops indenting
// further), but keeps
// each record's encoding between calls and encodes only the records that
// changed: committed records are immutable (a write replaces the pointer), so
// a record's pointer identifies its bytes. Without it every compaction
// re-encodes the whole document, which at 1k cases with 10k messages costs
// about half a second of CPU. It streams, so no copy of the whole document
// is built in memory. Only compaction and snapshots use it, under compactMu.
type docEncoder struct {
	gen   uint32
	cache map[any]encodedRecord
	// once is an encoder used for one call (WriteDoc): it keeps nothing, so
	// its memory stays one record's encoding whatever the document's size,
	// and it writes each record compact on a line of its own.
	once bool

	// diskForm, when set, gives a message as the document on disk holds
	// it (its body in the body file), and flush makes what diskForm
	// appended durable before the file written is renamed into place.
	diskForm func(*wire.Message) (*wire.Message, error)
	flush    func() error

	// Scratch space for encoding one record at a time (marshal).
	raw      bytes.Buffer
	rawEnc   *json.Encoder
	indented []byte

	// pace, when set, spaces out the encoding so that writers get the
	// processor too (the background compactor sets it; pace.go).
	pace *pacer

	staleMu sync.Mutex
	stale   []any // records changed in place since the last call: re-encode them
}

// forget drops the cached bytes of records a write changed in place. Writers
// call it, so it does not need compactMu.
func (e *docEncoder) forget(recs []any) {
	e.staleMu.Lock()
	defer e.staleMu.Unlock()
	e.stale = append(e.stale, recs...)
}

type encodedRecord struct {
	gen  uint32 // the last call that saw the record; older entries are dropped
	data []byte // indented for its place in the document
}

// WriteDoc streams d to w one record at a time, so a copy of the document
// is never built in memory: laid out as the board writes its document,
// except that each record is compact on a line of its own, which is about
// twice as fast to write. It decodes to the same document.
func WriteDoc(w io.Writer, d *wire.Doc) error {
	e := docEncoder{once: true}
	return e.write(w, d)
}

// streamedList is one collection the encoder writes record by record.
type streamedList struct {
	name storefile.Collection
	list func(io.Writer) error
}

// recordDepth is how deep a record of a top-level collection sits.
const recordDepth = 2

func (e *docEncoder) write(w io.Writer, d *wire.Doc) error {
	if e.cache == nil && !e.once {
		e.cache = map[any]encodedRecord{}
	}
	e.staleMu.Lock()
	for _, r := range e.stale {
		delete(e.cache, r)
	}
	e.stale = nil
	e.staleMu.Unlock()
	e.gen++
	env := *d
	withoutStreamed(&env)
	head, err := json.Marshal(&env)
	if err != nil {
		return fmt.Errorf("encode document v%d: %w", d.Version, err)
	}
	rest := appendIndent(nil, head, 0)
	for _, f := range e.streamed(d) {
		// The collections were encoded as null at depth 1; a JSON string
		// cannot hold a raw newline, so the marker is always the field.
		marker := []byte("\n \"" + f.name + "\": null")
		i := bytes.Index(rest, marker)
		if i < 0 {
			return fmt.Errorf("encode document: field %s not found", f.name)
		}
		if _, err := w.Write(rest[:i+len(marker)-len("null")]); err != nil {
			return err
		}
		if err := f.list(w); err != nil {
			return err
		}
		rest = rest[i+len(marker):]
	}
	if _, err := w.Write(append(rest, '\n')); err != nil {
		return err
	}
	if e.flush != nil {
		if err := e.flush(); err != nil {
			e.cache = nil // its messages name records that were not kept
			return err
		}
	}
	for k, r := range e.cache {
		if r.gen != e.gen {
			delete(e.cache, k)
		}
	}
	return nil
}

// marshal is json.Marshal into the encoder's scratch buffer, valid until
// the next call: a compaction encodes thousands of records, and only their
// indented copies are kept.
func (e *docEncoder) marshal(v any) ([]byte, error) {
	if e.rawEnc == nil {
		e.rawEnc = json.NewEncoder(&e.raw)
	}
	e.raw.Reset()
	if err := e.rawEnc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(e.raw.Bytes(), []byte("\n")), nil // Encode ends the value with a newline
}

// onDisk is r as the file written holds it.
func (e *docEncoder) onDisk(r any) any {
	if m, ok := r.(*wire.Message); ok && e.diskForm != nil {
		dm, err := e.diskForm(m)
		if err != nil {
			return &failing{err}
		}
		return dm
	}
	return r
}

// failing makes json.Marshal fail with err.
type failing struct{ err error }

func (f *failing) MarshalJSON() ([]byte, error) { return nil, f.err }

// writeRecords writes one top-level collection as encodeDoc lays it out.
func writeRecords[T any](e *docEncoder, w io.Writer, list wire.List[*T]) error {
	switch {
	case list.IsNil():
		_, err := io.WriteString(w, "null")
		return err
	case list.Len() == 0:
		_, err := io.WriteString(w, "[]")
		return err
	}
	sep := []byte("[\n  ")
	for _, r := range list.All() {
		e.pace.step()
		c, ok := e.cache[r]
		if !ok {
			raw, err := e.marshal(e.onDisk(r))
			if err != nil {
				return fmt.Errorf("encode record: %w", err)
			}
			c.data = raw // written below, before the scratch is used again
			if !e.once {
				e.indented = appendIndent(e.indented[:0], raw, recordDepth)
				c.data = bytes.Clone(e.indented)
			}
		}
		c.gen = e.gen
		if !e.once {
			e.cache[r] = c
		}
		if _, err := w.Write(sep); err != nil {
			return err
		}
		if _, err := w.Write(c.data); err != nil {
			return err
		}
		sep = []byte(",\n  ")
	}
	_, err := io.WriteString(w, "\n ]")
	return err
}
