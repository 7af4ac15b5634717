// Package server is the search sidecar's HTTP face: POST /search (after a
// cheap check that the index matches the store), POST /reindex, GET /stats
// and GET /healthz, plus the background loop that keeps the index fresh.
package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/mux"
	"github.com/opsboard/opsboard/shared/httpjson"
	"github.com/opsboard/opsboard/shared/hub"
	"github.com/opsboard/opsboard/shared/searchdoc"
	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
	"github.com/opsboard/opsboard/sidecar-search/internal/embed"
	"github.com/opsboard/opsboard/sidecar-search/internal/index"
	"github.com/opsboard/opsboard/sidecar-search/internal/vaultdocs"
)

// Limits of one ranking call (besides searchdoc.MaxQueries).
const (
	DefaultLimit = 10
	MaxLimit     = wire.MaxSearchSidecarLimit
	maxBody      = wire.MaxSearchSidecarBody
)

// Config says where the store is and which embedder to use.
type Config struct {
	DataPath string        // the board's document; its journal sits beside it
	VaultDir string        // the board's vault folder, read for pages ("": none)
	Embedder string        // auto, model2vec or hash
	ModelDir string        // model2vec model directory
	Poll     time.Duration // how often the background loop checks the store (500ms)
	// Hub fetches the model when the embedder is auto and ModelDir lacks
	// it; nil never downloads.
	Hub    *hub.Client
	Logger *slog.Logger
}

// Server serves one in-memory index over one store.
type Server struct {
	cfg Config
	log *slog.Logger
	// pages reads the vault folder; used under refreshMu only.
	pages *vaultdocs.Reader

	life context.Context // Run's context: background re-reads live as long as it

	// emb is the embedder and the index of its vectors, swapped together
	// when a downloaded model replaces the hash embedder, so no search
	// pairs one's queries with the other's vectors.
	emb  atomic.Pointer[embedderRef]
	warm atomic.Bool // embedder loaded and warmed, first index built

	download hub.Tracker // the model's download, idle when there is none

	refreshMu   sync.Mutex
	stamp       atomic.Pointer[string] // store stamp the index reflects
	failedStamp string                 // stamp whose load failed; not retried until it changes

	statsMu sync.Mutex
	stats   counters
}

type embedderRef struct {
	e  embed.Embedder // nil until Run loads it
	ix *index.Index
}

type counters struct {
	Reloads       int64   `json:"reloads"`       // store reads after a stamp change
	Rebuilds      int64   `json:"rebuilds"`      // reads that changed the digest or embedder (or forced)
	LastEmbedded  int     `json:"lastEmbedded"`  // documents embedded by the last rebuild
	EmbeddedTotal int64   `json:"embeddedTotal"` // documents embedded since start
	StoreVersion  int64   `json:"storeVersion"`  // version of the store state indexed
	LastRefreshMs float64 `json:"lastRefreshMs"` // duration of the last read and update
	LastError     string  `json:"lastError"`     // why the last store read failed, "" when it did not
}

// New returns a server that is cold until Run warms its embedder.
func New(cfg Config) *Server {
	if cfg.Poll <= 0 {
		cfg.Poll = 500 * time.Millisecond
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	s := &Server{cfg: cfg, log: cfg.Logger, pages: &vaultdocs.Reader{Dir: cfg.VaultDir}}
	s.emb.Store(&embedderRef{ix: index.New()})
	return s
}

// Run loads and warms the embedder, builds the first index, then keeps the
// index fresh until ctx ends. It fails only when the embedder cannot load.
func (s *Server) Run(ctx context.Context) error {
	s.life = ctx
	fetch := s.fetches()
	if fetch {
		// Said from the first answer on, though the fetch waits for the
		// first index: its forced rebuild must not land after the model's
		// and put the hash vectors back.
		s.download.Start(embed.Potion.Files[0].Remote)
	}
	e, err := embed.Select(s.cfg.Embedder, s.cfg.ModelDir, s.log)
	if err != nil {
		return fmt.Errorf("embedder: %w", err)
	}
	e.Embed(make([]float32, e.Dim()), "warm up") // first use pages the model in
	s.emb.Store(&embedderRef{e: e, ix: s.active().ix})
	if _, err := s.refresh(ctx, true); err != nil {
		s.log.Warn("search.index", "err", err) // serve an empty index; the loop retries
	}
	s.warm.Store(true)
	st := s.active().ix.Stats()
	s.log.Info("search.ready", "embedder", e.Name(), "docs", total(st.Counts), "digest", st.Digest)
	if fetch {
		go s.fetchModel(ctx)
	}
	t := time.NewTicker(s.cfg.Poll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
			if _, err := s.refresh(ctx, false); err != nil && ctx.Err() == nil {
				s.log.Debug("search.refresh", "err", err)
			}
		}
	}
}

