package index

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sort"
	"sync"

	"github.com/opsboard/opsboard/shared/searchdoc"
	"github.com/opsboard/opsboard/sidecar-search/internal/embed"
)

// Index holds one unit vector per document, in memory. Searches run
// concurrently with each other and with Update, which embeds outside the
// lock and swaps each chunk of new vectors in briefly.
type Index struct {
	updateMu sync.Mutex // one Update at a time

	mu       sync.RWMutex
	embedder string // name of the embedder the vectors came from
	dim      int
	digest   string
	slots    map[string]int32 // document id -> slot; kept across rebuilds
	meta     []slot
	vecs     []float32 // slot*dim
	counts   map[string]int
}

type slot struct {
	id, typ, caseID, domain, status string
	archived, live                  bool
	hash                            uint64
}

// New returns an empty index.
func New() *Index {
	return &Index{slots: map[string]int32{}, counts: map[string]int{}}
}

// Report says what an Update did.
type Report struct {
	Rebuilt  bool   // the digest or the embedder changed (or forced)
	Embedded int    // documents (re-)embedded
	Removed  int    // documents gone from the store
	Docs     int    // live documents after the update
	Digest   string // content digest after the update
}

// embedChunk is how many documents are embedded between two swaps into
// the index: the only extra memory a rebuild needs is one chunk of vectors.
const embedChunk = 4096

// Update brings the index to docs. It re-embeds only when the content
// digest or the embedder changed (or force is set), and then only the
// documents whose text hash changed; filter fields are refreshed always.
// Searches keep running meanwhile, on old vectors until new ones land.
func (ix *Index) Update(ctx context.Context, docs []Doc, e embed.Embedder, force bool) (Report, error) {
	ix.updateMu.Lock()
	defer ix.updateMu.Unlock()
	digest := Digest(docs)
	rebuild, work := ix.plan(docs, e, digest, force)
	if err := ix.embedWork(ctx, docs, e, work); err != nil {
		return Report{}, err
	}
	rep := ix.settle(docs, e.Dim(), digest)
	rep.Rebuilt, rep.Embedded, rep.Digest = rebuild, len(work), digest
	return rep, nil
}

// plan makes room for docs in the index (a slot for every new id, the
// vectors of another embedder dropped) and returns whether this update
// rebuilds and the indexes into docs that need a vector.
func (ix *Index) plan(docs []Doc, e embed.Embedder, digest string, force bool) (rebuild bool, work []int) {
	dim := e.Dim()
	ix.mu.Lock()
	defer ix.mu.Unlock()
	sameEmbedder := ix.embedder == e.Name() && ix.dim == dim
	if !sameEmbedder {
		// Vectors of another embedder are not comparable: drop them, keep
		// the id map.
		ix.vecs = ix.vecs[:0]
		for i := range ix.meta {
			ix.meta[i].live = false
		}
		ix.embedder, ix.dim, ix.digest = e.Name(), dim, ""
	}
	rebuild = force || !sameEmbedder || digest != ix.digest
	// New ids get the next slots; the vectors grow once, not per document.
	for i := range docs {
		if _, ok := ix.slots[docs[i].ID]; !ok {
			ix.slots[docs[i].ID] = int32(len(ix.meta))
			ix.meta = append(ix.meta, slot{id: docs[i].ID})
		}
	}
	if need := len(ix.meta) * dim; need <= cap(ix.vecs) {
		old := len(ix.vecs)
		ix.vecs = ix.vecs[:need]
		clear(ix.vecs[old:])
	} else {
		grown := make([]float32, need, need+need/8)
		copy(grown, ix.vecs)
		ix.vecs = grown
	}
	if rebuild {
		for i := range docs {
			m := &ix.meta[ix.slots[docs[i].ID]]
			if force || !m.live || m.hash != docs[i].Hash {
				work = append(work, i)
			}
		}
	}
	return rebuild, work
}

// embedWork embeds docs[work[i]] outside the lock, one chunk at a time,
// and swaps each chunk of vectors into the index briefly.
func (ix *Index) embedWork(ctx context.Context, docs []Doc, e embed.Embedder, work []int) error {
	dim := e.Dim()
	buf := make([]float32, min(len(work), embedChunk)*dim)
	for start := 0; start < len(work); start += embedChunk {
		part := work[start:min(start+embedChunk, len(work))]
		if err := embedAll(ctx, e, docs, part, buf); err != nil {
			return err
		}
		ix.mu.Lock()
		for k, i := range part {
			d := &docs[i]
			s := int(ix.slots[d.ID])
			copy(ix.vecs[s*dim:(s+1)*dim], buf[k*dim:(k+1)*dim])
			m := &ix.meta[s]
			m.typ, m.caseID, m.domain, m.status, m.archived = d.Type, d.CaseID, d.Domain, d.Status, d.Archived
			m.hash, m.live = d.Hash, true
		}
		ix.mu.Unlock()
	}
	return nil
}

