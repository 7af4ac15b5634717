package main

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opsboard/opsboard/shared/wire"
)

// nested is a JSON object nested levels deep: {"f":{"f":...{}}}.
func nested(levels int) string {
	return strings.Repeat(`{"f":`, levels-1) + "{}" + strings.Repeat("}", levels-1)
}

// Free-form JSON (saved-view filters, preferences, templates, proposal
// payloads) is refused when nested deeper than 32 levels (400) or larger
// than 64 KB (413), with an error naming the field, and nothing is written.
// What is accepted grows the document linearly: one 60 KB view of 10,000
// levels used to grow board.json to 100 MB.
func TestFreeFormJSONIsBounded(t *testing.T) {
	data := filepath.Join(t.TempDir(), "board.json")
	d := start(t, data, 0)
	big := `{"q":"` + strings.Repeat("x", 70<<10) + `"}`
	for _, tc := range []struct {
		name, method, path, body string
		code                     int
		field                    string
	}{
		{"a view of 10,000 levels", "POST", "/api/views", fmt.Sprintf(`{"name":"deep","filters":%s}`, nested(10000)), http.StatusBadRequest, "'filters'"},
		{"a view of 9,990 levels", "POST", "/api/views", fmt.Sprintf(`{"name":"deep","filters":%s}`, nested(9990)), http.StatusBadRequest, "'filters'"},
		{"a view of 33 levels", "POST", "/api/views", fmt.Sprintf(`{"name":"deep","filters":%s}`, nested(33)), http.StatusBadRequest, "'filters'"},
		{"a view over 64 KB", "POST", "/api/views", fmt.Sprintf(`{"name":"big","filters":%s}`, big), http.StatusRequestEntityTooLarge, "'filters'"},
		{"prefs of 10,000 levels", "PATCH", "/api/prefs", fmt.Sprintf(`{"layout":%s}`, nested(10000)), http.StatusBadRequest, "'layout'"},
		{"a pref over 64 KB", "PATCH", "/api/prefs", fmt.Sprintf(`{"layout":%s}`, big), http.StatusRequestEntityTooLarge, "'layout'"},
		{"a proposal payload of 40 levels", "POST", "/api/pending", fmt.Sprintf(`{"verb":"create_case","summary":"s","payload":{"title":"t","x":%s}}`, nested(40)), http.StatusBadRequest, "'payload'"},
		{"a proposal payload over 64 KB", "POST", "/api/pending", fmt.Sprintf(`{"verb":"create_case","summary":"s","payload":{"title":"t","summary":"%s"}}`, strings.Repeat("y", 70<<10)), http.StatusRequestEntityTooLarge, "'payload'"},
		{"a template over 64 KB", "POST", "/api/templates", fmt.Sprintf(`{"name":"big","summary":"%s"}`, strings.Repeat("z", 70<<10)), http.StatusRequestEntityTooLarge, "'template'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			raw := d.must(t, tc.code, tc.method, tc.path, tc.body)
			if !strings.Contains(string(raw), tc.field) {
				t.Errorf("the error does not name %s: %s", tc.field, raw)
			}
		})
	}
	var h struct {
		Version int64 `json:"version"`
	}
	if err := jsonDecode(d.must(t, http.StatusOK, "GET", "/api/prefs", ""), &h); err != nil || h.Version != 1 {
		t.Errorf("a refused write changed the board: version %d (%v), want 1 (the seed)", h.Version, err)
	}

	// At the limits everything is accepted, and the document stays small.
	d.must(t, http.StatusCreated, "POST", "/api/views", fmt.Sprintf(`{"name":"at the limit","filters":%s}`, nested(32)))
	d.must(t, http.StatusOK, "PATCH", "/api/prefs", fmt.Sprintf(`{"layout":%s}`, nested(31)))
	d.must(t, http.StatusCreated, "POST", "/api/cases", `{"title":"last write"}`)
	d.compacted(t, "last write")
	st, err := os.Stat(data)
	if err != nil {
		t.Fatal(err)
	}
	if st.Size() > 1<<20 {
		t.Errorf("board.json is %d bytes after a few small writes", st.Size())
	}
}

// A document that already holds deeply nested JSON (written before the
// limits, or by hand) is still encoded in size linear in its content: the
// indentation stops growing past a fixed depth.
func TestDeepHandEditedValueEncodesLinearly(t *testing.T) {
	data := filepath.Join(t.TempDir(), "board.json")
	view := nested(5000) // about 25 KB
	doc := fmt.Sprintf(`{"schemaVersion":%d,"version":3,"views":[{"id":"VIEW-1","name":"deep","filters":%s,"createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z"}]}`, wire.SchemaVersion, view)
	if err := os.WriteFile(data, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	d := start(t, data, 0)
	d.must(t, http.StatusCreated, "POST", "/api/cases", `{"title":"forces a compaction"}`)
	d.compacted(t, "forces a compaction")
	st, err := os.Stat(data)
	if err != nil {
		t.Fatal(err)
	}
	if limit := int64(100 * len(view)); st.Size() > limit {
		t.Errorf("board.json is %d bytes for a %d-byte view (more than %d)", st.Size(), len(view), limit)
	}
	raw := d.must(t, http.StatusOK, "GET", "/api/views/VIEW-1", "")
	if !strings.Contains(string(raw), `"name":"deep"`) {
		t.Errorf("the deep view did not survive: %.200s", raw)
	}
}