func (s *Server) embedder() embed.Embedder { return s.active().e }

func (s *Server) active() *embedderRef { return s.emb.Load() }

// freshWait is how long a search waits for the index to catch up with a
// store that moved: a small store is re-read in milliseconds, so the write
// is in this very search; a large one answers from the index as it was, in
// time for the board's deadline, and the re-read goes on meanwhile.
const freshWait = 400 * time.Millisecond

// freshen brings the index up to the store, waiting at most freshWait.
func (s *Server) freshen(ctx context.Context) {
	if s.indexed(s.currentStamp()) {
		return
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := s.refresh(s.life, false); err != nil && s.life.Err() == nil {
			s.log.Debug("search.refresh", "err", err) // rank on the last good index
		}
	}()
	t := time.NewTimer(freshWait)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	case <-ctx.Done():
	}
}

// refresh brings the index to the store when the store's stamp moved (or
// always, when forced). An unchanged stamp costs two stat calls.
func (s *Server) refresh(ctx context.Context, force bool) (index.Report, error) {
	if s.embedder() == nil {
		return index.Report{}, errors.New("embedder is not warm yet")
	}
	stamp := s.currentStamp()
	if !force && s.indexed(stamp) {
		return index.Report{}, nil
	}
	s.refreshMu.Lock()
	defer s.refreshMu.Unlock()
	if !force && (s.indexed(stamp) || stamp == s.failedStamp) {
		return index.Report{}, nil
	}
	// Read under the lock: a model switch may have happened while waiting.
	return s.rebuild(ctx, s.active(), stamp, force)
}

// rebuild brings ref's index to the store as of stamp; the caller holds
// refreshMu.
func (s *Server) rebuild(ctx context.Context, ref *embedderRef, stamp string, force bool) (index.Report, error) {
	t0 := time.Now()
	d, err := storefile.Load(s.cfg.DataPath)
	if err != nil {
		s.failedStamp = stamp
		s.noteError(err)
		return index.Report{}, fmt.Errorf("read store: %w", err)
	}
	version, docs := d.Version, index.Docs(d)
	d = nil // the documents carry what is indexed: let the store state go before embedding
	docs = append(docs, s.pageDocs()...)
	rep, err := ref.ix.Update(ctx, docs, ref.e, force)
	if err != nil {
		return index.Report{}, err
	}
	s.stamp.Store(&stamp)
	s.failedStamp = ""
	took := time.Since(t0)
	s.statsMu.Lock()
	s.stats.Reloads++
	if rep.Rebuilt {
		s.stats.Rebuilds++
		s.stats.LastEmbedded = rep.Embedded
		s.stats.EmbeddedTotal += int64(rep.Embedded)
	}
	s.stats.StoreVersion = version
	s.stats.LastRefreshMs = ms(took)
	s.stats.LastError = ""
	s.statsMu.Unlock()
	if rep.Rebuilt {
		s.log.Info("search.reindex", "docs", rep.Docs, "embedded", rep.Embedded, "removed", rep.Removed, "digest", rep.Digest, "took", took.Round(time.Millisecond))
	}
	return rep, nil
}

