// Package search is the board's search: the in-process substring scan
// behind GET /api/search, and the hybrid ranking behind POST /api/search
// (exact id, then id substring, then title match, then the sidecar's
// semantic cosine when it answered, then BM25 token overlap), with the hit
// and envelope shapes of POST /api/search and the merged view built from
// the board's own records. It is pure: no HTTP, no disk.
package search

import (
	"fmt"
	"math"
	"strings"

	"github.com/opsboard/opsboard/shared/searchdoc"
	"github.com/opsboard/opsboard/shared/wire"
)

// Limits of POST /api/search (besides searchdoc.MaxQueries).
const (
	DefaultK = 10
	MaxK     = wire.MaxSearchK
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
	// Fields names the longer texts the keyword path also reads: "body"
	// (a message's body) and "notes" (a case's notes). Absent: neither.
	Fields []string `json:"fields,omitempty"`
	Actor  string   `json:"actor,omitempty"` // tool clients stamp every body
}

// Request is a parsed search: usable queries, k, filters, and whether the
// semantic sidecar may be asked.
type Request struct {
	Queries  []string
	K        int
	Filter   Filter
	Semantic bool
	Bodies   bool // messages match on their body too
	Notes    bool // cases match on their notes too
}

// Extra fields the keyword path may read, named in Body.Fields.
const (
	FieldBody  = "body"
	FieldNotes = "notes"
)

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
	req.Queries = searchdoc.Queries(b.Queries)
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
	f, err := searchdoc.ParseFilter(b.Types, b.Domain, b.Status, b.IncludeArchived)
	if err != nil {
		return req, &InvalidError{Msg: err.Error()}
	}
	req.Filter = f
	req.Bodies, req.Notes, err = ParseFields("field", b.Fields)
	return req, err
}

// ParseFields reads the names of the extra fields to search (body, notes);
// what names the parameter in a refusal ("field" for a body, "query" for a
// URL).
func ParseFields(what string, names []string) (bodies, notes bool, err error) {
	for _, name := range names {
		switch strings.TrimSpace(name) {
		case FieldBody:
			bodies = true
		case FieldNotes:
			notes = true
		default:
			return false, false, invalid("%s 'fields' may hold %q and %q, not %q", what, FieldBody, FieldNotes, name)
		}
	}
	return bodies, notes, nil
}

// Filter drops documents; the rules are the ones the sidecar applies too.
type Filter = searchdoc.Filter

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
