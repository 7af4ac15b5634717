package search

import (
	"fmt"
	"math"
	"sort"

	"github.com/opsboard/opsboard/shared/searchdoc"
	"github.com/opsboard/opsboard/shared/wire"
)

// SidecarRequest is the body the board sends to the search sidecar's
// POST /search.
type SidecarRequest = wire.SemanticSearchRequest

// SidecarLimit is how many candidates per query the board asks for: more
// than k, because the board re-ranks with its keyword signals.
func SidecarLimit(k int) int { return min(200, max(50, 5*k)) }

// NewSidecarRequest is the sidecar call for req.
func NewSidecarRequest(req Request) SidecarRequest {
	out := SidecarRequest{Queries: req.Queries, Limit: SidecarLimit(req.K), Domain: req.Filter.Domain, Status: req.Filter.Status, IncludeArchived: req.Filter.IncludeArchived}
	for t := range req.Filter.Types {
		out.Types = append(out.Types, t)
	}
	sort.Strings(out.Types)
	return out
}

// SidecarResponse is the sidecar's answer to POST /search, with the
// board's check of it.
type SidecarResponse wire.SemanticSearchReply

// Semantic checks the answer against what was asked and returns the
// cosines per query. Anything off (another engine, no embedder or digest,
// results not matching the queries, a hit without id or type, a cosine
// that is not a number in [-1, 1]) is an error: the caller falls back to
// the keyword path rather than rank on garbage.
func (r *SidecarResponse) Semantic(queries []string) (*Semantic, error) {
	if r.Engine != "semantic" {
		return nil, fmt.Errorf("sidecar engine %q, want semantic", r.Engine)
	}
	if r.Embedder == "" || r.IndexedDigest == "" {
		return nil, fmt.Errorf("sidecar answer names no embedder or digest")
	}
	if len(r.Results) != len(queries) {
		return nil, fmt.Errorf("sidecar answered %d queries of %d", len(r.Results), len(queries))
	}
	out := &Semantic{Embedder: r.Embedder, Digest: r.IndexedDigest, Cosines: make([]map[string]float64, len(queries))}
	for i, res := range r.Results {
		if res.Query != queries[i] {
			return nil, fmt.Errorf("sidecar result %d is for %q, not %q", i, res.Query, queries[i])
		}
		m := make(map[string]float64, len(res.Hits))
		for _, h := range res.Hits {
			if h.ID == "" || !searchdoc.IsType(h.Type) || h.Cosine == nil {
				return nil, fmt.Errorf("sidecar hit %+v is incomplete", h)
			}
			c := *h.Cosine
			if math.IsNaN(c) || math.Abs(c) > 1.0001 {
				return nil, fmt.Errorf("sidecar cosine %v for %s is not a cosine", c, h.ID)
			}
			m[h.ID] = math.Max(-1, math.Min(1, c))
		}
		out.Cosines[i] = m
	}
	return out, nil
}
