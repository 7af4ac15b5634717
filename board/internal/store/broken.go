package store

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// markBroken records that the document does not parse and copies it aside
// (once per distinct content) before anything can replace it.
func (s *Store) markBroken(cause error) {
	s.refuse(fmt.Sprintf("does not parse (%v)", shortErr(cause)), cause)
}

// refuse records that the document on disk was not loaded, for the reason
// why (it reads "board.json <why>"), and copies it aside once per distinct
// content. The board serves the last good state and journals every write;
// compaction leaves the file alone until the person fixes or deletes it.
func (s *Store) refuse(why string, cause error) {
	data, err := os.ReadFile(s.path)
	aside := ""
	if err == nil {
		aside = s.copyAside(data)
	}
	msg := fmt.Sprintf("%s %s; serving the last good state and journaling every write. ", filepath.Base(s.path), why)
	if aside != "" {
		msg += "The file was copied to " + aside + ". "
	}
	msg += "Fix the file or delete it to resume writing the document."
	s.log.Error("store.document_refused", "path", s.path, "why", why, "err", cause, "copy", aside)
	s.health.set(problemDocument, msg)
}

// refusedError says why a document that parses is still not loaded.
type refusedError struct{ why string }

func (e *refusedError) Error() string { return e.why }

func (s *Store) copyAside(data []byte) string {
	base := filepath.Base(s.path) + ".broken-"
	ents, _ := os.ReadDir(s.dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), base) {
			if old, err := os.ReadFile(filepath.Join(s.dir, e.Name())); err == nil && bytes.Equal(old, data) {
				return filepath.Join(s.dir, e.Name())
			}
		}
	}
	p := filepath.Join(s.dir, base+s.now().UTC().Format("20060102T150405.000Z"))
	for n := 2; fileExists(p); n++ { // never replace an earlier copy
		p = filepath.Join(s.dir, fmt.Sprintf("%s%s-%d", base, s.now().UTC().Format("20060102T150405.000Z"), n))
	}
	if err := writeFileSync(p, data); err != nil {
		s.log.Error("store.copy_aside", "err", err)
		return ""
	}
	return p
}

func shortErr(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, ": "); i >= 0 && strings.Contains(msg, "parse document") {
		return msg[i+2:]
	}
	return msg
}
