package web

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gorilla/mux"
)

// router is the page mounted beside a stand-in /api, as the board mounts it.
func router() *mux.Router {
	r := mux.NewRouter()
	r.PathPrefix("/api").Subrouter().HandleFunc("/health", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true}`)
	})
	r.NotFoundHandler = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"error":"no route"}`)
	})
	Mount(r)
	return r
}

func get(t *testing.T, h http.Handler, method, path string, hdr ...string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, path, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}

func TestPageRoutesServeTheApp(t *testing.T) {
	h := router()
	for _, p := range append(pageRoutes, "/board?case=CASE-1", "/calendar?mode=week", "/vault/V-3", "/vault/people%2FAda%20Lovelace.md") {
		w := get(t, h, http.MethodGet, p)
		if w.Code != http.StatusOK {
			t.Fatalf("GET %s: %d", p, w.Code)
		}
		if ct := w.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
			t.Errorf("GET %s: content type %q", p, ct)
		}
		body := w.Body.String()
		if !strings.Contains(body, `<script type="module" src="/static/js/main.js">`) {
			t.Errorf("GET %s: not the app page", p)
		}
		csp := w.Header().Get("Content-Security-Policy")
		if !strings.Contains(csp, "script-src 'self' 'sha256-") || !strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("GET %s: policy %q", p, csp)
		}
	}
}

func TestTodayRedirectsToActivity(t *testing.T) {
	w := get(t, router(), http.MethodGet, "/today?actor=agent")
	if w.Code != http.StatusFound || w.Header().Get("Location") != "/activity?actor=agent" {
		t.Fatalf("GET /today: %d to %q", w.Code, w.Header().Get("Location"))
	}
}

func TestStaticAssets(t *testing.T) {
	h := router()
	for path, ctype := range map[string]string{
		"/static/app.css":                             "text/css",
		"/static/js/main.js":                          "text/javascript",
		"/static/vendor/preact.module.js":             "text/javascript",
		"/static/vendor/hooks.module.js":              "text/javascript",
		"/static/vendor/htm.module.js":                "text/javascript",
		"/static/favicon.svg":                         "image/svg+xml",
		"/static/fonts/inter-latin-wght-normal.woff2": "font/woff2",
	} {
		w := get(t, h, http.MethodGet, path)
		if w.Code != http.StatusOK || !strings.HasPrefix(w.Header().Get("Content-Type"), ctype) {
			t.Errorf("GET %s: %d %q, want %s", path, w.Code, w.Header().Get("Content-Type"), ctype)
		}
		etag := w.Header().Get("ETag")
		if etag == "" {
			t.Errorf("GET %s: no ETag", path)
			continue
		}
		if w := get(t, h, http.MethodGet, path, "If-None-Match", etag); w.Code != http.StatusNotModified {
			t.Errorf("GET %s with its ETag: %d, want 304", path, w.Code)
		}
	}
}

func TestEveryModuleTheAppImportsIsEmbedded(t *testing.T) {
	s, err := newSite(static)
	if err != nil {
		t.Fatal(err)
	}
	for p, a := range s.files {
		if !strings.HasSuffix(p, ".js") || strings.Contains(p, "/vendor/") {
			continue
		}
		for _, line := range strings.Split(string(a.body), "\n") {
			_, rest, ok := strings.Cut(line, " from '")
			if !ok || !strings.HasPrefix(strings.TrimSpace(line), "import") {
				continue
			}
			spec, _, _ := strings.Cut(rest, "'")
			if !strings.HasPrefix(spec, ".") {
				continue // a name the import map resolves
			}
			dir := p[:strings.LastIndex(p, "/")]
			target := dir + "/" + spec
			for strings.Contains(target, "/./") {
				target = strings.Replace(target, "/./", "/", 1)
			}
			for strings.Contains(target, "/../") {
				i := strings.Index(target, "/../")
				j := strings.LastIndex(target[:i], "/")
				target = target[:j] + target[i+3:]
			}
			if _, ok := s.files[target]; !ok {
				t.Errorf("%s imports %s, which is not embedded", p, target)
			}
		}
	}
}

func TestUnknownPathsAndMethods(t *testing.T) {
	h := router()
	if w := get(t, h, http.MethodGet, "/nope"); w.Code != http.StatusNotFound || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") {
		t.Errorf("GET /nope: %d %q", w.Code, w.Header().Get("Content-Type"))
	}
	if w := get(t, h, http.MethodGet, "/static/missing.js"); w.Code != http.StatusNotFound {
		t.Errorf("GET /static/missing.js: %d", w.Code)
	}
	if w := get(t, h, http.MethodPost, "/board"); w.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST /board: %d", w.Code)
	}
	if w := get(t, h, http.MethodHead, "/inbox"); w.Code != http.StatusOK || w.Body.Len() != 0 {
		t.Errorf("HEAD /inbox: %d with %d bytes", w.Code, w.Body.Len())
	}
}

func TestAPIKeepsItsOwnAnswers(t *testing.T) {
	h := router()
	if w := get(t, h, http.MethodGet, "/api/health"); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"ok"`) {
		t.Errorf("GET /api/health: %d %s", w.Code, w.Body.String())
	}
	for _, p := range []string{"/api/nope", "/api"} {
		w := get(t, h, http.MethodGet, p)
		if w.Code != http.StatusNotFound || !strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") {
			t.Errorf("GET %s: %d %q: the page answered for the API", p, w.Code, w.Header().Get("Content-Type"))
		}
	}
}
