package vault

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Hand edits are read after the folder has been quiet for watchQuiet, so
// an editor's save (often several events) is read once, whole; a folder
// that never goes quiet is still read every watchMaxWait. Both stay well
// inside the 2 s a hand edit may take to show.
const (
	watchQuiet   = 100 * time.Millisecond
	watchMaxWait = 500 * time.Millisecond
)

func (v *Vault) newWatcher() (*fsnotify.Watcher, error) {
	return fsnotify.NewWatcher()
}

// watchLoop re-reads what the folder watch reports, until Close.
func (v *Vault) watchLoop(w *fsnotify.Watcher) {
	defer w.Close()
	pending := map[string]bool{}
	quiet := time.NewTimer(time.Hour)
	quiet.Stop()
	var deadline <-chan time.Time
	for {
		select {
		case <-v.stop:
			quiet.Stop()
			return
		case ev, ok := <-w.Events:
			if !ok {
				return
			}
			rel, ok := v.relative(ev.Name)
			if !ok {
				continue
			}
			pending[rel] = true
			quiet.Reset(watchQuiet)
			if deadline == nil {
				deadline = time.After(watchMaxWait)
			}
		case err, ok := <-w.Errors:
			if !ok {
				return
			}
			v.cfg.Log.Warn("vault.watch", "err", err)
			if errors.Is(err, fsnotify.ErrEventOverflow) { // events were lost: read it all again
				pending["."] = true
				quiet.Reset(watchQuiet)
			}
		case <-quiet.C:
			v.refresh(w, pending)
			pending, deadline = map[string]bool{}, nil
		case <-deadline:
			quiet.Stop()
			v.refresh(w, pending)
			pending, deadline = map[string]bool{}, nil
		}
	}
}

// relative is name relative to the vault, '/'-separated, or false when it
// is outside it or inside a dot folder or file (.obsidian changes all the
// time and is not the vault's).
func (v *Vault) relative(name string) (string, bool) {
	r, err := filepath.Rel(v.root, name)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", false
	}
	r = filepath.ToSlash(r)
	for _, part := range strings.Split(r, "/") {
		if strings.HasPrefix(part, ".") && part != "." {
			return "", false
		}
	}
	return r, true
}

// refresh re-reads the paths the watch reported and tells the board when a
// page changed.
func (v *Vault) refresh(w watcher, paths map[string]bool) {
	changed := false
	for rel := range paths {
		if v.refreshPath(w, rel) {
			changed = true
		}
	}
	if changed {
		v.cfg.OnChange()
	}
}

// refreshPath brings the index up to date with one path: a page file, a
// folder (new, or moved in), or something that is gone.
func (v *Vault) refreshPath(w watcher, rel string) bool {
	st, err := os.Lstat(v.abs(rel))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		v.mu.Lock()
		defer v.mu.Unlock()
		gone := v.idx.remove(rel)
		return v.idx.removeUnder(rel) > 0 || gone
	case err != nil:
		v.cfg.Log.Warn("vault.watch", "path", rel, "err", err)
		return false
	case st.IsDir():
		return v.rescan(w, rel)
	case st.Mode().IsRegular() && strings.HasSuffix(rel, ".md"):
		e, err := v.read(rel)
		if err != nil {
			v.cfg.Log.Warn("vault.watch", "path", rel, "err", err)
			return false
		}
		return v.adopt(e)
	}
	return false
}

// rescan re-reads the folder rel whole: pages found are adopted, pages the
// index holds below it that are gone are dropped.
func (v *Vault) rescan(w watcher, rel string) bool {
	found, err := v.walk(rel, w)
	if err != nil {
		v.cfg.Log.Warn("vault.watch", "path", rel, "err", err)
	}
	seen := map[string]bool{}
	changed := false
	for _, e := range found {
		seen[e.page.Path] = true
		if v.adopt(e) {
			changed = true
		}
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	for p := range v.idx.pages {
		if (rel == "." || strings.HasPrefix(p, rel+"/")) && !seen[p] {
			v.idx.remove(p)
			changed = true
		}
	}
	return changed
}

// adopt puts a freshly read page in the index and reports whether it
// differs from what the index held (the vault's own writes do not).
func (v *Vault) adopt(e *entry) bool {
	v.mu.Lock()
	old, ok := v.idx.pages[e.page.Path]
	v.mu.Unlock()
	if ok && old.page.Hash == e.page.Hash && old.tooLarge == e.tooLarge {
		return false
	}
	if ok && !old.tooLarge && !e.tooLarge {
		// The vault's own writes are in the index before the watch reads
		// them, so a new content here is the person's (or their editor's).
		// It is stamped before the index shows it, so no write can act on
		// the new content while it is not yet the person's.
		v.handEdit(old.page, e.page)
	}
	v.mu.Lock()
	v.idx.put(e)
	v.mu.Unlock()
	return true
}

// current is e as its file stands now: a hand edit the watch has not read
// yet is adopted (and so stamped as the person's) first, so a patch is
// checked against what it would overwrite. e itself when the file cannot
// be read; the write that follows says why.
func (v *Vault) current(e entry) entry {
	cur, _, err := v.readFile(e.page.Path)
	if err != nil || (cur.page.Hash == e.page.Hash && cur.tooLarge == e.tooLarge) {
		return e
	}
	v.adopt(cur)
	return *cur
}
