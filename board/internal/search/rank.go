package search

import (
	"math"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/opsboard/opsboard/shared/searchdoc"
)

// Tier boosts. Each tier outranks everything below it whatever the base
// (the base lies in [-0.9, 1]), so the order is exact id, id substring,
// title match, then the base: cosine then token overlap on the semantic
// path, token overlap alone on the keyword path. A boosted score is above 1.
const (
	boostExact = 8.0
	boostIDSub = 4.0
	boostTitle = 2.0
	// On the semantic path the base is mostly cosine, with token overlap
	// breaking near-ties.
	cosineShare  = 0.9
	overlapShare = 0.1
)

// BM25 parameters (the usual ones).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// Rank answers a search over ix. sem is the sidecar's answer, or nil for
// the keyword path; TookMs is left to the caller.
func Rank(ix *Index, req Request, sem *Semantic) Envelope {
	env := Envelope{Engine: "keyword", Embedder: "none", Results: make([]QueryResult, len(req.Queries))}
	if sem != nil {
		env.Engine, env.Embedder, env.IndexedDigest = "semantic", sem.Embedder, sem.Digest
	}
	// Queries rank independently over the immutable index: one goroutine
	// per core.
	workers := min(runtime.GOMAXPROCS(0), len(req.Queries))
	next := make(chan int, len(req.Queries))
	for qi := range req.Queries {
		next <- qi
	}
	close(next)
	var wg sync.WaitGroup
	var panicked atomic.Pointer[any]
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// A panic is handed to the caller's goroutine, where it can be
			// recovered, instead of ending the process.
			defer func() {
				if p := recover(); p != nil {
					panicked.CompareAndSwap(nil, &p)
				}
			}()
			for qi := range next {
				var cos map[string]float64
				if sem != nil {
					cos = sem.Cosines[qi]
				}
				env.Results[qi] = QueryResult{Query: req.Queries[qi], Hits: ix.rankQuery(req.Queries[qi], req, cos, sem != nil)}
			}
		}()
	}
	wg.Wait()
	if p := panicked.Load(); p != nil {
		panic(*p)
	}
	env.Merged = ix.merge(env.Results, req.K)
	return env
}

type scored struct {
	at      int
	score   float64
	cosine  float64
	exact   bool
	idSub   bool
	title   bool
	overlap float64
	sem     bool // the sidecar ranked this document
}

func (ix *Index) rankQuery(q string, req Request, cos map[string]float64, semantic bool) []Hit {
	terms := queryTerms(q)
	var extra []bag
	if req.Bodies || req.Notes {
		extra = ix.extras()
	}
	p := ix.match(q, terms, req, cos, extra)
	best := ix.bm25(&p, len(terms), req, extra)
	top := topK{limit: req.K, ix: ix}
	for _, c := range p.cands {
		if best > 0 {
			c.overlap /= best
		}
		c.score = c.boosted(semantic)
		top.offer(c)
	}
	sort.Slice(top.items, func(a, b int) bool { return top.better(top.items[a], top.items[b]) })
	hits := make([]Hit, len(top.items))
	for i, c := range top.items {
		hits[i] = ix.hit(c, q, semantic)
	}
	return hits
}

// pass is what one walk over the index learns for a query: the candidates,
// their term frequencies (flat, nt per candidate) and each term's document
// frequency over the whole index, filtered or not, for BM25.
type pass struct {
	cands []scored
	tfs   []uint16
	df    []int
}

// match makes the one pass over the index: it counts the query terms in
// every document and keeps the documents that pass the filter and match
// the query in any way.
func (ix *Index) match(q string, terms []uint64, req Request, cos map[string]float64, extra []bag) pass {
	lower := strings.ToLower(q)
	nt := len(terms)
	idLike := len(lower) >= 2 && !strings.ContainsFunc(lower, unicode.IsSpace) && strings.ContainsFunc(lower, unicode.IsDigit)
	p := pass{cands: make([]scored, 0, 256), tfs: make([]uint16, 0, 256*nt), df: make([]int, nt)}
	row := make([]uint16, nt)
	for i := range ix.entries {
		e := &ix.entries[i]
		any := false
		wants := extra != nil && wantsExtra(e, req)
		for k, t := range terms {
			n := e.termFreq(t)
			if wants {
				n = uint16(min(int(n)+int(extra[i].freq(t)), math.MaxUint16))
			}
			row[k] = n
			if n > 0 {
				p.df[k]++
				any = true
			}
		}
		if !req.Filter.Match(e.Type, e.Domain, e.Status, e.Archived) {
			continue
		}
		s := signals(i, e, lower, idLike, terms, cos)
		if s.exact || s.idSub || s.title || any || s.sem {
			p.cands = append(p.cands, s)
			p.tfs = append(p.tfs, row...)
		}
	}
	return p
}

