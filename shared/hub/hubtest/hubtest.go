// Package hubtest is a local model hub for tests: it serves files in the
// hub's layout, <repo>/resolve/<revision>/<file>, with the headers the real
// hub sends, and can be told to misbehave in the ways a real one does.
package hubtest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Hub is a running local hub.
type Hub struct {
	URL string

	mu    sync.Mutex
	files map[string][]byte // "<repo>/resolve/<revision>/<file>" -> content
	// Token, when set, is the bearer token every request must carry (a
	// gated model); others get 401.
	Token string
	// NoRange answers every request with the whole file and 200.
	NoRange bool
	// CutAfter, when > 0, ends each body after this many bytes, as a
	// dropped connection does.
	CutAfter int
	// BadSHA announces a sha256 the content does not have.
	BadSHA bool
	// Hang holds every request until the test ends.
	Hang bool
	// StallAfter, when > 0, sends this many bytes of a body and then
	// nothing more until the test ends.
	StallAfter int

	requests []Request
	release  chan struct{}
}

// Request is what the hub saw of one request.
type Request struct {
	Path, Range, Authorization string
}

// New starts a hub serving nothing yet; it stops when the test ends.
func New(t testing.TB) *Hub {
	h := &Hub{files: map[string][]byte{}, release: make(chan struct{})}
	s := httptest.NewServer(http.HandlerFunc(h.serve))
	h.URL = s.URL
	t.Cleanup(func() {
		close(h.release)
		s.Close()
	})
	return h
}

// Add serves content as file of repo at revision.
func (h *Hub) Add(repo, revision, file string, content []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.files[repo+"/resolve/"+revision+"/"+file] = content
}

// AddFile serves the file at path as file of repo at revision.
func (h *Hub) AddFile(t testing.TB, repo, revision, file, path string) {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	h.Add(repo, revision, file, b)
}

// Set changes the hub's behaviour under its lock.
func (h *Hub) Set(f func(*Hub)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	f(h)
}

// Requests are the requests seen so far.
func (h *Hub) Requests() []Request {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]Request(nil), h.requests...)
}

func (h *Hub) serve(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	h.requests = append(h.requests, Request{Path: r.URL.Path, Range: r.Header.Get("Range"), Authorization: r.Header.Get("Authorization")})
	content, ok := h.files[strings.TrimPrefix(r.URL.Path, "/")]
	token, noRange, cut, badSHA, hang, stall := h.Token, h.NoRange, h.CutAfter, h.BadSHA, h.Hang, h.StallAfter
	h.mu.Unlock()
	if hang {
		select {
		case <-h.release:
		case <-r.Context().Done():
		}
		return
	}
	if token != "" && r.Header.Get("Authorization") != "Bearer "+token {
		http.Error(w, "Access to model is restricted. You must have access to it and be authenticated.", http.StatusUnauthorized)
		return
	}
	if !ok {
		http.Error(w, "Entry not found", http.StatusNotFound)
		return
	}
	sum := sha256.Sum256(content)
	etag := hex.EncodeToString(sum[:])
	if badSHA {
		etag = strings.Repeat("0", 64)
	}
	w.Header().Set("X-Linked-Etag", `"`+etag+`"`)
	w.Header().Set("ETag", `"`+etag+`"`)
	if noRange {
		r.Header.Del("Range")
	}
	var out http.ResponseWriter = w
	if cut > 0 {
		out = &cutWriter{ResponseWriter: w, left: cut}
	}
	if stall > 0 {
		w.Header().Set("Content-Length", strconv.Itoa(len(content)))
		w.Write(content[:min(stall, len(content))])
		w.(http.Flusher).Flush()
		select {
		case <-h.release:
		case <-r.Context().Done():
		}
		return
	}
	http.ServeContent(out, r, "", time.Time{}, bytes.NewReader(content))
}

// cutWriter stops writing after left bytes, and the handler's return then
// ends a body shorter than its Content-Length, as a dropped connection does.
type cutWriter struct {
	http.ResponseWriter
	left int
}

func (c *cutWriter) Write(p []byte) (int, error) {
	if c.left <= 0 {
		return 0, http.ErrHandlerTimeout
	}
	if len(p) > c.left {
		p = p[:c.left]
	}
	c.left -= len(p)
	return c.ResponseWriter.Write(p)
}
