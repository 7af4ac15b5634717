package hub

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// partSuffix marks a file still arriving; it is resumed from its length.
const partSuffix = ".part"

// announced is what the hub says about a file before sending it.
type announced struct {
	sha256 string // lowercase hex, "" when the hub sent none
	total  int64  // full length, -1 when unknown
}

// file downloads one file into dest through dest.part.
func (c *Client) file(ctx context.Context, r Repo, f File, dest string, t *Tracker) error {
	part := dest + partSuffix
	have := int64(0)
	if st, err := os.Stat(part); err == nil {
		have = st.Size()
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	resp, info, err := c.get(ctx, c.URL(r, f), have)
	if errors.Is(err, errRangeRefused) {
		// The partial file is as long as the file or longer: start over.
		os.Remove(part)
		have = 0
		resp, info, err = c.get(ctx, c.URL(r, f), have)
	}
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	flag := os.O_WRONLY | os.O_CREATE | os.O_APPEND
	switch resp.StatusCode {
	case http.StatusPartialContent:
		if start, ok := rangeStart(resp.Header.Get("Content-Range")); !ok || start != have {
			os.Remove(part) // the next attempt starts over rather than meet the same answer
			return fmt.Errorf("the hub sent a range starting at %d, not the %d bytes already here", start, have)
		}
	case http.StatusOK:
		// No range honoured: the body is the whole file, read from the start.
		have, flag = 0, os.O_WRONLY|os.O_CREATE|os.O_TRUNC
	}
	out, err := os.OpenFile(part, flag, 0o644)
	if err != nil {
		return err
	}
	t.progress(have)
	done := have
	tell := func(n int64) {
		t.add(n)
		if c.Progress != nil {
			done += n
			c.Progress(f.Remote, done, info.total)
		}
	}
	tell(0)
	n, err := io.Copy(out, &watched{r: resp.Body, ctx: ctx, cancel: cancel, stall: c.stall(), onRead: tell})
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) {
			return cause
		}
		return fmt.Errorf("after %d bytes: %w", have+n, err)
	}
	return finish(part, dest, have+n, info)
}

// finish checks the arrived file against what the hub announced and puts
// it in place. A file longer than announced or with another sha256 is
// deleted; a short one stays to be resumed.
func finish(part, dest string, size int64, info announced) error {
	if info.total >= 0 && size < info.total {
		return fmt.Errorf("the connection ended at %d of %d bytes (the next start resumes)", size, info.total)
	}
	if info.total >= 0 && size > info.total {
		os.Remove(part)
		return fmt.Errorf("%d bytes arrived, the hub announced %d: refused", size, info.total)
	}
	if info.sha256 != "" {
		got, err := sum(part)
		if err != nil {
			return err
		}
		if got != info.sha256 {
			os.Remove(part)
			return fmt.Errorf("sha256 %s does not match the hub's %s: the file is corrupt and was refused", got, info.sha256)
		}
	}
	if err := os.Rename(part, dest); err != nil {
		return err
	}
	return syncDir(filepath.Dir(dest))
}

func sum(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// syncDir makes a rename inside dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// get asks for the file from byte have on, following the hub's redirects
// itself: the hub announces the sha256 on its own answer (X-Linked-Etag),
// not on the storage server's it redirects to, and the token must not
// travel to another host.
func (c *Client) get(ctx context.Context, u string, have int64) (*http.Response, announced, error) {
	info := announced{total: -1}
	hc := *c.http()
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	origin, err := url.Parse(u)
	if err != nil {
		return nil, info, err
	}
	for hop := 0; ; hop++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			return nil, info, err
		}
		if c.Token != "" && req.URL.Host == origin.Host {
			req.Header.Set("Authorization", "Bearer "+c.Token)
		}
		if have > 0 {
			req.Header.Set("Range", fmt.Sprintf("bytes=%d-", have))
		}
		resp, err := hc.Do(req)
		if err != nil {
			return nil, info, err
		}
		info.note(resp.Header)
		if resp.StatusCode >= 300 && resp.StatusCode < 400 && resp.Header.Get("Location") != "" && hop < maxRedirects {
			next, err := req.URL.Parse(resp.Header.Get("Location"))
			resp.Body.Close()
			if err != nil {
				return nil, info, err
			}
			u = next.String()
			continue
		}
		if err := c.refusal(resp); err != nil {
			resp.Body.Close()
			return nil, info, err
		}
		info.length(resp)
		return resp, info, nil
	}
}

