package search

import (
	"fmt"
	"math"
	"slices"
	"sort"
)

// SidecarRequest is the body the board sends to the search sidecar's
// POST /search: the queries, how many candidates per query, and the
// filters, so the sidecar's top candidates are ones the board can use.
type SidecarRequest struct {
	Queries         []string `json:"queries"`
	Limit           int      `json:"limit"`
	Types           []string `json:"types,omitempty"`
	Domain          string   `json:"domain,omitempty"`
	Status          string   `json:"status,omitempty"`
	IncludeArchived bool     `json:"includeArchived,omitempty"`
}

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

// SidecarResponse is the sidecar's answer to POST /search.
type SidecarResponse struct {
	Engine        string  `json:"engine"`
	Embedder      string  `json:"embedder"`
	Dim           int     `json:"dim"`
	IndexedDigest string  `json:"indexedDigest"`
	Docs          int     `json:"docs"`
	TookMs        float64 `json:"tookMs"`
	Results       []struct {
		Query string `json:"query"`
		Hits  []struct {
			ID     string   `json:"id"`
			Type   string   `json:"type"`
			CaseID *string  `json:"caseId"`
			Cosine *float64 `json:"cosine"`
		} `json:"hits"`
	} `json:"results"`
}

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
			if h.ID == "" || !slices.Contains(Types, h.Type) || h.Cosine == nil {
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
