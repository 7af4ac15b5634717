package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/http"
	"strings"
	"sync"
)

// maxCached bounds the bodies kept for one version: the page's few list
// reads fit, and a client walking many queries cannot grow it without end.
const maxCached = 256

// Cache keeps the encoded answers of reads for one version of the store,
// so the page's repeated list reads are encoded once per write and an
// unchanged one costs a 304. A new version empties it. The zero value is
// ready to use.
type Cache struct {
	mu      sync.Mutex
	version int64
	bodies  map[string][]byte
}

// Serve answers r with the body kept for its path and query at version, or
// with build's value, encoded and kept. The ETag names the version and the
// query, so a client may revalidate. A build or encode error is returned
// before any body is written, for the caller to answer.
func (c *Cache) Serve(w http.ResponseWriter, r *http.Request, version int64, build func() (any, error)) error {
	key := r.URL.Path + "?" + r.URL.RawQuery
	h := fnv.New32a()
	h.Write([]byte(key))
	etag := fmt.Sprintf(`"v%d-%x"`, version, h.Sum32())
	w.Header().Set("ETag", etag)
	w.Header().Set("Cache-Control", "no-cache")
	if match := r.Header.Get("If-None-Match"); match != "" && strings.Contains(match, etag) {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	body, ok := c.get(version, key)
	if !ok {
		v, err := build()
		if err != nil {
			return err
		}
		var buf bytes.Buffer
		if err := json.NewEncoder(&buf).Encode(v); err != nil {
			return fmt.Errorf("encode response: %w", err)
		}
		body = buf.Bytes()
		c.put(version, key, body)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Write(body)
	return nil
}

// get returns the body kept for key, first forgetting every body of an
// older version.
func (c *Cache) get(version int64, key string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.bodies == nil || c.version != version {
		c.version, c.bodies = version, map[string][]byte{}
	}
	body, ok := c.bodies[key]
	return body, ok
}

// put keeps body unless the version moved on while it was built.
func (c *Cache) put(version int64, key string, body []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.version == version && len(c.bodies) < maxCached {
		c.bodies[key] = body
	}
}
