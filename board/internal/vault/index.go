package vault

import (
	"slices"
	"strings"
	"time"

	"github.com/opsboard/opsboard/shared/vaultpage"
	"github.com/opsboard/opsboard/shared/wire"
)

// entry is one page file as last read.
type entry struct {
	page vaultpage.Page
	mod  time.Time
	// tooLarge marks a file over wire.MaxPageBytes: listed so the person
	// sees it, never read whole.
	tooLarge bool
}

// key orders pages by title, then path, case-insensitively, as List and
// its cursors do.
func (e *entry) key() string { return sortKey(e.page.Title, e.page.Path) }

func sortKey(title, path string) string { return strings.ToLower(title) + "\x00" + path }

// index is the vault in memory. The maps derived from pages are rebuilt
// lazily, on the first read after a change: a burst of hand edits costs one
// rebuild, and a rebuild of 5,000 pages is a few milliseconds.
type index struct {
	pages map[string]*entry // by path
	d     *derived
}

type derived struct {
	sorted   []*entry            // by key
	byID     map[string]string   // board id -> path
	byEmail  map[string]string   // lower-cased email -> path of a person page
	byDomain map[string]string   // lower-cased domain -> path of an organisation page
	byName   map[string]string   // lower-cased title or alias -> path
	linkedBy map[string][]string // lower-cased [[target]] -> paths of the pages linking it
}

func newIndex() *index { return &index{pages: map[string]*entry{}} }

func (x *index) put(e *entry) {
	x.pages[e.page.Path] = e
	x.d = nil
}

func (x *index) remove(path string) bool {
	if _, ok := x.pages[path]; !ok {
		return false
	}
	delete(x.pages, path)
	x.d = nil
	return true
}

// removeUnder drops every page in folder dir (a folder moved or deleted by
// hand) and reports how many went.
func (x *index) removeUnder(dir string) int {
	n := 0
	for p := range x.pages {
		if strings.HasPrefix(p, dir+"/") {
			delete(x.pages, p)
			n++
		}
	}
	if n > 0 {
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
	d := &derived{
		sorted:   make([]*entry, 0, len(x.pages)),
		byID:     map[string]string{},
		byEmail:  map[string]string{},
		byDomain: map[string]string{},
		byName:   map[string]string{},
		linkedBy: map[string][]string{},
	}
	for _, e := range x.pages {
		d.sorted = append(d.sorted, e)
	}
	slices.SortFunc(d.sorted, func(a, b *entry) int { return strings.Compare(a.key(), b.key()) })
	// In title order, so when two pages claim the same id, address or name
	// (a file copied by hand), the same one wins every time.
	for _, e := range d.sorted {
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
	for _, t := range vaultpage.WikiLinks(e.page.Body) {
		t, _, _ = strings.Cut(t, "#")
		k := strings.ToLower(strings.TrimSpace(t))
		d.linkedBy[k] = append(d.linkedBy[k], p)
	}
	if f.MergedInto != "" { // a stub answers for nobody: its names went to the page it merged into
		return
	}
	setOnce(d.byName, strings.ToLower(e.page.Title), p)
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
