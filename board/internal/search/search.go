// Package search is the board's search: the in-process substring scan
// behind GET /api/search, and the hybrid ranking behind POST /api/search
// (exact id, then id substring, then title match, then the sidecar's
// semantic cosine when it answered, then BM25 token overlap), with the hit
// and envelope shapes of the spec and the merged view built from the
// board's own records. It is pure: no HTTP, no disk.
package search

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/opsboard/opsboard/shared/wire"
)

// Document types.
const (
	TypeCase     = "case"
	TypeTask     = "task"
	TypeMessage  = "message"
	TypeReminder = "reminder"
)

// Types lists every document type.
var Types = []string{TypeCase, TypeTask, TypeMessage, TypeReminder}

// Limits of POST /api/search.
const (
	MaxQueries = 32
	DefaultK   = 10
	MaxK       = 50
)

// Body is the JSON body of POST /api/search.
type Body struct {
	Queries         []string `json:"queries"`
	Q               *string  `json:"q"`
	K               *float64 `json:"k"`
	Types           []string `json:"types"`
	Domain          string   `json:"domain"`
	Status          string   `json:"status"`
	IncludeArchived bool     `json:"includeArchived"`
	Semantic        *bool    `json:"semantic"`
	Actor           string   `json:"actor,omitempty"` // tool clients stamp every body
}

// Request is a parsed search: usable queries, k, filters, and whether the
// semantic sidecar may be asked.
type Request struct {
	Queries  []string
	K        int
	Filter   Filter
	Semantic bool
}

// InvalidError is a body that breaks a rule; the message says which.
type InvalidError struct{ Msg string }

func (e *InvalidError) Error() string { return e.Msg }

func invalid(format string, args ...any) error {
	return &InvalidError{Msg: fmt.Sprintf(format, args...)}
}

// Parse applies the body rules: the first 32 queries, each trimmed,
// empties dropped (q, when queries leaves none, is the single query); k
// defaults to 10 and is clamped to 1..50; types, domain and status must be
// known values; semantic false forces the keyword path.
func Parse(b Body) (Request, error) {
	req := Request{K: DefaultK, Semantic: b.Semantic == nil || *b.Semantic}
	qs := b.Queries
	if len(qs) > MaxQueries {
		qs = qs[:MaxQueries]
	}
	for _, q := range qs {
		if q = strings.TrimSpace(q); q != "" {
			req.Queries = append(req.Queries, q)
		}
	}
	if len(req.Queries) == 0 && b.Q != nil {
		if q := strings.TrimSpace(*b.Q); q != "" {
			req.Queries = []string{q}
		}
	}
	if len(req.Queries) == 0 {
		return req, invalid("a search needs at least one non-empty query: send 'queries' (an array of strings) or 'q'")
	}
	if b.K != nil {
		k := *b.K
		if math.IsNaN(k) {
			k = DefaultK
		}
		req.K = int(math.Max(1, math.Min(MaxK, math.Floor(k))))
	}
	for _, t := range b.Types {
		if !slices.Contains(Types, t) {
			return req, invalid("field 'types' holds %q; allowed: %s", t, strings.Join(Types, ", "))
		}
		if req.Filter.Types == nil {
			req.Filter.Types = map[string]bool{}
		}
		req.Filter.Types[t] = true
	}
	if b.Domain != "" && !slices.Contains(wire.Domains(), b.Domain) {
		return req, invalid("field 'domain' must be one of %s", strings.Join(wire.Domains(), ", "))
	}
	if b.Status != "" && !slices.Contains(wire.Lanes(), b.Status) {
		return req, invalid("field 'status' must be one of %s", strings.Join(wire.Lanes(), ", "))
	}
	req.Filter.Domain, req.Filter.Status, req.Filter.IncludeArchived = b.Domain, b.Status, b.IncludeArchived
	return req, nil
}

// Filter drops documents. By domain only when both the filter and the
// document's own domain are set and differ (messages have none, and a
// domainless reminder is never dropped); never a reminder by status (its
// status space is not the case lanes); includeArchived governs archived
// cases only.
type Filter struct {
	Types           map[string]bool // empty: every type
	Domain          string
	Status          string
	IncludeArchived bool
}

func (f *Filter) match(e *entry) bool {
	switch {
	case len(f.Types) > 0 && !f.Types[e.typ],
		e.typ == TypeCase && e.archived && !f.IncludeArchived,
		f.Domain != "" && e.domain != "" && e.domain != f.Domain,
		f.Status != "" && e.typ != TypeReminder && e.status != "" && e.status != f.Status:
		return false
	}
	return true
}

// Why values.
const (
	WhyExactID     = "exact-id"
	WhyIDSubstring = "id-substring"
	WhyTitle       = "title-match"
	WhySemantic    = "semantic"
	WhyKeyword     = "keyword"
)

// Hit, its projections and the per-query result are the wire types of the
// POST /api/search answer; the board fills them, clients read them.
type (
	Hit                = wire.SearchHit
	TaskProjection     = wire.TaskProjection
	MessageProjection  = wire.MessageProjection
	ReminderProjection = wire.ReminderProjection
	QueryResult        = wire.QueryResult
)

// TaskRef is a task with the case that holds it.
type TaskRef = wire.CaseTask

// Records is the four lists of full records: the GET scan's answer, the
// POST envelope's merged view and the command bar's find.
type Records = wire.SearchResults

func emptyRecords() Records {
	return Records{Cases: []*wire.Case{}, Tasks: []TaskRef{}, Messages: []*wire.Message{}, Reminders: []*wire.Reminder{}}
}

// Envelope is the answer of POST /api/search.
type Envelope = wire.SearchEnvelope

// Semantic is what the sidecar answered: per query (aligned with
// Request.Queries), document id -> cosine.
type Semantic struct {
	Embedder string
	Digest   string
	Cosines  []map[string]float64
}

func strPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