// refusal is the error of an answer that carries no file, in the words a
// person needs to act on it.
func (c *Client) refusal(resp *http.Response) error {
	switch code := resp.StatusCode; {
	case code == http.StatusOK || code == http.StatusPartialContent:
		return nil
	case (code == http.StatusUnauthorized || code == http.StatusForbidden) && c.Token == "":
		return fmt.Errorf("the hub answered %d: the model is gated or private; accept its licence on the hub and set HF_TOKEN", code)
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		return fmt.Errorf("the hub answered %d: HF_TOKEN was refused, or its account has not accepted the model's licence", code)
	case code == http.StatusRequestedRangeNotSatisfiable:
		return errRangeRefused
	case code == http.StatusNotFound:
		return fmt.Errorf("the hub answered 404: no such file at %s", resp.Request.URL)
	default:
		return fmt.Errorf("the hub answered %s", resp.Status)
	}
}

// errRangeRefused is a hub refusing to resume from the partial file's length.
var errRangeRefused = errors.New("the hub refused the range asked for")

// note reads the sha256 the hub announces: X-Linked-Etag for a file kept
// in large-file storage, else an ETag that has the shape of a sha256 (a
// small file's ETag is a git hash and is not checked).
func (a *announced) note(h http.Header) {
	if n, err := strconv.ParseInt(h.Get("X-Linked-Size"), 10, 64); err == nil && a.total < 0 {
		a.total = n
	}
	for _, v := range []string{h.Get("X-Linked-Etag"), h.Get("ETag")} {
		v = strings.Trim(strings.TrimPrefix(strings.TrimSpace(v), "W/"), `"`)
		if isSHA256(v) && a.sha256 == "" {
			a.sha256 = strings.ToLower(v)
			return
		}
	}
}

// length reads the full length from the file's own answer.
func (a *announced) length(resp *http.Response) {
	switch resp.StatusCode {
	case http.StatusOK:
		if resp.ContentLength >= 0 {
			a.total = resp.ContentLength
		}
	case http.StatusPartialContent:
		cr := resp.Header.Get("Content-Range")
		if i := strings.LastIndexByte(cr, '/'); i >= 0 {
			if n, err := strconv.ParseInt(cr[i+1:], 10, 64); err == nil {
				a.total = n
			}
		}
	}
}

func isSHA256(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
			return false
		}
	}
	return true
}

// rangeStart is the first byte of a Content-Range of "bytes a-b/n".
func rangeStart(cr string) (int64, bool) {
	rest, ok := strings.CutPrefix(cr, "bytes ")
	if !ok {
		return -1, false
	}
	a, _, ok := strings.Cut(rest, "-")
	if !ok {
		return -1, false
	}
	n, err := strconv.ParseInt(a, 10, 64)
	return n, err == nil
}

// watched reads a body, ending the download when nothing arrives for
// stall: a hub that hangs mid-file must not hold the download forever.
type watched struct {
	r      io.Reader
	ctx    context.Context
	cancel context.CancelCauseFunc
	stall  time.Duration
	onRead func(int64)
	timer  *time.Timer
}

func (w *watched) Read(p []byte) (int, error) {
	if w.timer == nil {
		w.timer = time.AfterFunc(w.stall, func() {
			w.cancel(&unreachableError{fmt.Sprintf("the hub sent nothing for %s", w.stall)})
		})
	}
	w.timer.Reset(w.stall)
	n, err := w.r.Read(p)
	if n > 0 {
		w.onRead(int64(n))
	}
	if err != nil {
		w.timer.Stop()
	}
	return n, err
}
