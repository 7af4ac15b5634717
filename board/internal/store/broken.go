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
	data, err := os.ReadFile(s.path)
	aside := ""
	if err == nil {
		aside = s.copyAside(data)
	}
	msg := fmt.Sprintf("%s does not parse (%v); serving the last good state and journaling every write. ", filepath.Base(s.path), shortErr(cause))
	if aside != "" {
		msg += "The broken file was copied to " + aside + ". "
	}
	msg += "Fix the file or delete it to resume writing the document."
	s.log.Error("store.document_broken", "path", s.path, "err", cause, "copy", aside)
	s.health.set(problemDocument, msg)
}

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
