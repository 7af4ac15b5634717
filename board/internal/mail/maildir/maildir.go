// Package maildir reads a Maildir (its new/ and cur/ folders) as a mail source.
//
// A message's Ref is its unique name: the file name up to the info part
// (":2,..."), which stays the same when a mail client moves the file from new/
// to cur/ or changes its flags. The watermark is the set of unique names taken.
package maildir

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/opsboard/opsboard/board/internal/mail"
	"github.com/opsboard/opsboard/board/internal/mail/nameset"
)

// Source is a Maildir on the local disk. It never moves, renames or flags a
// file: reading leaves the mailbox as it was.
type Source struct {
	dir string
}

// New returns the Maildir at dir (the folder that holds new/ and cur/).
func New(dir string) *Source { return &Source{dir: dir} }

var _ mail.Source = (*Source)(nil)

// Unique returns the unique part of a Maildir file name: everything before the
// first ':' (the info separator).
func Unique(name string) string {
	if i := strings.IndexByte(name, ':'); i >= 0 {
		return name[:i]
	}
	return name
}

// list maps each unique name to its path, new/ before cur/.
func (s *Source) list() (map[string]string, error) {
	found := map[string]string{}
	seen := 0
	for _, sub := range []string{"new", "cur"} {
		entries, err := os.ReadDir(filepath.Join(s.dir, sub))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read maildir %s: %w", s.dir, err)
		}
		seen++
		for _, e := range entries {
			if e.IsDir() || strings.HasPrefix(e.Name(), ".") {
				continue
			}
			u := Unique(e.Name())
			if _, dup := found[u]; !dup {
				found[u] = filepath.Join(s.dir, sub, e.Name())
			}
		}
	}
	if seen == 0 {
		return nil, fmt.Errorf("read maildir %s: no new/ or cur/ folder", s.dir)
	}
	return found, nil
}

// Read calls fn for every message whose unique name is not in the watermark,
// in name order (Maildir names start with the delivery time).
func (s *Source) Read(ctx context.Context, after string, fn func(mail.Mail, string) error) error {
	taken, err := nameset.Decode(after)
	if err != nil {
		return fmt.Errorf("maildir %s: %w: %w", s.dir, mail.ErrBadWatermark, err)
	}
	present, err := s.list()
	if err != nil {
		return err
	}
	todo := taken.Todo(present) // prunes the set first: the watermark starts from it
	wm := taken.Appender()
	for _, u := range todo {
		if err := ctx.Err(); err != nil {
			return err
		}
		m, err := s.load(present[u], u)
		if errors.Is(err, fs.ErrNotExist) {
			m, err = s.Get(ctx, u) // moved (new/ to cur/) since the listing
		}
		if errors.Is(err, mail.ErrNotFound) {
			continue // deleted since the listing
		}
		if err != nil {
			return err
		}
		if err := fn(m, wm.Add(u)); err != nil {
			return err
		}
	}
	return nil
}

// Get returns the message with unique name ref, wherever it now sits.
func (s *Source) Get(ctx context.Context, ref string) (mail.Mail, error) {
	if ref == "" || strings.ContainsAny(ref, `/\:`) || ref == "." || ref == ".." {
		return mail.Mail{}, fmt.Errorf("maildir ref %q: %w", ref, mail.ErrNotFound)
	}
	// Two tries: a client may move the file between the listing and the read.
	for range 2 {
		present, err := s.list()
		if err != nil {
			return mail.Mail{}, err
		}
		path, ok := present[ref]
		if !ok {
			break
		}
		m, err := s.load(path, ref)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		return m, err
	}
	return mail.Mail{}, fmt.Errorf("maildir %s: %s: %w", s.dir, ref, mail.ErrNotFound)
}

// load reads and parses one file. A mail Parse cannot read is still delivered
// with its raw bytes, so one broken file cannot stall the source.
func (s *Source) load(path, ref string) (mail.Mail, error) {
	m, err := mail.ReadFile(path)
	if err != nil {
		return mail.Mail{}, fmt.Errorf("read %s: %w", path, err)
	}
	m.Ref = ref
	return m, nil
}