// signals reads the id, title and cosine signals of entry e (at index i)
// for the lowered query.
func signals(i int, e *entry, lower string, idLike bool, terms []uint64, cos map[string]float64) scored {
	s := scored{at: i}
	s.exact = lower == e.idLower || (e.altLower != "" && lower == e.altLower)
	s.idSub = !s.exact && (idLike && (strings.Contains(e.idLower, lower) || (e.altLower != "" && strings.Contains(e.altLower, lower))) ||
		mentions(lower, e.idLower) || (e.altLower != "" && mentions(lower, e.altLower)))
	s.title = len(terms) > 0 && e.hasAll(terms)
	if c, ok := cos[e.ID]; ok {
		// The raw cosine is reported whatever its sign; only a positive
		// one makes the document a semantic match on its own.
		s.cosine, s.sem = c, c > 0
	}
	return s
}

// bm25 sets each candidate's overlap to its BM25 score over the query
// terms and returns the best one, by which the caller scales the scores
// so the best match in this query is 1.
func (ix *Index) bm25(p *pass, nt int, req Request, extra []bag) float64 {
	n := float64(len(ix.entries))
	idf := make([]float64, nt)
	for k := range nt {
		idf[k] = math.Log(1 + (n-float64(p.df[k])+0.5)/(float64(p.df[k])+0.5))
	}
	avg := math.Max(ix.avgLen, 1)
	best := 0.0
	for ci := range p.cands {
		e := &ix.entries[p.cands[ci].at]
		length := e.length
		if extra != nil && wantsExtra(e, req) {
			length += extra[p.cands[ci].at].length
		}
		norm := bm25K1 * (1 - bm25B + bm25B*float64(length)/avg)
		var s float64
		for k, f := range p.tfs[ci*nt : (ci+1)*nt] {
			if f > 0 {
				s += idf[k] * float64(f) * (bm25K1 + 1) / (float64(f) + norm)
			}
		}
		p.cands[ci].overlap = s
		best = math.Max(best, s)
	}
	return best
}

// boosted is c's final score: the base (cosine and overlap on the semantic
// path, overlap alone on the keyword path) plus the boost of each tier it
// reaches.
func (c scored) boosted(semantic bool) float64 {
	score := c.overlap
	if semantic {
		score = cosineShare*c.cosine + overlapShare*c.overlap
	}
	if c.exact {
		score += boostExact
	}
	if c.idSub {
		score += boostIDSub
	}
	if c.title {
		score += boostTitle
	}
	return score
}

// wantsExtra reports whether req asked for e's extra text (a message's
// body, a case's notes).
func wantsExtra(e *entry, req Request) bool {
	switch e.Type {
	case searchdoc.TypeMessage:
		return req.Bodies
	case searchdoc.TypeCase:
		return req.Notes
	}
	return false
}

// topK keeps the limit best candidates in a min-heap (worst at the root):
// a query that matches most of the store still costs one pass, not a sort.
type topK struct {
	limit int
	ix    *Index
	items []scored
}

// better orders by score, then by id, so equal scores rank the same way
// every time.
func (t *topK) better(a, b scored) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return t.ix.entries[a.at].ID < t.ix.entries[b.at].ID
}

func (t *topK) offer(c scored) {
	if len(t.items) < t.limit {
		t.items = append(t.items, c)
		for i := len(t.items) - 1; i > 0; {
			p := (i - 1) / 2
			if !t.better(t.items[p], t.items[i]) {
				break
			}
			t.items[p], t.items[i] = t.items[i], t.items[p]
			i = p
		}
		return
	}
	if !t.better(c, t.items[0]) {
		return
	}
	t.items[0] = c
	for i, n := 0, len(t.items); ; {
		l, r, worst := 2*i+1, 2*i+2, i
		if l < n && t.better(t.items[worst], t.items[l]) {
			worst = l
		}
		if r < n && t.better(t.items[worst], t.items[r]) {
			worst = r
		}
		if worst == i {
			return
		}
		t.items[i], t.items[worst] = t.items[worst], t.items[i]
		i = worst
	}
}

