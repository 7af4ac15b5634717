package search

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/opsboard/opsboard/shared/searchdoc"
	"github.com/opsboard/opsboard/shared/wire"
)

// entry is one searchable object, analysed once per record version.
type entry struct {
	searchdoc.Doc // id, type, filter fields and the indexed text
	idLower       string
	altLower      string // a task's own id, lowercased; "" for other types

	titleTerms []uint64  // sorted, unique
	terms      []uint64  // unique terms of the text, sorted
	sig        [4]uint64 // one bit per term (a 256-bit Bloom filter) to skip most lookups
	tf         []uint16  // count of terms[i]
	length     int       // tokens in the text

	c *wire.Case
	t *wire.Task
	m *wire.Message
	r *wire.Reminder
	p *wire.PageSummary
}

// Index is the keyword index of one store snapshot. It is immutable.
type Index struct {
	doc     *wire.Doc
	pages   *PageSet // nil: a board without a vault
	body    BodyFunc // reads a message's body for extra
	entries []entry
	byID    map[string]int
	avgLen  float64

	// Where each record's entries sit, so the next snapshot can reuse the
	// analysis of records that did not change (the store replaces a record
	// on write and never mutates it, so an equal pointer is equal content).
	caseAt map[*wire.Case]int
	msgAt  map[*wire.Message]int
	remAt  map[*wire.Reminder]int

	// extra holds, aligned with entries, the longer texts a request may ask
	// for (a message's body, a case's notes), kept apart so a search without
	// fields ranks as before. It is analysed on the first request that asks
	// (tokenizing every body would triple the cost of a build otherwise),
	// and from then on carried to the next snapshot's index like entries.
	extraOnce  sync.Once
	extraReady atomic.Bool
	extra      []bag
}

// Indexer keeps the index of the newest snapshot it was asked about.
type Indexer struct {
	// Body reads a message's body for the indexes it builds; nil reads
	// the message's own field.
	Body BodyFunc

	mu   sync.Mutex
	last *Index
}

// BodyFunc reads a message's body. The store's holds a message loaded
// from disk without its body, which it reads from the body file on demand.
type BodyFunc func(*wire.Message) string

// of is m's body, read with f; m's own field when f is nil.
func (f BodyFunc) of(m *wire.Message) string {
	if f == nil {
		return m.Body
	}
	return f(m)
}

// For returns the index of d, building it (reusing unchanged records'
// analysis from the previous one) when d is a new snapshot.
func (x *Indexer) For(d *wire.Doc) *Index { return x.ForPages(d, nil) }

// ForPages is For over d and the vault's pages.
func (x *Indexer) ForPages(d *wire.Doc, pages *PageSet) *Index {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.last != nil && x.last.doc == d && x.last.pages == pages {
		return x.last
	}
	x.last = build(d, pages, x.last, x.Body)
	return x.last
}

// Build indexes d; prev, when not nil, lends the analysis of records it
// shares with d.
func Build(d *wire.Doc, prev *Index) *Index { return BuildPages(d, nil, prev) }

// BuildPages indexes d and the vault's pages (nil: none); the pages come
// after the store's records.
func BuildPages(d *wire.Doc, pages *PageSet, prev *Index) *Index { return build(d, pages, prev, nil) }

func build(d *wire.Doc, pages *PageSet, prev *Index, body BodyFunc) *Index {
	n := d.Cases.Len() + d.Messages.Len() + d.Reminders.Len() + pages.Len()
	for _, c := range d.Cases.All() {
		n += len(c.Tasks)
	}
	ix := &Index{
		doc: d, pages: pages, body: body, entries: make([]entry, 0, n), byID: make(map[string]int, n),
		caseAt: make(map[*wire.Case]int, d.Cases.Len()), msgAt: make(map[*wire.Message]int, d.Messages.Len()), remAt: make(map[*wire.Reminder]int, d.Reminders.Len()),
	}
	for _, c := range d.Cases.All() {
		ix.caseAt[c] = len(ix.entries)
		if prev != nil {
			if at, ok := prev.caseAt[c]; ok {
				ix.entries = append(ix.entries, prev.entries[at:at+1+len(c.Tasks)]...)
				continue
			}
		}
		ix.entries = append(ix.entries, caseEntry(c))
		for i := range c.Tasks {
			ix.entries = append(ix.entries, taskEntry(c, &c.Tasks[i]))
		}
	}
	for _, m := range d.Messages.All() {
		ix.msgAt[m] = len(ix.entries)
		if prev != nil {
			if at, ok := prev.msgAt[m]; ok {
				ix.entries = append(ix.entries, prev.entries[at])
				continue
			}
		}
		ix.entries = append(ix.entries, messageEntry(m))
	}
	for _, r := range d.Reminders.All() {
		ix.remAt[r] = len(ix.entries)
		if prev != nil {
			if at, ok := prev.remAt[r]; ok {
				ix.entries = append(ix.entries, prev.entries[at])
				continue
			}
		}
		ix.entries = append(ix.entries, reminderEntry(r))
	}
	if pages != nil {
		ix.entries = append(ix.entries, pages.entries...)
	}
	if prev != nil && prev.extraReady.Load() {
		ix.extraOnce.Do(func() { ix.buildExtra(prev) })
	}
	total := 0
	for i := range ix.entries {
		ix.byID[ix.entries[i].ID] = i
		total += ix.entries[i].length
	}
	if len(ix.entries) > 0 {
		ix.avgLen = float64(total) / float64(len(ix.entries))
	}
	return ix
}

func caseEntry(c *wire.Case) entry {
	e := entry{Doc: searchdoc.Case(c), c: c}
	e.analyse(c.Title)
	return e
}