// settle refreshes every document's filter fields, retires the documents
// no longer in docs, recounts the live ones by type and records digest as
// the index's content. The report it returns has Removed and Docs set.
func (ix *Index) settle(docs []Doc, dim int, digest string) Report {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	var rep Report
	seen := make([]bool, len(ix.meta))
	for i := range docs {
		d := &docs[i]
		s := ix.slots[d.ID]
		m := &ix.meta[s]
		m.typ, m.caseID, m.domain, m.status, m.archived = d.Type, d.CaseID, d.Domain, d.Status, d.Archived
		seen[s] = true
	}
	counts := map[string]int{}
	for s := range ix.meta {
		m := &ix.meta[s]
		if !seen[s] && m.live {
			m.live = false
			clear(ix.vecs[s*dim : (s+1)*dim])
			rep.Removed++
		}
		if m.live {
			counts[m.typ]++
			rep.Docs++
		}
	}
	ix.counts = counts
	ix.digest = digest
	return rep
}

// embedAll embeds docs[work[i]] into row i of out, on every core, and
// normalizes each row so a dot product is the cosine.
func embedAll(ctx context.Context, e embed.Embedder, docs []Doc, work []int, out []float32) error {
	dim := e.Dim()
	workers := min(runtime.GOMAXPROCS(0), max(1, len(work)/256))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(work); i += workers {
				v := out[i*dim : (i+1)*dim]
				e.Embed(v, docs[work[i]].Text)
				embed.Normalize(v)
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("embed documents: %w", err)
	}
	return nil
}

// Stats is what the index holds.
type Stats struct {
	Embedder string
	Dim      int
	Digest   string
	Counts   map[string]int // live documents per type
	Slots    int            // ids ever seen (the id map's size)
}

// Stats reports the index's contents.
func (ix *Index) Stats() Stats {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	types := searchdoc.Types()
	counts := make(map[string]int, len(types))
	for _, t := range types {
		counts[t] = ix.counts[t]
	}
	// Pages are counted once there are some, so a sidecar without a
	// vault reports the store's types as it always has.
	if n := ix.counts[searchdoc.TypePage]; n > 0 {
		counts[searchdoc.TypePage] = n
	}
	return Stats{Embedder: ix.embedder, Dim: ix.dim, Digest: ix.digest, Counts: counts, Slots: len(ix.meta)}
}

// Slot returns the integer a document id maps to, if it was ever indexed.
func (ix *Index) Slot(id string) (int32, bool) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	s, ok := ix.slots[id]
	return s, ok
}

// Hit is one ranked document.
type Hit struct {
	ID     string
	Type   string
	CaseID string
	Cosine float32
}

// ErrEmbedderMismatch means the index was built by another embedder than
// the one asked to embed the queries.
var ErrEmbedderMismatch = errors.New("index was built with another embedder")

