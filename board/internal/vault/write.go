package vault

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"time"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/shared/vaultpage"
	"github.com/opsboard/opsboard/shared/wire"
)

// edit is what a write does to one page: from the page as it is on disk at
// the moment of writing, the managed fields and body it should have. It is
// applied to a fresh read every time, so a hand edit made since the board
// last read the page is kept and only what the write changes is applied
// over it.
type edit func(p vaultpage.Page) (vaultpage.Fields, string, error)

// errRaced means the file changed on disk between the read a write was
// computed from and its rename.
var errRaced = errors.New("the page changed on disk while it was being written")

// writeTries bounds how often a write starts again because the page kept
// changing under it; each try waits a little longer for the editor to
// finish.
const (
	writeTries   = 8
	writeBackoff = 5 * time.Millisecond
)

// update applies fn to the page at rel as it is on disk now and writes the
// result atomically. It reports the page as written (or as found, when fn
// changes nothing) and whether the file changed. The caller holds writeMu.
func (v *Vault) update(rel string, fn edit) (*entry, bool, error) {
	for try := range writeTries {
		if try > 0 {
			time.Sleep(time.Duration(try) * writeBackoff)
		}
		cur, data, err := v.readFile(rel)
		if err != nil {
			return nil, false, v.missing(rel, err)
		}
		if err := writable(cur); err != nil {
			v.adopt(cur)
			return nil, false, err
		}
		f, body, err := fn(cur.page)
		if err != nil {
			return nil, false, err
		}
		out, err := render(data, f, body)
		if err != nil {
			return nil, false, err
		}
		if bytes.Equal(out, data) {
			v.adopt(cur)
			return cur, false, nil
		}
		err = v.replace(rel, out, data)
		if errors.Is(err, errRaced) {
			continue
		}
		if err != nil {
			return nil, false, err
		}
		e := v.written(rel, out)
		return e, true, nil
	}
	return nil, false, fmt.Errorf("write %s: %w; try again", rel, errRaced)
}

// writable refuses a write to a page the board must not rewrite.
func writable(e *entry) error {
	if e.tooLarge {
		return errs.TooLarge("page %s is over %d MiB; the board does not write it", e.page.Path, wire.MaxPageBytes>>20)
	}
	if e.page.Broken != "" {
		return errBroken(e.page)
	}
	return nil
}

func errBroken(p vaultpage.Page) error {
	return errs.BadRequest("page %s is broken (%s): fix its frontmatter by hand first; the board does not rewrite a broken page", p.Path, p.Broken)
}

// render is vaultpage.Render with the size limit. A note without
// frontmatter that gains no managed key (a link rewritten in it) stays
// without: the board adds nothing it does not need.
func render(old []byte, f vaultpage.Fields, body string) ([]byte, error) {
	if old != nil && !bytes.HasPrefix(old, []byte("---")) && isZero(f) {
		return []byte(body), nil
	}
	out, err := vaultpage.Render(old, f, body)
	if err != nil {
		return nil, errs.BadRequest("field 'broken': %v", err)
	}
	if len(out) > wire.MaxPageBytes {
		return nil, errs.TooLarge("the page would be over %d MiB", wire.MaxPageBytes>>20)
	}
	return out, nil
}

func isZero(f vaultpage.Fields) bool {
	return f.ID == "" && f.OwnID == "" && f.Type == "" && f.Title == "" && f.MergedInto == "" &&
		len(f.Aliases)+len(f.Emails)+len(f.Domains)+len(f.Cases) == 0
}

// written puts a page the vault just wrote in the index.
func (v *Vault) written(rel string, data []byte) *entry {
	e := &entry{page: vaultpage.Parse(rel, data), mod: v.cfg.Now()}
	if st, err := os.Lstat(v.abs(rel)); err == nil {
		e.mod = st.ModTime()
	}
	v.adopt(e)
	return e
}

// missing turns a failed read of a listed page into the answer for it.
func (v *Vault) missing(rel string, err error) error {
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, errNotPage) {
		v.mu.Lock()
		v.idx.remove(rel)
		v.mu.Unlock()
		return errs.NotFound("no vault page %s", rel)
	}
	return fmt.Errorf("read %s: %w", rel, err)
}

// replace writes data over the page at rel atomically (temp file, fsync,
// rename, folder fsync), unless the file no longer holds was: a hand edit
// since the read wins, and the caller starts over from it. The check and
// the rename are microseconds apart; an edit inside that window is the one
// the filesystem sees last either way.
func (v *Vault) replace(rel string, data, was []byte) error {
	p := v.abs(rel)
	mode := fs.FileMode(0o644)
	if st, err := os.Lstat(p); err == nil {
		mode = st.Mode().Perm()
	}
	tmp, err := v.temp(filepath.Dir(p), data, mode)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	now, err := os.ReadFile(p)
	if err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	if hashOf(now) != hashOf(was) {
		return errRaced
	}
	if err := os.Rename(tmp, p); err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	return syncDir(filepath.Dir(p))
}

// place writes data as a new file at rel, never over an existing one: the
// temp file is hard-linked into place, which fails when the name is taken.
func (v *Vault) place(rel string, data []byte) error {
	p := v.abs(rel)
	dir := filepath.Dir(p)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	if !v.inside(dir) {
		return errs.NotFound("no vault folder for %s", rel)
	}
	tmp, err := v.temp(dir, data, 0o644)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, p); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return errs.BadRequest("field 'title': a file %s is already in the vault", rel)
		}
		return fmt.Errorf("write %s: %w", rel, err)
	}
	return syncDir(dir)
}

// temp writes data to a new dot file in dir (the scan and the watch skip
// dot files) and syncs it.
func (v *Vault) temp(dir string, data []byte, mode fs.FileMode) (string, error) {
	var b [6]byte
	_, _ = rand.Read(b[:])
	name := filepath.Join(dir, ".vault-"+hex.EncodeToString(b[:])+".tmp")
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return "", fmt.Errorf("write %s: %w", path.Base(dir), err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(name)
		return "", fmt.Errorf("write %s: %w", name, err)
	}
	return name, nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}

func hashOf(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