// currentStamp is what the index must reflect: the store's stamp, and the
// vault folder's when there is one.
func (s *Server) currentStamp() string {
	st := storefile.Stamp(s.cfg.DataPath)
	if s.cfg.VaultDir == "" {
		return st
	}
	return st + "|" + vaultdocs.Stamp(s.cfg.VaultDir)
}

// pageDocs reads the vault's pages as documents. A vault that cannot be
// read leaves its pages out of this index and is said in the log; the
// store's documents are indexed whatever the vault does.
func (s *Server) pageDocs() []index.Doc {
	if s.cfg.VaultDir == "" {
		return nil
	}
	docs, _, err := s.pages.Docs()
	if err != nil {
		s.log.Warn("search.vault", "err", err)
		return nil
	}
	for i := range docs {
		docs[i].Hash = index.TextHash(docs[i].Text)
	}
	return docs
}

func (s *Server) indexed(stamp string) bool {
	p := s.stamp.Load()
	return p != nil && *p == stamp
}

func (s *Server) noteError(err error) {
	s.statsMu.Lock()
	changed := s.stats.LastError != err.Error()
	s.stats.LastError = err.Error()
	s.statsMu.Unlock()
	if changed {
		s.log.Warn("search.store", "err", err, "serving", "the last good index")
	}
}

// Handler routes the sidecar's endpoints behind the loopback check.
func (s *Server) Handler() http.Handler {
	r := mux.NewRouter()
	r.HandleFunc("/search", s.search).Methods(http.MethodPost)
	r.HandleFunc("/reindex", s.reindex).Methods(http.MethodPost)
	// A read answers HEAD too, as it always has.
	r.HandleFunc("/stats", s.statsHandler).Methods(http.MethodGet, http.MethodHead)
	r.HandleFunc("/healthz", s.healthz).Methods(http.MethodGet, http.MethodHead)
	r.NotFoundHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		httpjson.ReplyError(w, http.StatusNotFound, fmt.Sprintf("no route %s %s", r.Method, r.URL.Path))
	})
	r.MethodNotAllowedHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		httpjson.ReplyError(w, http.StatusMethodNotAllowed, fmt.Sprintf("method %s not allowed on %s", r.Method, r.URL.Path))
	})
	// Only the Host is checked: a page reaching the index through DNS
	// rebinding could read it, but a write only repeats work (a reindex),
	// so an Origin or Content-Type rule would guard nothing.
	return httpjson.LocalOnly(httpjson.Local{
		HostOnly:    true,
		HostRefusal: "host %q is not allowed: the search sidecar answers on loopback only",
	})(r)
}

// bodies reads a /search body. Unknown fields are ignored, as the protocol
// promises, so either side can add some.
var bodies = httpjson.Decoder{Limit: maxBody, Lenient: true}

func (s *Server) search(w http.ResponseWriter, r *http.Request) {
	t0 := time.Now()
	ref := s.active()
	e := ref.e
	if e == nil || !s.warm.Load() {
		fail(w, errWarming)
		return
	}
	var in wire.SemanticSearchRequest
	if err := bodies.Decode(w, r, &in); err != nil {
		fail(w, err)
		return
	}
	queries, f, limit, err := parse(in)
	if err != nil {
		fail(w, err)
		return
	}
	s.freshen(r.Context())
	res, digest, err := ref.ix.Search(r.Context(), queries, f, limit, e)
	if err != nil {
		fail(w, httpjson.Errorf(http.StatusServiceUnavailable, "%s", err))
		return
	}
	out := wire.SemanticSearchReply{Engine: "semantic", Embedder: e.Name(), Dim: e.Dim(), IndexedDigest: digest, Docs: total(ref.ix.Stats().Counts), Results: make([]wire.SemanticResult, len(queries))}
	for i, q := range queries {
		hits := make([]wire.SemanticHit, len(res[i]))
		cosines := make([]float64, len(res[i]))
		for j, h := range res[i] {
			cosines[j] = round6(h.Cosine)
			hits[j] = wire.SemanticHit{ID: h.ID, Type: h.Type, Cosine: &cosines[j]}
			if h.CaseID != "" {
				c := h.CaseID
				hits[j].CaseID = &c
			}
		}
		out.Results[i] = wire.SemanticResult{Query: q, Hits: hits}
	}
	out.TookMs = ms(time.Since(t0))
	httpjson.Reply(w, http.StatusOK, out)
}

