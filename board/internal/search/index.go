package search

import (
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/opsboard/opsboard/shared/wire"
)

// entry is one searchable object, analysed once per record version.
type entry struct {
	typ      string
	id       string // document id; a task's is <caseId>::<taskId>
	idLower  string
	altLower string // a task's own id, lowercased; "" for other types
	caseID   string // owning case, "" when none
	domain   string
	status   string
	archived bool

	titleTerms []uint64  // sorted, unique
	terms      []uint64  // unique terms of the text, sorted
	sig        [4]uint64 // one bit per term (a 256-bit Bloom filter) to skip most lookups
	tf         []uint16  // count of terms[i]
	length     int       // tokens in the text
	text       string    // the indexed text (the spec's embedded fields)

	c *wire.Case
	t *wire.Task
	m *wire.Message
	r *wire.Reminder
}

// Index is the keyword index of one store snapshot. It is immutable.
type Index struct {
	doc     *wire.Doc
	entries []entry
	byID    map[string]int
	avgLen  float64

	// Where each record's entries sit, so the next snapshot can reuse the
	// analysis of records that did not change (the store replaces a record
	// on write and never mutates it, so an equal pointer is equal content).
	caseAt map[*wire.Case]int
	msgAt  map[*wire.Message]int
	remAt  map[*wire.Reminder]int
}

// Indexer keeps the index of the newest snapshot it was asked about.
type Indexer struct {
	mu   sync.Mutex
	last *Index
}

// For returns the index of d, building it (reusing unchanged records'
// analysis from the previous one) when d is a new snapshot.
func (x *Indexer) For(d *wire.Doc) *Index {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.last != nil && x.last.doc == d {
		return x.last
	}
	x.last = Build(d, x.last)
	return x.last
}

// Build indexes d; prev, when not nil, lends the analysis of records it
// shares with d.
func Build(d *wire.Doc, prev *Index) *Index {
	n := len(d.Cases) + len(d.Messages) + len(d.Reminders)
	for _, c := range d.Cases {
		n += len(c.Tasks)
	}
	ix := &Index{
		doc: d, entries: make([]entry, 0, n), byID: make(map[string]int, n),
		caseAt: make(map[*wire.Case]int, len(d.Cases)), msgAt: make(map[*wire.Message]int, len(d.Messages)), remAt: make(map[*wire.Reminder]int, len(d.Reminders)),
	}
	for _, c := range d.Cases {
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
	for _, m := range d.Messages {
		ix.msgAt[m] = len(ix.entries)
		if prev != nil {
			if at, ok := prev.msgAt[m]; ok {
				ix.entries = append(ix.entries, prev.entries[at])
				continue
			}
		}
		ix.entries = append(ix.entries, messageEntry(m))
	}
	for _, r := range d.Reminders {
		ix.remAt[r] = len(ix.entries)
		if prev != nil {
			if at, ok := prev.remAt[r]; ok {
				ix.entries = append(ix.entries, prev.entries[at])
				continue
			}
		}
		ix.entries = append(ix.entries, reminderEntry(r))
	}
	total := 0
	for i := range ix.entries {
		ix.byID[ix.entries[i].id] = i
		total += ix.entries[i].length
	}
	if len(ix.entries) > 0 {
		ix.avgLen = float64(total) / float64(len(ix.entries))
	}
	return ix
}

func caseEntry(c *wire.Case) entry {
	e := entry{typ: TypeCase, id: c.ID, caseID: c.ID, domain: string(c.Domain), status: string(c.Status), archived: c.ArchivedAt != "", c: c,
		text: join(c.Title, c.Summary, strings.Join(c.Tags, " "), strings.Join(c.Labels, " "))}
	e.analyse(c.Title)
	return e
}

func taskEntry(c *wire.Case, t *wire.Task) entry {
	e := entry{typ: TypeTask, id: c.ID + "::" + t.ID, altLower: strings.ToLower(t.ID), caseID: c.ID, domain: string(c.Domain), status: string(c.Status), c: c, t: t,
		text: join(t.Title, t.Detail)}
	e.analyse(t.Title)
	return e
}

func messageEntry(m *wire.Message) entry {
	e := entry{typ: TypeMessage, id: m.ID, caseID: m.CaseID, m: m, text: join(m.Subject, m.From, m.Preview)}
	e.analyse(m.Subject)
	return e
}

func reminderEntry(r *wire.Reminder) entry {
	titles := make([]string, 0, len(r.Tasks))
	for _, t := range r.Tasks {
		titles = append(titles, t.Title)
	}
	e := entry{typ: TypeReminder, id: r.ID, caseID: r.CaseID, domain: string(r.Domain), r: r,
		text: join(r.Title, r.Detail, strings.Join(r.Labels, " "), strings.Join(titles, "\n"), string(r.Domain))}
	e.analyse(r.Title)
	return e
}

func (e *entry) analyse(title string) {
	e.idLower = strings.ToLower(e.id)
	tokens(title, func(h uint64) { e.titleTerms = append(e.titleTerms, h) })
	slices.Sort(e.titleTerms)
	e.titleTerms = slices.Compact(e.titleTerms)
	var all []uint64
	tokens(e.text, func(h uint64) { all = append(all, h) })
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

func join(parts ...string) string {
	var b strings.Builder
	for _, p := range parts {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(p)
	}
	return b.String()
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
