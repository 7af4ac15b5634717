// Package hub fetches a model's files from a model hub in the Hugging Face
// layout, <hub>/<repo>/resolve/<revision>/<file>, into a local directory.
// A download resumes where an earlier one stopped, is checked against the
// length and the sha256 the hub announces, and lands by atomic rename, so a
// model directory never holds half a file under its real name.
package hub

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Default is the public hub.
const Default = "https://huggingface.co"

// Off as the hub address turns downloads off.
const Off = "off"

// File is one file of a repository and where it goes in the model directory.
type File struct {
	Remote string // path inside the repository, e.g. onnx/model.onnx
	Local  string // path inside the model directory; "" means Remote
}

func (f File) local() string {
	if f.Local != "" {
		return f.Local
	}
	return f.Remote
}

// Repo names a model's files on the hub.
type Repo struct {
	ID       string // e.g. minishlab/potion-base-8M
	Revision string // a branch, tag or commit
	Files    []File
}

// Paths are the repository's files as they lie in dir.
func (r Repo) Paths(dir string) []string {
	out := make([]string, len(r.Files))
	for i, f := range r.Files {
		out[i] = filepath.Join(dir, filepath.FromSlash(f.local()))
	}
	return out
}

// Present says every file of r is in dir.
func (r Repo) Present(dir string) bool {
	for _, p := range r.Paths(dir) {
		if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() {
			return false
		}
	}
	return true
}

// Remove deletes r's files from dir, with any partial download of them:
// used when the files arrived but the model does not load from them.
func (r Repo) Remove(dir string) error {
	var errs []error
	for _, p := range r.Paths(dir) {
		for _, q := range []string{p, p + partSuffix} {
			if err := os.Remove(q); err != nil && !errors.Is(err, os.ErrNotExist) {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// Client downloads from one hub.
type Client struct {
	Base  string       // hub address, e.g. Default; no trailing slash needed
	Token string       // sent as a bearer token when set (HF_TOKEN)
	HTTP  *http.Client // nil: one with connect and header timeouts
	// Stall ends a download that receives nothing for this long (60s), so
	// a hub that hangs mid-file never holds the download forever.
	Stall time.Duration
	// Progress, when set, hears how many bytes of file are on disk (of
	// total, -1 when the hub did not say) as they arrive.
	Progress func(file string, done, total int64)
}

// Timeouts of the default HTTP client: a hub that does not connect or
// answer within them is treated as unreachable.
const (
	connectTimeout = 10 * time.Second
	headerTimeout  = 30 * time.Second
	defaultStall   = 60 * time.Second
	maxRedirects   = 5
)

func (c *Client) http() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = (&net.Dialer{Timeout: connectTimeout}).DialContext
	t.ResponseHeaderTimeout = headerTimeout
	return &http.Client{Transport: t}
}

func (c *Client) stall() time.Duration {
	if c.Stall > 0 {
		return c.Stall
	}
	return defaultStall
}

// URL is where the hub serves file f of r.
func (c *Client) URL(r Repo, f File) string {
	return strings.TrimRight(c.Base, "/") + "/" + r.ID + "/resolve/" + r.Revision + "/" + f.Remote
}

// Fetch brings every file of r that dir lacks, one after the other,
// reporting to t (which may be nil). A file already in dir is kept as it
// is. On failure the partial file stays for the next Fetch to resume.
func (c *Client) Fetch(ctx context.Context, r Repo, dir string, t *Tracker) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return t.fail(fmt.Errorf("model directory: %w", err))
	}
	for i, f := range r.Files {
		dest := r.Paths(dir)[i]
		if _, err := os.Stat(dest); err == nil {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
			return t.fail(fmt.Errorf("model directory: %w", err))
		}
		t.start(f.Remote)
		if err := c.file(ctx, r, f, dest, t); err != nil {
			return t.fail(fmt.Errorf("download %s of %s: %w", f.Remote, r.ID, err))
		}
	}
	return nil
}

// Offline says err means the hub could not be reached at all, as opposed
// to a hub that answered with a refusal or a bad file.
func Offline(err error) bool {
	var op *net.OpError
	var dns *net.DNSError
	var unreachable *unreachableError
	var ue *url.Error
	return errors.As(err, &op) || errors.As(err, &dns) || errors.As(err, &unreachable) || (errors.As(err, &ue) && ue.Timeout())
}

// unreachableError is a hub that accepted the connection but went silent.
type unreachableError struct{ what string }

func (e *unreachableError) Error() string { return e.what }
