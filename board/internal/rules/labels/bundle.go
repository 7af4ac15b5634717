// Package labels is the board's label catalog: custom labels made by hand,
// the built-in bundles installed into and uninstalled from it, and the check
// that a case or reminder names only labels the catalog holds.
//
// The bundle and id rules (bundle.go, catalog.go, id.go) are pure functions
// of values; apply.go runs them inside a write of the store.
//
// A bundle is a static, installable pack of label definitions for a role
// (sales, software engineering, ...), a life area (travel, pet care, ...) or
// every board (universal). The catalog and its provenance (which bundle owns
// which id, which ids were made by hand) are values owned by the store; the
// functions here only compute new values from old ones, so the store can run
// them inside its critical section and publish the result atomically.
package labels

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/opsboard/opsboard/shared/wire"
)

// bundleFiles is read-only data compiled into the binary, so a bundle can
// never be missing or edited on disk behind the board's back.
//
//go:embed bundles/*.json
var bundleFiles embed.FS

// Kinds of bundle, in the order Load returns them: the universal pack first
// because every board wants it, then work roles, then life areas.
const (
	KindUniversal = "universal"
	KindRole      = "role"
	KindLife      = "life"
)

// Bundle is one installable pack of label definitions.
type Bundle struct {
	ID          string          `json:"id"`
	Title       string          `json:"title"`
	Kind        string          `json:"kind"`
	Description string          `json:"description"`
	Labels      []wire.LabelDef `json:"labels"`
}

// kindRank orders kinds for listing; unknown kinds get -1 so Load can reject
// them instead of silently sorting them somewhere.
func kindRank(kind string) int {
	switch kind {
	case KindUniversal:
		return 0
	case KindRole:
		return 1
	case KindLife:
		return 2
	}
	return -1
}

// Load parses every embedded bundle, sorted by kind (universal, role, life)
// and then by id. It is called once at start-up; the result is immutable.
func Load() ([]Bundle, error) {
	names, err := fs.Glob(bundleFiles, "bundles/*.json")
	if err != nil {
		return nil, fmt.Errorf("list bundles: %w", err)
	}
	bundles := make([]Bundle, 0, len(names))
	for _, name := range names {
		b, err := parseBundle(name)
		if err != nil {
			return nil, err
		}
		bundles = append(bundles, b)
	}
	slices.SortFunc(bundles, func(a, b Bundle) int {
		if d := kindRank(a.Kind) - kindRank(b.Kind); d != 0 {
			return d
		}
		return strings.Compare(a.ID, b.ID)
	})
	return bundles, nil
}

// parseBundle decodes one file strictly: a misspelt field in the data would
// otherwise ship as an empty title or description without anyone noticing.
func parseBundle(name string) (Bundle, error) {
	raw, err := bundleFiles.ReadFile(name)
	if err != nil {
		return Bundle{}, fmt.Errorf("read bundle %s: %w", name, err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var b Bundle
	if err := dec.Decode(&b); err != nil {
		return Bundle{}, fmt.Errorf("parse bundle %s: %w", name, err)
	}
	if want := strings.TrimSuffix(path.Base(name), ".json"); b.ID != want {
		return Bundle{}, fmt.Errorf("parse bundle %s: id %q does not match the file name", name, b.ID)
	}
	if kindRank(b.Kind) < 0 {
		return Bundle{}, fmt.Errorf("parse bundle %s: unknown kind %q", name, b.Kind)
	}
	return b, nil
}

// Find returns the bundle with the given id.
func Find(bundles []Bundle, id string) (Bundle, bool) {
	for _, b := range bundles {
		if b.ID == id {
			return b, true
		}
	}
	return Bundle{}, false
}
