package serve_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/serve"
)

// answer is what one read through the cache came to.
type answer struct {
	Code   int
	Body   string
	Builds int // how often the body was built so far
	Err    string
}

func TestCache(t *testing.T) {
	var c serve.Cache
	builds := 0
	list := func() (any, error) { builds++; return []string{"CASE-1"}, nil }
	read := func(version int64, target, ifNoneMatch string, build func() (any, error)) (answer, http.Header) {
		r := httptest.NewRequest(http.MethodGet, target, nil)
		if ifNoneMatch != "" {
			r.Header.Set("If-None-Match", ifNoneMatch)
		}
		w := httptest.NewRecorder()
		a := answer{}
		if err := c.Serve(w, r, version, build); err != nil {
			a.Err = err.Error()
		}
		a.Code, a.Body, a.Builds = w.Code, w.Body.String(), builds
		return a, w.Header()
	}
	// The steps run in order: each sees what the ones before kept.
	first, h := read(3, "/api/cases?view=summary", "", list)
	etag := h.Get("ETag")
	if !strings.HasPrefix(etag, `"v3-`) || h.Get("Cache-Control") != "no-cache" || h.Get("Content-Type") != "application/json; charset=utf-8" {
		t.Errorf("headers %v", h)
	}
	for _, tc := range []struct {
		name        string
		version     int64
		target      string
		ifNoneMatch string
		build       func() (any, error)
		want        answer
	}{
		{"the first read builds", 3, "/api/cases?view=summary", "", list, answer{200, "[\"CASE-1\"]\n", 1, ""}},
		{"the same read is kept", 3, "/api/cases?view=summary", "", list, answer{200, "[\"CASE-1\"]\n", 1, ""}},
		{"an unchanged list costs a 304", 3, "/api/cases?view=summary", etag, list, answer{304, "", 1, ""}},
		{"one of several tags matches", 3, "/api/cases?view=summary", `"v2-0", ` + etag, list, answer{304, "", 1, ""}},
		{"another query is built", 3, "/api/cases", "", list, answer{200, "[\"CASE-1\"]\n", 2, ""}},
		{"a new version builds again", 4, "/api/cases?view=summary", etag, list, answer{200, "[\"CASE-1\"]\n", 3, ""}},
		{"a build error is returned, nothing written", 4, "/api/tree", "", func() (any, error) { return nil, errors.New("no such root") }, answer{200, "", 3, "no such root"}},
		{"an encode error is returned", 4, "/api/activity", "", func() (any, error) { return func() {}, nil }, answer{200, "", 3, "encode response: json: unsupported type: func()"}},
	} {
		got := first
		if tc.name != "the first read builds" {
			got, _ = read(tc.version, tc.target, tc.ifNoneMatch, tc.build)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got)\n%s", tc.name, diff)
		}
	}
}