// termFreq finds t in the sorted terms by binary search, after the
// signature ruled most absent terms out.
func (e *entry) termFreq(t uint64) uint16 {
	if e.sig[(t>>6)&3]&(1<<(t&63)) == 0 {
		return 0
	}
	lo, hi := 0, len(e.terms)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if e.terms[m] < t {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(e.terms) && e.terms[lo] == t {
		return e.tf[lo]
	}
	return 0
}

func (e *entry) hasAll(terms []uint64) bool {
	for _, t := range terms {
		if !slices.Contains(e.titleTerms, t) { // titles are a handful of words
			return false
		}
	}
	return true
}

// mentions reports whether the query names id as a whole token, as in
// "status of case-12?" (but not "case-123").
func mentions(q, id string) bool {
	if id == "" { // a hand edit can leave a record without an id; it names nothing
		return false
	}
	for from := 0; ; {
		i := strings.Index(q[from:], id)
		if i < 0 {
			return false
		}
		i += from
		before, _ := utf8.DecodeLastRuneInString(q[:i])
		after, _ := utf8.DecodeRuneInString(q[i+len(id):])
		if (i == 0 || !isWord(before)) && (i+len(id) == len(q) || !isWord(after)) {
			return true
		}
		from = i + 1
	}
}

func isWord(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func (ix *Index) hit(c scored, q string, semantic bool) Hit {
	e := &ix.entries[c.at]
	h := Hit{Type: e.Type, ID: e.ID, CaseID: strPtr(e.CaseID), Score: round6(c.score), Snippet: snippet(e.Text, q)}
	if semantic {
		h.Cosine = round6(c.cosine)
		for _, w := range []struct {
			on  bool
			why string
		}{{c.exact, WhyExactID}, {c.idSub, WhyIDSubstring}, {c.title, WhyTitle}, {c.sem, WhySemantic}, {c.overlap > 0, WhyKeyword}} {
			if w.on {
				h.Why = append(h.Why, w.why)
			}
		}
		if h.Why == nil {
			h.Why = []string{}
		}
	} else {
		h.Why = []string{WhyKeyword}
	}
	switch e.Type {
	case searchdoc.TypeCase:
		h.Case = e.c
	case searchdoc.TypeTask:
		h.Task = &TaskProjection{ID: e.t.ID, CaseID: e.c.ID, CaseTitle: e.c.Title, Title: e.t.Title, Detail: e.t.Detail, CompletedAt: e.t.CompletedAt, DueAt: e.t.DueAt}
	case searchdoc.TypeMessage:
		m := e.m
		h.Message = &MessageProjection{ID: m.ID, Subject: m.Subject, From: m.From, ReceivedAt: m.ReceivedAt, CaseID: m.CaseID, ReminderID: m.ReminderID, Read: m.Read, Outbound: m.Outbound, Preview: m.Preview}
	case searchdoc.TypeReminder:
		r := e.r
		labels := r.Labels
		if labels == nil {
			labels = []string{}
		}
		h.Reminder = &ReminderProjection{ID: r.ID, Title: r.Title, Status: string(r.Status), DueAt: strPtr(r.DueAt), Domain: strPtr(string(r.Domain)), CaseID: strPtr(r.CaseID), Labels: labels, Detail: strPtr(r.Detail)}
	case searchdoc.TypePage:
		h.Page = e.p
	}
	return h
}

func round6(x float64) float64 { return math.Round(x*1e6) / 1e6 }

// merge builds the merged view from the board's own records: hits whose id
// is not in the index or whose score is at or below 0 are dropped, each
// id keeps its best score, and each list is sorted best first and cut to k.
func (ix *Index) merge(results []QueryResult, k int) Records {
	best := map[string]float64{}
	for _, r := range results {
		for _, h := range r.Hits {
			if _, ok := ix.byID[h.ID]; !ok || h.Score <= 0 {
				continue
			}
			if s, seen := best[h.ID]; !seen || h.Score > s {
				best[h.ID] = h.Score
			}
		}
	}
	ids := make([]string, 0, len(best))
	for id := range best {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(a, b int) bool {
		if best[ids[a]] != best[ids[b]] {
			return best[ids[a]] > best[ids[b]]
		}
		return ids[a] < ids[b]
	})
	out := emptyRecords()
	for _, id := range ids {
		e := &ix.entries[ix.byID[id]]
		switch e.Type {
		case searchdoc.TypeCase:
			if len(out.Cases) < k {
				out.Cases = append(out.Cases, e.c)
			}
		case searchdoc.TypeTask:
			if len(out.Tasks) < k {
				out.Tasks = append(out.Tasks, TaskRef{CaseID: e.c.ID, Task: *e.t})
			}
		case searchdoc.TypeMessage:
			if len(out.Messages) < k {
				out.Messages = append(out.Messages, e.m)
			}
		case searchdoc.TypeReminder:
			if len(out.Reminders) < k {
				out.Reminders = append(out.Reminders, e.r)
			}
		case searchdoc.TypePage:
			if len(out.Pages) < k {
				out.Pages = append(out.Pages, *e.p)
			}
		}
	}
	return out
}

// snippet is a short excerpt of text around the first word of q it
// contains, on one line; the start of text when none occurs.
const snippetLen = 160

func snippet(text, q string) string {
	flat := strings.Join(strings.FieldsFunc(text, func(r rune) bool { return r == '\n' }), " · ")
	lower := strings.ToLower(flat)
	pos := -1
	for _, w := range strings.FieldsFunc(strings.ToLower(q), func(r rune) bool { return !isWord(r) && r != '-' }) {
		if len(w) < 2 {
			continue
		}
		if i := strings.Index(lower, w); i >= 0 && (pos < 0 || i < pos) && len(lower) == len(flat) {
			pos = i
		}
	}
	start := 0
	if pos > 40 {
		start = pos - 40
		for start < pos && !utf8.RuneStart(flat[start]) {
			start++
		}
		if sp := strings.IndexByte(flat[start:pos], ' '); sp >= 0 {
			start += sp + 1 // begin on a word
		}
	}
	end := len(flat)
	if utf8.RuneCountInString(flat[start:]) > snippetLen {
		end = start
		for n := 0; n < snippetLen && end < len(flat); n++ {
			_, size := utf8.DecodeRuneInString(flat[end:])
			end += size
		}
	}
	out := strings.TrimSpace(flat[start:end])
	if start > 0 {
		out = "…" + out
	}
	if end < len(flat) {
		out += "…"
	}
	return out
}
