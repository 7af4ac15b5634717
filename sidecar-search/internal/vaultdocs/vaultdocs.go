// Package vaultdocs reads the board's vault folder, read-only, as search
// documents of type page: one per Markdown page, with the text the board
// ranks a page by. It reads what the board reads (every *.md below the
// folder, no dot folders, no symlinks, nothing over the page size limit)
// and writes nothing.
package vaultdocs

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/opsboard/opsboard/shared/searchdoc"
	"github.com/opsboard/opsboard/shared/vaultpage"
	"github.com/opsboard/opsboard/shared/wire"
)

// file is what a walk learns of a page file without reading it.
type file struct {
	rel  string // '/'-separated, relative to the folder
	size int64
	mod  int64 // modification time, Unix nanoseconds
}

// Stamp is a fingerprint of the folder's pages (their paths, sizes and
// modification times): it changes when a page is added, removed, moved or
// written. It costs a walk with no reads. A folder with no pages, or none
// at all, has the stamp "".
func Stamp(dir string) string {
	files, err := walk(dir)
	if err != nil {
		return ""
	}
	return stamp(files)
}

func stamp(files []file) string {
	if len(files) == 0 {
		return ""
	}
	h := sha256.New()
	for _, f := range files {
		fmt.Fprintf(h, "%s\x00%d\x00%d\n", f.rel, f.size, f.mod)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// walk lists the page files below dir, sorted by path. A missing folder is
// an empty vault.
func walk(dir string) ([]file, error) {
	if dir == "" {
		return nil, nil
	}
	var out []file
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir {
				return err
			}
			if d != nil && d.IsDir() {
				return filepath.SkipDir
			}
			return nil // one unreadable entry does not hide the rest
		}
		if p != dir && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		// WalkDir never follows a symlink, and only a regular file is
		// a page: nothing outside the folder is read.
		if !d.Type().IsRegular() || !strings.HasSuffix(d.Name(), ".md") {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return nil
		}
		out = append(out, file{rel: filepath.ToSlash(rel), size: info.Size(), mod: info.ModTime().UnixNano()})
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	sort.Slice(out, func(a, b int) bool { return out[a].rel < out[b].rel })
	return out, err
}

// Reader reads a vault folder's pages, parsing again only the files that
// changed since its last read. It is not safe for concurrent use.
type Reader struct {
	Dir  string
	seen map[file]searchdoc.Doc
}

// Docs returns a document per page, in path order, and the folder's stamp
// as read. A page over the size limit, or one that cannot be read, is left
// out.
func (r *Reader) Docs() ([]searchdoc.Doc, string, error) {
	files, err := walk(r.Dir)
	if err != nil {
		return nil, "", fmt.Errorf("read the vault %s: %w", r.Dir, err)
	}
	next := make(map[file]searchdoc.Doc, len(files))
	docs := make([]searchdoc.Doc, 0, len(files))
	for _, f := range files {
		d, ok := r.seen[f]
		if !ok {
			if d, ok = read(r.Dir, f); !ok {
				continue
			}
		}
		next[f] = d
		docs = append(docs, d)
	}
	r.seen = next
	return docs, stamp(files), nil
}

// read parses one page into its document.
func read(dir string, f file) (searchdoc.Doc, bool) {
	if f.size > wire.MaxPageBytes {
		return searchdoc.Doc{}, false
	}
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.rel)))
	if err != nil || len(data) > wire.MaxPageBytes {
		return searchdoc.Doc{}, false
	}
	return Doc(vaultpage.Parse(f.rel, data)), true
}

// Doc is a parsed page's search document, with the same id and text the
// board gives it.
func Doc(p vaultpage.Page) searchdoc.Doc {
	sum := wire.PageSummary{ID: p.Fields.ID, Path: p.Path, Title: p.Title, Type: p.Fields.Type,
		Aliases: p.Fields.Aliases, Emails: p.Fields.Emails, Domains: p.Fields.Domains}
	return searchdoc.Page(&sum, p.Body)
}
