// Package emlfolder reads a folder of .eml files (one message each) as a mail
// source. A message's Ref is its file name; the watermark is the set of names
// taken.
package emlfolder

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

// Source is a folder of .eml files; only files named *.eml (any case) directly
// inside it are read, and none is changed.
type Source struct {
	dir string
}

// New returns the folder at dir.
func New(dir string) *Source { return &Source{dir: dir} }

var _ mail.Source = (*Source)(nil)

func (s *Source) list() (map[string]string, error) {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, fmt.Errorf("read eml folder %s: %w", s.dir, err)
	}
	found := map[string]string{}
	for _, e := range entries {
		if e.IsDir() || strings.HasPrefix(e.Name(), ".") || !isEML(e.Name()) {
			continue
		}
		found[e.Name()] = filepath.Join(s.dir, e.Name())
	}
	return found, nil
}

func isEML(name string) bool { return strings.EqualFold(filepath.Ext(name), ".eml") }

// Read calls fn for every .eml file not in the watermark, in name order.
func (s *Source) Read(ctx context.Context, after string, fn func(mail.Mail, string) error) error {
	taken, err := nameset.Decode(after)
	if err != nil {
		return fmt.Errorf("eml folder %s: %w: %w", s.dir, mail.ErrBadWatermark, err)
	}
	present, err := s.list()
	if err != nil {
		return err
	}
	todo := taken.Todo(present) // prunes the set first: the watermark starts from it
	wm := taken.Appender()
	for _, n := range todo {
		if err := ctx.Err(); err != nil {
			return err
		}
		m, err := s.Get(ctx, n)
		if errors.Is(err, mail.ErrNotFound) {
			continue // deleted since the listing
		}
		if err != nil {
			return err
		}
		if err := fn(m, wm.Add(n)); err != nil {
			return err
		}
	}
	return nil
}

// Get returns the message in file ref.
func (s *Source) Get(_ context.Context, ref string) (mail.Mail, error) {
	if ref == "" || ref != filepath.Base(ref) || !isEML(ref) || strings.ContainsAny(ref, `/\`) {
		return mail.Mail{}, fmt.Errorf("eml ref %q: %w", ref, mail.ErrNotFound)
	}
	path := filepath.Join(s.dir, ref)
	m, err := mail.ReadFile(path) // a broken mail is still delivered (see mail.Parse)
	if errors.Is(err, fs.ErrNotExist) {
		return mail.Mail{}, fmt.Errorf("eml %s: %w", path, mail.ErrNotFound)
	}
	if err != nil {
		return mail.Mail{}, fmt.Errorf("read %s: %w", path, err)
	}
	m.Ref = ref
	return m, nil
}
