package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/search"
	"github.com/opsboard/opsboard/shared/httpjson"
	"github.com/opsboard/opsboard/shared/wire"
)

// sidecarTimeout bounds the whole semantic call; past it the board answers
// from its keyword path, so a slow sidecar never slows a search much.
const sidecarTimeout = wire.SearchSidecarTimeout

// maxSidecarAnswer bounds what the board reads from the sidecar; no
// client's request can reach it, so it is not among wire's limits.
const maxSidecarAnswer = 8 << 20

// searcher is the board's search state: the keyword index of the newest
// snapshot and the client of the optional semantic sidecar.
type searcher struct {
	url    string // "" when no sidecar is configured
	client *http.Client
	index  search.Indexer
	log    *slog.Logger
	// rankFn ranks; search.Rank, replaced in tests to make it fail.
	rankFn func(*search.Index, search.Request, *search.Semantic) search.Envelope

	mu       sync.Mutex
	lastFail string // why the last sidecar call failed; "" after a success

	pagesMu sync.Mutex
	pages   *search.PageSet // the vault's pages as last analysed
}

// vaultPages is what search reads of the vault: every page's summary, and
// a page whole for its body.
type vaultPages interface {
	Summaries() []wire.PageSummary
	Get(idOrPath string) (wire.Page, error)
}

// bodyReader is a vault that reads a page's body alone. Get also renders
// the page and gathers its backlinks from the whole store, which a search
// reading every page's body on its first run cannot afford at scale; a
// vault offering Body is read through it.
type bodyReader interface {
	Body(idOrPath string) (string, error)
}

// pageBody is the body of the page at path.
func pageBody(v vaultPages, path string) (string, error) {
	if b, ok := v.(bodyReader); ok {
		return b.Body(path)
	}
	p, err := v.Get(path)
	return p.Body, err
}

// searchPages is the vault's pages for the next search; nil without a
// vault, so searches read the store only.
func (a *API) searchPages() *search.PageSet {
	if a.vault == nil {
		return nil
	}
	return a.search.pageSet(a.vault)
}

// pageSet is the vault's pages for the next search. Only pages whose file
// changed since the last search are read again, so a search costs a read of
// the changed pages, not of the vault.
func (s *searcher) pageSet(v vaultPages) *search.PageSet {
	sums := v.Summaries()
	s.pagesMu.Lock()
	defer s.pagesMu.Unlock()
	prev := s.pages
	changed := prev.Len() != len(sums)
	docs := make([]search.PageDoc, len(sums))
	for i := range sums {
		body, ok := prev.Unchanged(&sums[i])
		if !ok {
			changed = true
			// A page that went away since it was listed is searched by
			// its summary alone until the next search.
			body, _ = pageBody(v, sums[i].Path)
		}
		docs[i] = search.PageDoc{Summary: sums[i], Body: body}
	}
	if changed || prev == nil {
		s.pages = search.NewPageSet(docs, prev)
	}
	return s.pages
}

func newSearcher(url string, log *slog.Logger) *searcher {
	return &searcher{
		url:    strings.TrimRight(strings.TrimSpace(url), "/"),
		log:    log,
		rankFn: search.Rank,
		client: &http.Client{
			Timeout: sidecarTimeout,
			// The sidecar is local: never through a proxy, never a redirect.
			Transport:     &http.Transport{Proxy: nil, MaxIdleConnsPerHost: 4, IdleConnTimeout: 30 * time.Second},
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
	}
}

// GET /api/search?q=&fields=: fields=notes (comma-separated with body,
// which the scan always reads) also matches cases on their notes.
func (a *API) searchGet(w http.ResponseWriter, r *http.Request) {
	d := a.store.Snapshot()
	scan := func(pages *search.PageSet) (any, error) {
		notes := false
		if f := r.URL.Query().Get("fields"); f != "" {
			var err error
			if _, notes, err = search.ParseFields("query", strings.Split(f, ",")); err != nil {
				return nil, errs.BadRequest("%s", err.Error())
			}
		}
		out := search.ScanFieldsWith(d, r.URL.Query().Get("q"), notes, a.store.BodyForSearch)
		out.Messages = a.store.WithBodies(out.Messages)
		out.Pages = search.ScanPages(pages, r.URL.Query().Get("q"))
		return out, nil
	}
	pages := a.searchPages()
	if pages.Len() == 0 {
		a.serveCached(w, r, d, func() (any, error) { return scan(nil) })
		return
	}
	// The vault changes apart from the store's version, so an answer that
	// reads it is not cached by that version.
	out, err := scan(pages)
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusOK, out)
}