// Search embeds each query and returns, per query, the limit documents
// that pass f with the highest cosine, best first (ties by id). A query
// whose vector is zero (nothing the embedder knows) has no hits.
func (ix *Index) Search(ctx context.Context, queries []string, f Filter, limit int, e embed.Embedder) ([][]Hit, string, error) {
	dim := e.Dim()
	qv := make([][]float32, 0, len(queries))
	active := make([]int, 0, len(queries)) // query positions with a non-zero vector
	for i, q := range queries {
		v := make([]float32, dim)
		e.Embed(v, q)
		embed.Normalize(v)
		if !zero(v) {
			qv = append(qv, v)
			active = append(active, i)
		}
	}
	out := make([][]Hit, len(queries))
	for i := range out {
		out[i] = []Hit{}
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.embedder == "" {
		return out, "", nil // never built: nothing to rank, and no digest to claim
	}
	if ix.embedder != e.Name() || ix.dim != dim {
		return nil, "", ErrEmbedderMismatch
	}
	if len(qv) == 0 || limit <= 0 || len(ix.meta) == 0 {
		return out, ix.digest, nil
	}
	// Each worker scans a contiguous range of slots and keeps its own top
	// limit per query; the heaps are merged at the end.
	n := len(ix.meta)
	workers := min(runtime.GOMAXPROCS(0), max(1, n/4096))
	heaps := make([][]topK, workers)
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := n*w/workers, n*(w+1)/workers
		heaps[w] = make([]topK, len(qv))
		for j := range heaps[w] {
			heaps[w][j].limit = limit
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			ix.scan(ctx, lo, hi, qv, &f, heaps[w])
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, "", fmt.Errorf("search: %w", err)
	}
	for j, qi := range active {
		all := make([]cand, 0, limit*workers)
		for w := range workers {
			all = append(all, heaps[w][j].items...)
		}
		sort.Slice(all, func(a, b int) bool { return better(all[a], all[b]) })
		if len(all) > limit {
			all = all[:limit]
		}
		hits := make([]Hit, len(all))
		for k, c := range all {
			m := &ix.meta[c.slot]
			hits[k] = Hit{ID: m.id, Type: m.typ, CaseID: m.caseID, Cosine: c.cos}
		}
		out[qi] = hits
	}
	return out, ix.digest, nil
}

func (ix *Index) scan(ctx context.Context, lo, hi int, qv [][]float32, f *Filter, tops []topK) {
	dim := ix.dim
	for s := lo; s < hi; s++ {
		if (s-lo)&8191 == 8191 && ctx.Err() != nil {
			return
		}
		m := &ix.meta[s]
		if !m.live || !f.Match(m.typ, m.domain, m.status, m.archived) {
			continue
		}
		row := ix.vecs[s*dim : (s+1)*dim]
		// Queries three at a time: each row is read once per group and the
		// six running sums keep the multiply-adds overlapped.
		for j := 0; j < len(qv); {
			switch len(qv) - j {
			case 1:
				tops[j].offer(cand{slot: int32(s), cos: dot(row, qv[j]), id: m.id})
				j++
			case 2:
				a, b := dot2(row, qv[j], qv[j+1])
				tops[j].offer(cand{slot: int32(s), cos: a, id: m.id})
				tops[j+1].offer(cand{slot: int32(s), cos: b, id: m.id})
				j += 2
			default:
				a, b, c := dot3(row, qv[j], qv[j+1], qv[j+2])
				tops[j].offer(cand{slot: int32(s), cos: a, id: m.id})
				tops[j+1].offer(cand{slot: int32(s), cos: b, id: m.id})
				tops[j+2].offer(cand{slot: int32(s), cos: c, id: m.id})
				j += 3
			}
		}
	}
}

// dot2 and dot3 are dot for two and three queries against one row, with
// two sums per query (more would spill registers).
func dot2(row, q0, q1 []float32) (float32, float32) {
	n := len(row) &^ 1
	q0, q1 = q0[:len(row)], q1[:len(row)]
	var a0, a1, b0, b1 float32
	for i := 0; i < n; i += 2 {
		r0, r1 := row[i], row[i+1]
		a0 += r0 * q0[i]
		b0 += r1 * q0[i+1]
		a1 += r0 * q1[i]
		b1 += r1 * q1[i+1]
	}
	if n < len(row) {
		a0 += row[n] * q0[n]
		a1 += row[n] * q1[n]
	}
	return a0 + b0, a1 + b1
}

func dot3(row, q0, q1, q2 []float32) (float32, float32, float32) {
	n := len(row) &^ 1
	q0, q1, q2 = q0[:len(row)], q1[:len(row)], q2[:len(row)]
	var a0, a1, a2, b0, b1, b2 float32
	for i := 0; i < n; i += 2 {
		r0, r1 := row[i], row[i+1]
		a0 += r0 * q0[i]
		b0 += r1 * q0[i+1]
		a1 += r0 * q1[i]
		b1 += r1 * q1[i+1]
		a2 += r0 * q2[i]
		b2 += r1 * q2[i+1]
	}
	if n < len(row) {
		a0 += row[n] * q0[n]
		a1 += row[n] * q1[n]
		a2 += row[n] * q2[n]
	}
	return a0 + b0, a1 + b1, a2 + b2
}

// dot is the inner product with four independent sums, which lets the CPU
// overlap the multiply-adds.
func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return s0 + s1 + s2 + s3
}

func zero(v []float32) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

type cand struct {
	slot int32
	cos  float32
	id   string
}

// better orders by cosine, then by id so equal scores rank the same way
// every time.
func better(a, b cand) bool {
	if a.cos != b.cos {
		return a.cos > b.cos
	}
	return a.id < b.id
}

// topK keeps the limit best candidates in a min-heap (worst at the root).
type topK struct {
	limit int
	items []cand
}

func (t *topK) offer(c cand) {
	if len(t.items) < t.limit {
		t.items = append(t.items, c)
		t.up(len(t.items) - 1)
		return
	}
	if !better(c, t.items[0]) {
		return
	}
	t.items[0] = c
	t.down(0)
}

func (t *topK) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !better(t.items[p], t.items[i]) {
			return
		}
		t.items[p], t.items[i] = t.items[i], t.items[p]
		i = p
	}
}

func (t *topK) down(i int) {
	n := len(t.items)
	for {
		l, r, worst := 2*i+1, 2*i+2, i
		if l < n && better(t.items[worst], t.items[l]) {
			worst = l
		}
		if r < n && better(t.items[worst], t.items[r]) {
			worst = r
		}
		if worst == i {
			return
		}
		t.items[i], t.items[worst] = t.items[worst], t.items[i]
		i = worst
	}
}
