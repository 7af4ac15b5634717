package searchdoc

import (
	"fmt"
	"slices"
	"strings"

	"github.com/opsboard/opsboard/shared/wire"
)

// MaxQueries is how many queries one search ranks; later ones are ignored,
// so one call cannot ask for unbounded work.
const MaxQueries = wire.MaxSearchQueries

// Queries is the usable queries of a request: the first MaxQueries, each
// trimmed, empty ones dropped. Nil when none is left.
func Queries(qs []string) []string {
	if len(qs) > MaxQueries {
		qs = qs[:MaxQueries]
	}
	var out []string
	for _, q := range qs {
		if q = strings.TrimSpace(q); q != "" {
			out = append(out, q)
		}
	}
	return out
}

// Filter is a search's filters. A document is dropped by Domain only when
// both the filter and the document's own domain are set and differ
// (messages have none, and a domainless reminder is never dropped); a
// reminder is never dropped by Status (its status space is not the case
// lanes); IncludeArchived governs archived cases only.
type Filter struct {
	Types           map[string]bool // nil or empty: every type
	Domain          string
	Status          string
	IncludeArchived bool
}

// Match reports whether a document of type typ, with its domain, status and
// archived flag, passes f.
func (f *Filter) Match(typ, domain, status string, archived bool) bool {
	switch {
	case len(f.Types) > 0 && !f.Types[typ],
		typ == TypeCase && archived && !f.IncludeArchived,
		f.Domain != "" && domain != "" && domain != f.Domain,
		f.Status != "" && typ != TypeReminder && status != "" && status != f.Status:
		return false
	}
	return true
}

// ParseFilter checks a request's filter fields and returns the filter:
// every type must be a document type, domain a known domain and status a
// case lane (empty: no filter). The error names the field and the values
// it allows.
func ParseFilter(types []string, domain, status string, includeArchived bool) (Filter, error) {
	var f Filter
	for _, t := range types {
		if !IsType(t) {
			return Filter{}, fmt.Errorf("field 'types' holds %q; allowed: %s", t, strings.Join(SearchTypes(), ", "))
		}
		if f.Types == nil {
			f.Types = map[string]bool{}
		}
		f.Types[t] = true
	}
	if domain != "" && !slices.Contains(wire.Domains(), domain) {
		return Filter{}, fmt.Errorf("field 'domain' must be one of %s", strings.Join(wire.Domains(), ", "))
	}
	if status != "" && !slices.Contains(wire.Lanes(), status) {
		return Filter{}, fmt.Errorf("field 'status' must be one of %s", strings.Join(wire.Lanes(), ", "))
	}
	f.Domain, f.Status, f.IncludeArchived = domain, status, includeArchived
	return f, nil
}