// POST /api/search
func (a *API) searchPost(w http.ResponseWriter, r *http.Request) {
	t0 := time.Now()
	var body search.Body
	if err := decode(w, r, &body); err != nil {
		a.fail(w, err)
		return
	}
	req, err := search.Parse(body)
	if err != nil {
		a.fail(w, errs.BadRequest("%s", err.Error()))
		return
	}
	ix := a.search.index.ForPages(a.store.Snapshot(), a.searchPages())
	var sem *search.Semantic
	if req.Semantic && a.search.url != "" {
		sem = a.search.semantic(r.Context(), req)
	}
	env := a.search.rank(ix, req, sem)
	env.Merged.Messages = a.store.WithBodies(env.Merged.Messages)
	env.TookMs = math.Round(float64(time.Since(t0).Microseconds())/10) / 100
	httpjson.Reply(w, http.StatusOK, env)
}

// rank ranks with the sidecar's answer and, should that go wrong in any
// way, without it: search fails open. Should the keyword path fail too
// (whatever a hand-edited document holds), the answer is an empty one, still
// a 200, and the failure is logged.
func (s *searcher) rank(ix *search.Index, req search.Request, sem *search.Semantic) search.Envelope {
	if sem != nil {
		env, err := s.tryRank(ix, req, sem)
		if err == nil {
			return env
		}
		s.noteFailure(fmt.Errorf("ranking the sidecar's answer: %w", err))
	}
	env, err := s.tryRank(ix, req, nil)
	if err == nil {
		return env
	}
	s.log.Error("search.keyword", "err", err)
	return emptyEnvelope(req)
}

// tryRank runs the ranking and turns a panic into an error.
func (s *searcher) tryRank(ix *search.Index, req search.Request, sem *search.Semantic) (env search.Envelope, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return s.rankFn(ix, req, sem), nil
}

// emptyEnvelope is a keyword answer with no hits for each query.
func emptyEnvelope(req search.Request) search.Envelope {
	env := search.Envelope{Engine: "keyword", Embedder: "none", Results: make([]search.QueryResult, len(req.Queries))}
	for i, q := range req.Queries {
		env.Results[i] = search.QueryResult{Query: q, Hits: []search.Hit{}}
	}
	env.Merged = search.Records{Cases: []*wire.Case{}, Tasks: []search.TaskRef{}, Messages: []*wire.Message{}, Reminders: []*wire.Reminder{}}
	return env
}

// semantic asks the sidecar; nil means use the keyword path.
func (s *searcher) semantic(ctx context.Context, req search.Request) *search.Semantic {
	sem, err := s.ask(ctx, req)
	if err != nil {
		s.noteFailure(err)
		return nil
	}
	s.mu.Lock()
	if s.lastFail != "" {
		s.log.Info("search.sidecar", "state", "answering again", "embedder", sem.Embedder)
		s.lastFail = ""
	}
	s.mu.Unlock()
	return sem
}

func (s *searcher) ask(ctx context.Context, req search.Request) (*search.Semantic, error) {
	ctx, cancel := context.WithTimeout(ctx, sidecarTimeout)
	defer cancel()
	body, err := json.Marshal(search.NewSidecarRequest(req))
	if err != nil {
		return nil, fmt.Errorf("encode sidecar request: %w", err)
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url+"/search", bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("sidecar request: %w", err)
	}
	hr.Header.Set("Content-Type", "application/json")
	resp, err := s.client.Do(hr)
	if err != nil {
		return nil, fmt.Errorf("call sidecar: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, fmt.Errorf("sidecar answered %s", resp.Status)
	}
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxSidecarAnswer+1))
	if err != nil {
		return nil, fmt.Errorf("read sidecar answer: %w", err)
	}
	if len(raw) > maxSidecarAnswer {
		return nil, errors.New("sidecar answer is too large")
	}
	var out search.SidecarResponse
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("decode sidecar answer: %w", err)
	}
	sem, err := out.Semantic(req.Queries)
	if err != nil {
		return nil, fmt.Errorf("sidecar answer: %w", err)
	}
	return sem, nil
}

// noteFailure logs a fallback when its cause changes, not on every search:
// a board without a sidecar is a normal setup.
func (s *searcher) noteFailure(err error) {
	msg := err.Error()
	s.mu.Lock()
	changed := s.lastFail != msg
	s.lastFail = msg
	s.mu.Unlock()
	if changed {
		s.log.Info("search.sidecar", "state", "keyword fallback", "err", msg)
	}
}
