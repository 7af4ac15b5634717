package vault

import (
	"slices"
	"strings"
	"time"

	"github.com/opsboard/opsboard/shared/vaultpage"
	"github.com/opsboard/opsboard/shared/wire"
)

// entry is one page file as last read. It is never changed once in the
// index (a new read replaces it), so a reader may keep one past the lock.
type entry struct {
	page vaultpage.Page
	mod  time.Time
	// tooLarge marks a file over wire.MaxPageBytes: listed so the person
	// sees it, never read whole.
	tooLarge bool
	// key orders pages by title, then path, case-insensitively, as List
	// and its cursors do; text is what a query matches, lower-cased. Both
	// are made once, so a list at 5,000 pages lower-cases nothing.
	key, text string
	// links is the lower-cased targets of the body's [[links]], read once
	// per version of the file rather than on every rebuild of the index.
	links []string
}

func newEntry(p vaultpage.Page, mod time.Time, tooLarge bool) *entry {
	f := p.Fields
	text := strings.Join(append([]string{p.Title, p.Path}, slices.Concat(f.Aliases, f.Emails, f.Domains)...), "\x00")
	e := &entry{page: p, mod: mod, tooLarge: tooLarge, key: sortKey(p.Title, p.Path), text: strings.ToLower(text)}
	for _, t := range vaultpage.WikiLinks(p.Body) {
		t, _, _ = strings.Cut(t, "#")
		if t = strings.ToLower(strings.TrimSpace(t)); t != "" && !slices.Contains(e.links, t) {
			e.links = append(e.links, t)
		}
	}
	return e
}

func sortKey(title, path string) string { return strings.ToLower(title) + "\x00" + path }

// index is the vault in memory. The pages in title order are kept in step
// with every change, so a list never waits; the maps derived from them are
// rebuilt lazily, on the first lookup after a change: a burst of hand edits
// costs one rebuild (a few milliseconds at 5,000 pages).
type index struct {
	pages  map[string]*entry // by path
	sorted []*entry          // by key
	d      *derived
}

type derived struct {
	byID     map[string]string   // board id -> path
	byEmail  map[string]string   // lower-cased email -> path of a person page
	byDomain map[string]string   // lower-cased domain -> path of an organisation page
	byName   map[string]string   // lower-cased title or alias -> path
	linkedBy map[string][]string // lower-cased [[target]] -> paths of the pages linking it
}

func newIndex() *index { return &index{pages: map[string]*entry{}} }

// load fills an empty index at once (the first scan): one sort rather than
// an insert per page.
func (x *index) load(entries []*entry) {
	for _, e := range entries {
		if _, dup := x.pages[e.page.Path]; !dup {
			x.pages[e.page.Path] = e
			x.sorted = append(x.sorted, e)
		}
	}
	slices.SortFunc(x.sorted, func(a, b *entry) int { return strings.Compare(a.key, b.key) })
	x.d = nil
}

// at is where key is, or goes, in sorted.
func (x *index) at(key string) (int, bool) {
	return slices.BinarySearchFunc(x.sorted, key, func(e *entry, k string) int { return strings.Compare(e.key, k) })
}

func (x *index) put(e *entry) {
	x.remove(e.page.Path)
	x.pages[e.page.Path] = e
	i, _ := x.at(e.key)
	x.sorted = slices.Insert(x.sorted, i, e)
	x.d = nil
}

func (x *index) remove(path string) bool {
	old, ok := x.pages[path]
	if !ok {
		return false
	}
	delete(x.pages, path)
	if i, found := x.at(old.key); found {
		x.sorted = slices.Delete(x.sorted, i, i+1)
	}
	x.d = nil
	return true
}

// removeUnder drops every page in folder dir (a folder moved or deleted by
// hand) and reports how many went.
func (x *index) removeUnder(dir string) int {
	n := len(x.sorted)
	x.sorted = slices.DeleteFunc(x.sorted, func(e *entry) bool {
		if strings.HasPrefix(e.page.Path, dir+"/") {
			delete(x.pages, e.page.Path)
			return true
		}
		return false
	})
	if n -= len(x.sorted); n > 0 {
		x.d = nil
	}
	return n
}

// derive returns the derived maps, rebuilding them after a change. The
// caller holds the vault's write lock when x.d may be nil; see view.
func (x *index) derive() *derived {
	if x.d != nil {
		return x.d
	}
	n := len(x.pages)
	d := &derived{
		byID:     make(map[string]string, n),
		byEmail:  make(map[string]string, n),
		byDomain: map[string]string{},
		byName:   make(map[string]string, 2*n),
		linkedBy: make(map[string][]string, n),
	}
	// In title order, so when two pages claim the same id, address or name
	// (a file copied by hand), the same one wins every time.
	for _, e := range x.sorted {
		d.add(e)
	}
	x.d = d
	return d
}

func (d *derived) add(e *entry) {
	p, f := e.page.Path, e.page.Fields
	if f.ID != "" {
		setOnce(d.byID, f.ID, p)
	}
	for _, k := range e.links {
		d.linkedBy[k] = append(d.linkedBy[k], p)
	}
	if f.MergedInto != "" { // a stub answers for nobody: its names went to the page it merged into
		return
	}
	setOnce(d.byName, e.key[:strings.IndexByte(e.key, 0)], p) // the lower-cased title
	for _, a := range f.Aliases {
		setOnce(d.byName, strings.ToLower(a), p)
	}
	if f.Type == wire.PagePerson {
		for _, m := range f.Emails {
			setOnce(d.byEmail, strings.ToLower(m), p)
		}
	}
	if f.Type == wire.PageOrganization {
		for _, dom := range f.Domains {
			setOnce(d.byDomain, strings.ToLower(dom), p)
		}
	}
}

func setOnce(m map[string]string, k, v string) {
	if _, ok := m[k]; !ok && k != "" {
		m[k] = v
	}
}

// list runs fn on the index as it is, derived maps not needed.
func (v *Vault) list(fn func(x *index)) {
	v.mu.RLock()
	defer v.mu.RUnlock()
	fn(v.idx)
}

// view runs fn on the index with its derived maps current.
func (v *Vault) view(fn func(x *index, d *derived)) {
	v.mu.RLock()
	if v.idx.d != nil {
		defer v.mu.RUnlock()
		fn(v.idx, v.idx.d)
		return
	}
	v.mu.RUnlock()
	v.mu.Lock()
	defer v.mu.Unlock()
	fn(v.idx, v.idx.derive())
}

// lookup finds a page by board id or by path as listed. A path that is
// not clean or leaves the vault finds nothing.
func (x *index) lookup(d *derived, idOrPath string) (*entry, bool) {
	if vaultpage.IsBoardID(idOrPath) {
		p, ok := d.byID[idOrPath]
		if !ok {
			return nil, false
		}
		return x.pages[p], true
	}
	if !cleanPath(idOrPath) {
		return nil, false
	}
	e, ok := x.pages[idOrPath]
	return e, ok
}

// cleanPath reports whether p is a page path as the vault lists them:
// relative, '/'-separated, no "." or ".." steps, no dot folders, ending in
// .md. Anything else cannot name a listed page, so it is refused before a
// file is touched.
func cleanPath(p string) bool {
	if p == "" || !strings.HasSuffix(p, ".md") || strings.ContainsAny(p, "\\\x00") {
		return false
	}
	for _, part := range strings.Split(p, "/") {
		if part == "" || strings.HasPrefix(part, ".") {
			return false
		}
	}
	return true
}