func taskEntry(c *wire.Case, t *wire.Task) entry {
	e := entry{Doc: searchdoc.Task(c, t), altLower: strings.ToLower(t.ID), c: c, t: t}
	e.analyse(t.Title)
	return e
}

func messageEntry(m *wire.Message) entry {
	e := entry{Doc: searchdoc.Message(m), m: m}
	e.analyse(m.Subject)
	return e
}

func reminderEntry(r *wire.Reminder) entry {
	e := entry{Doc: searchdoc.Reminder(r), r: r}
	e.analyse(r.Title)
	return e
}

func (e *entry) analyse(title string) {
	e.idLower = strings.ToLower(e.ID)
	tokens(title, func(h uint64) { e.titleTerms = append(e.titleTerms, h) })
	slices.Sort(e.titleTerms)
	e.titleTerms = slices.Compact(e.titleTerms)
	var all []uint64
	tokens(e.Text, func(h uint64) { all = append(all, h) })
	e.length = len(all)
	slices.Sort(all)
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j] == all[i] {
			j++
		}
		e.terms = append(e.terms, all[i])
		e.sig[(all[i]>>6)&3] |= 1 << (all[i] & 63)
		e.tf = append(e.tf, uint16(min(j-i, 65535)))
		i = j
	}
}

// extras returns the extra texts' bags, analysing them on first use.
func (ix *Index) extras() []bag {
	ix.extraOnce.Do(func() { ix.buildExtra(nil) })
	return ix.extra
}

// buildExtra analyses every entry's extra text, reusing prev's analysis of
// the records it shares.
func (ix *Index) buildExtra(prev *Index) {
	ix.extra = make([]bag, len(ix.entries))
	for i := range ix.entries {
		e := &ix.entries[i]
		switch {
		case e.t != nil: // a task has no extra text
		case e.m != nil:
			if at, ok := prev.lookupMessage(e.m); ok {
				ix.extra[i] = prev.extra[at]
			} else {
				ix.extra[i] = bagOf(ix.body.of(e.m))
			}
		case e.c != nil:
			if at, ok := prev.lookupCase(e.c); ok {
				ix.extra[i] = prev.extra[at]
				continue
			}
			notes := make([]string, 0, len(e.c.Notes))
			for _, n := range e.c.Notes {
				notes = append(notes, n.Text)
			}
			ix.extra[i] = bagOf(strings.Join(notes, "\n"))
		}
	}
	ix.extraReady.Store(true)
}

func (ix *Index) lookupMessage(m *wire.Message) (int, bool) {
	if ix == nil {
		return 0, false
	}
	at, ok := ix.msgAt[m]
	return at, ok
}

func (ix *Index) lookupCase(c *wire.Case) (int, bool) {
	if ix == nil {
		return 0, false
	}
	at, ok := ix.caseAt[c]
	return at, ok
}

// bag is the term counts of a text, for the extra fields.
type bag struct {
	terms  []uint64 // sorted, unique
	tf     []uint16
	sig    [4]uint64
	length int
}

func bagOf(text string) bag {
	var b bag
	if text == "" {
		return b
	}
	var all []uint64
	tokens(text, func(h uint64) { all = append(all, h) })
	b.length = len(all)
	slices.Sort(all)
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j] == all[i] {
			j++
		}
		b.terms = append(b.terms, all[i])
		b.sig[(all[i]>>6)&3] |= 1 << (all[i] & 63)
		b.tf = append(b.tf, uint16(min(j-i, 65535)))
		i = j
	}
	return b
}

// freq is how often term t occurs in the bag.
func (b *bag) freq(t uint64) uint16 {
	if b.sig[(t>>6)&3]&(1<<(t&63)) == 0 {
		return 0
	}
	if i, ok := slices.BinarySearch(b.terms, t); ok {
		return b.tf[i]
	}
	return 0
}

// tokens calls fn with the hash of each lowercased run of letters and
// digits in s. Hashing instead of keeping strings makes a term a single
// word to compare.
func tokens(s string, fn func(uint64)) {
	const offset, prime = 14695981039346656037, 1099511628211
	h, in := uint64(offset), false
	for i := 0; i < len(s); {
		c := s[i]
		var r rune
		size := 1
		if c < utf8.RuneSelf {
			r = rune(c)
		} else {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		i += size
		switch {
		case c < utf8.RuneSelf && ('a' <= c && c <= 'z' || '0' <= c && c <= '9'):
			h = (h ^ uint64(c)) * prime
			in = true
		case c < utf8.RuneSelf && 'A' <= c && c <= 'Z':
			h = (h ^ uint64(c+'a'-'A')) * prime
			in = true
		case c >= utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			var buf [4]byte
			for _, b := range buf[:utf8.EncodeRune(buf[:], unicode.ToLower(r))] {
				h = (h ^ uint64(b)) * prime
			}
			in = true
		default:
			if in {
				fn(h)
			}
			h, in = offset, false
		}
	}
	if in {
		fn(h)
	}
}

// stopwords are left out of title matching and overlap when a query has
// other words, so "the invoice" matches a title "Invoice".
var stopwords = func() map[uint64]bool {
	m := map[uint64]bool{}
	for _, w := range strings.Fields("a an and are as at be by for from in is it of on or re fw fwd the to with my our your") {
		tokens(w, func(h uint64) { m[h] = true })
	}
	return m
}()

// queryTerms returns the unique terms of q without stopwords (all of them
// when q has nothing else).
func queryTerms(q string) []uint64 {
	var all, content []uint64
	tokens(q, func(h uint64) {
		if slices.Contains(all, h) {
			return
		}
		all = append(all, h)
		if !stopwords[h] {
			content = append(content, h)
		}
	})
	if len(content) > 0 {
		return content
	}
	return all
}
