// Package web serves the board's page: hand-written HTML, CSS and JavaScript
// modules embedded in the binary, with no build step. The page is a client of
// /api like any other, so this package only hands out files: index.html for
// every route the page draws itself, and the static assets it loads.
package web

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/gorilla/mux"
)

//go:embed static
var static embed.FS

// pageRoutes are the paths the page draws on the client; each is answered
// with index.html so a reload or a shared link lands on the same view.
var pageRoutes = []string{
	"/", "/agenda", "/board", "/strategy", "/inbox", "/activity", "/calendar",
	"/reminders", "/priorities", "/proposals", "/trash", "/security", "/backups", "/labels", "/transfer",
	"/vault",
}

// pagePrefix is the one page route with a tail: /vault/<page id or path>
// opens a vault page, and a page's path holds slashes of its own.
const pagePrefix = "/vault/"

// redirects are old or alias paths: Today is what the Activity feed was
// called, and Approvals what Proposals was.
var redirects = map[string]string{
	"/today":       "/activity",
	"/approvals":   "/proposals",
	"/favicon.ico": "/static/favicon.svg",
}

// Mount adds the page to the board's router for every path outside /api, so
// the API keeps its own JSON answers (a 404 under /api stays JSON).
func Mount(r *mux.Router) {
	r.MatcherFunc(func(req *http.Request, _ *mux.RouteMatch) bool {
		return !IsAPI(req.URL.Path)
	}).Handler(Handler())
}

// IsAPI reports whether a path belongs to the API rather than the page.
func IsAPI(p string) bool { return p == "/api" || strings.HasPrefix(p, "/api/") }

// Handler serves the page. The assets are fixed at build time, so it is built
// once and shared.
var Handler = sync.OnceValue(func() http.Handler {
	h, err := newSite(static)
	if err != nil {
		panic(fmt.Sprintf("web: embedded assets: %v", err)) // a broken build, caught by the package tests
	}
	return h
})

type asset struct {
	body  []byte
	ctype string
	etag  string
}

type site struct {
	files map[string]asset // by URL path, e.g. /static/app.css
	index asset
	csp   string
}

var importMap = regexp.MustCompile(`(?s)<script type="importmap">(.*?)</script>`)

func newSite(fsys fs.FS) (*site, error) {
	s := &site{files: map[string]asset{}}
	err := fs.WalkDir(fsys, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		ctype := mime.TypeByExtension(path.Ext(p))
		switch path.Ext(p) { // the system's MIME table may lack or differ on these
		case ".js":
			ctype = "text/javascript; charset=utf-8"
		case ".css":
			ctype = "text/css; charset=utf-8"
		case ".svg":
			ctype = "image/svg+xml"
		case ".woff2":
			ctype = "font/woff2"
		case ".md", "":
			ctype = "text/plain; charset=utf-8"
		}
		if ctype == "" {
			ctype = "application/octet-stream"
		}
		sum := sha256.Sum256(body)
		s.files["/"+p] = asset{body: body, ctype: ctype, etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
		return nil
	})
	if err != nil {
		return nil, err
	}
	index, ok := s.files["/static/index.html"]
	if !ok {
		return nil, fmt.Errorf("static/index.html is missing")
	}
	s.index = index
	// The one inline script is the import map; the policy allows exactly it.
	m := importMap.FindSubmatch(index.body)
	if m == nil {
		return nil, fmt.Errorf("static/index.html has no import map")
	}
	sum := sha256.Sum256(m[1])
	s.csp = strings.Join([]string{
		"default-src 'self'",
		"script-src 'self' 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'",
		"style-src 'self' 'unsafe-inline'",
		"img-src 'self' data:",
		"font-src 'self'",
		"connect-src 'self'",
		"object-src 'none'",
		"base-uri 'none'",
		"form-action 'self'",
		"frame-ancestors 'none'",
	}, "; ")
	return s, nil
}

func (s *site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	p := r.URL.Path
	if to, ok := redirects[p]; ok {
		if r.URL.RawQuery != "" {
			to += "?" + r.URL.RawQuery
		}
		s.pageHeaders(w.Header()) // the redirect's body is a line of HTML
		http.Redirect(w, r, to, http.StatusFound)
		return
	}
	if a, ok := s.files[p]; ok && strings.HasPrefix(p, "/static/") {
		s.serve(w, r, a, false)
		return
	}
	if slices.Contains(pageRoutes, p) || (strings.HasPrefix(p, pagePrefix) && len(p) > len(pagePrefix)) {
		s.serve(w, r, s.index, true)
		return
	}
	s.notFound(w, r)
}

func (s *site) serve(w http.ResponseWriter, r *http.Request, a asset, page bool) {
	h := w.Header()
	h.Set("Content-Type", a.ctype)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("ETag", a.etag)
	// Revalidate every time: a new binary may carry new assets, and on
	// loopback a 304 costs nothing.
	h.Set("Cache-Control", "no-cache")
	// Any HTML asset (index.html under /static too) boots the app, so it
	// carries the page's policy like the page routes do.
	if page || strings.HasPrefix(a.ctype, "text/html") {
		s.pageHeaders(h)
	}
	if match := r.Header.Get("If-None-Match"); match != "" && strings.Contains(match, a.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Length", fmt.Sprint(len(a.body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(a.body)
	}
}

func (s *site) pageHeaders(h http.Header) {
	h.Set("Content-Security-Policy", s.csp)
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
}

func (s *site) notFound(w http.ResponseWriter, r *http.Request) {
	var b bytes.Buffer
	b.WriteString(`<!doctype html><html lang="en"><meta charset="utf-8"><title>Not found · opsboard</title>`)
	b.WriteString(`<link rel="stylesheet" href="/static/app.css"><main class="notfound"><h1>Nothing here</h1>`)
	b.WriteString(`<p>This address is not a page of the board.</p><p><a href="/">Back to My Issues</a></p></main>`)
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	s.pageHeaders(h)
	w.WriteHeader(http.StatusNotFound)
	if r.Method != http.MethodHead {
		w.Write(b.Bytes())
	}
}