// parse applies the request rules: the first 32 queries, trimmed, empties
// dropped; limit defaults to 10 and is clamped to 1..200; types, domain and
// status must be values the board knows.
func parse(in wire.SemanticSearchRequest) ([]string, index.Filter, int, error) {
	queries := searchdoc.Queries(in.Queries)
	if len(queries) == 0 {
		return nil, index.Filter{}, 0, httpjson.BadRequest("field 'queries' must hold at least one non-empty query")
	}
	limit := in.Limit
	if limit == 0 {
		limit = DefaultLimit
	}
	limit = min(max(limit, 1), MaxLimit)
	f, err := searchdoc.ParseFilter(in.Types, in.Domain, in.Status, in.IncludeArchived)
	if err != nil {
		return nil, f, 0, httpjson.BadRequest("%s", err)
	}
	return queries, f, limit, nil
}

func (s *Server) reindex(w http.ResponseWriter, r *http.Request) {
	t0 := time.Now()
	if !s.warm.Load() {
		fail(w, errWarming)
		return
	}
	rep, err := s.refresh(r.Context(), true)
	if err != nil {
		fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusOK, map[string]any{"ok": true, "docs": rep.Docs, "embedded": rep.Embedded, "removed": rep.Removed, "digest": rep.Digest, "tookMs": ms(time.Since(t0))})
}

func (s *Server) statsHandler(w http.ResponseWriter, r *http.Request) {
	ref := s.active()
	st := ref.ix.Stats()
	s.statsMu.Lock()
	c := s.stats
	s.statsMu.Unlock()
	name := "none"
	if e := ref.e; e != nil {
		name = e.Name()
	}
	httpjson.Reply(w, http.StatusOK, map[string]any{
		"embedder": name, "dim": embed.Dim, "warm": s.warm.Load(), "digest": st.Digest,
		"docs": st.Counts, "total": total(st.Counts), "idMapSize": st.Slots,
		"reloads": c.Reloads, "rebuilds": c.Rebuilds, "lastEmbedded": c.LastEmbedded, "embeddedTotal": c.EmbeddedTotal,
		"storeVersion": c.StoreVersion, "lastRefreshMs": c.LastRefreshMs, "lastError": c.LastError,
		"download": s.download.Status(),
	})
}

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	ref := s.active()
	e := ref.e
	if e == nil || !s.warm.Load() {
		httpjson.Reply(w, http.StatusServiceUnavailable, map[string]any{"ok": false, "error": "warming up: the embedder is not loaded yet", "embedder": "none", "download": s.download.Status()})
		return
	}
	st := ref.ix.Stats()
	httpjson.Reply(w, http.StatusOK, map[string]any{"ok": true, "embedder": e.Name(), "docs": total(st.Counts), "digest": st.Digest, "download": s.download.Status()})
}

func total(counts map[string]int) int {
	n := 0
	for _, c := range counts {
		n += c
	}
	return n
}

func ms(d time.Duration) float64 { return math.Round(float64(d.Microseconds())/10) / 100 }

func round6(x float32) float64 { return math.Round(float64(x)*1e6) / 1e6 }

// errWarming answers every call that needs the embedder before it is ready.
var errWarming = httpjson.Errorf(http.StatusServiceUnavailable, "warming up: the embedder is not loaded yet")

// fail answers a client's mistake with its status, anything else with 500.
func fail(w http.ResponseWriter, err error) {
	code := http.StatusInternalServerError
	var he *httpjson.Error
	if errors.As(err, &he) {
		code = he.Status
	}
	httpjson.ReplyError(w, code, err.Error())
}
