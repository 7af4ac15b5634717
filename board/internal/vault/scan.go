package vault

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/opsboard/opsboard/shared/vaultpage"
	"github.com/opsboard/opsboard/shared/wire"
)

// errNotPage is a path the vault does not read: not *.md, in a dot folder,
// a symlink, or outside the vault.
var errNotPage = errors.New("not a vault page")

// firstScan reads the whole vault once, watching every folder it walks,
// then marks the vault ready.
func (v *Vault) firstScan(w watcher) {
	pages, err := v.walk(".", w)
	if err != nil {
		v.cfg.Log.Error("vault.scan", "dir", v.root, "err", err)
	}
	v.mu.Lock()
	for _, e := range pages {
		v.idx.put(e)
	}
	v.idx.derive()
	v.mu.Unlock()
	v.ready.Store(true)
	h := v.Health()
	v.cfg.Log.Info("vault.ready", "dir", v.root, "pages", h.Pages, "broken", h.Broken)
	v.cfg.OnChange()
}

// watcher is the part of the folder watch a walk needs: adding a folder.
// It is nil when watching could not be set up.
type watcher interface{ Add(name string) error }

// walk reads every page below the folder rel (relative to the root), adding
// each folder it enters to w. It skips dot folders and files (.obsidian,
// .trash, the vault's own temp files) and never follows a symlink, so
// nothing outside the vault is read. An unreadable file or folder is
// logged and skipped: one bad file does not hide the rest.
func (v *Vault) walk(rel string, w watcher) ([]*entry, error) {
	var files []string
	err := filepath.WalkDir(v.abs(rel), func(p string, d fs.DirEntry, err error) error {
		if v.stopped() {
			return filepath.SkipAll
		}
		r, rerr := filepath.Rel(v.root, p)
		if rerr != nil {
			return rerr
		}
		r = filepath.ToSlash(r)
		if err != nil {
			v.cfg.Log.Warn("vault.scan", "path", r, "err", err)
			if d != nil && d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		switch {
		case r != "." && strings.HasPrefix(d.Name(), "."):
			if d.IsDir() {
				return filepath.SkipDir
			}
		case d.IsDir():
			if w != nil {
				if err := w.Add(p); err != nil {
					v.cfg.Log.Warn("vault.watch", "path", r, "err", err)
				}
			}
		case d.Type().IsRegular() && strings.HasSuffix(r, ".md"):
			files = append(files, r)
		}
		return nil
	})
	return v.readAll(files), err
}

// readAll reads files on every core: parsing YAML is most of a scan's
// time, and the start-up scan of a large vault should end in well under a
// second.
func (v *Vault) readAll(files []string) []*entry {
	out := make([]*entry, len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(len(files), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				e, err := v.read(files[i])
				if err != nil {
					v.cfg.Log.Warn("vault.scan", "path", files[i], "err", err)
					continue
				}
				out[i] = e
			}
		}()
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	return slices.DeleteFunc(out, func(e *entry) bool { return e == nil })
}

// read reads one page file. It refuses anything but a regular *.md file
// whose folders are inside the vault, and does not read a file over the
// page size limit (it is listed as broken instead).
func (v *Vault) read(rel string) (*entry, error) {
	e, _, err := v.readFile(rel)
	return e, err
}

// readFile is read, with the file's bytes (nil for a file too large to
// read).
func (v *Vault) readFile(rel string) (*entry, []byte, error) {
	if !cleanPath(rel) {
		return nil, nil, errNotPage
	}
	p := v.abs(rel)
	if !v.inside(filepath.Dir(p)) {
		return nil, nil, errNotPage
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	// Lstat after the open: a symlink put in the file's place is refused
	// whether it came before or after.
	st, err := os.Lstat(p)
	if err != nil {
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, nil, errNotPage
	}
	if st.Size() > wire.MaxPageBytes {
		return tooLargeEntry(rel, st.ModTime()), nil, nil
	}
	data, err := io.ReadAll(io.LimitReader(f, wire.MaxPageBytes+1))
	if err != nil {
		return nil, nil, err
	}
	if len(data) > wire.MaxPageBytes {
		return tooLargeEntry(rel, st.ModTime()), nil, nil
	}
	return &entry{page: vaultpage.Parse(rel, data), mod: st.ModTime()}, data, nil
}

// inside reports whether the folder dir, symlinks resolved, is the vault
// or below it.
func (v *Vault) inside(dir string) bool {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return false
	}
	return real == v.root || strings.HasPrefix(real, v.root+string(filepath.Separator))
}

func tooLargeEntry(rel string, mod time.Time) *entry {
	return &entry{mod: mod, tooLarge: true, page: vaultpage.Page{
		Path:   rel,
		Title:  strings.TrimSuffix(path.Base(rel), ".md"),
		Broken: fmt.Sprintf("the file is over %d MiB, so the board does not read it", wire.MaxPageBytes>>20),
	}}
}
