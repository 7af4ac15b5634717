// Package guardclient is the typed HTTP client of the guard sidecar, for
// the agent's guard bridge, the board's guard proxy routes and the mail
// ingest. Every call takes the caller's context and is bounded by the
// client's timeout (4,000 ms unless told otherwise).
//
// A failure is one of two kinds, so callers can fail closed without
// guessing: an *UnavailableError when the sidecar gave no answer that can
// be trusted (nothing listens, a timeout, a 5xx or other non-2xx, non-4xx
// status, a body that is not the reply the route promises), and a
// *RefusedError when the sidecar answered 4xx with its own words. A reply
// that decodes but breaks the contract (a scan without a verdict, a
// classify result per text missing) is unavailable too: nobody may read a
// clean verdict into a reply that does not carry one. A Client is safe for
// concurrent use.
package guardclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/opsboard/opsboard/shared/httpaddr"
	"github.com/opsboard/opsboard/shared/wire"
)

// DefaultBaseURL is where the guard sidecar listens unless told otherwise.
const DefaultBaseURL = "http://127.0.0.1:8009"

// DefaultTimeout bounds every call: the agent's bridge must answer (with
// an UNAVAILABLE verdict at worst) rather than hang on a stuck sidecar.
const DefaultTimeout = wire.GuardTimeout

// maxAnswer bounds how much of a reply is read, so a foreign process on the
// port cannot make a caller buffer without end.
const maxAnswer = 32 << 20

// Client talks to one guard sidecar.
type Client struct {
	base string // scheme://host[:port][/prefix], no trailing slash
	http *http.Client
}

// Option configures a Client.
type Option func(*Client)

// WithTimeout sets the bound on each call (DefaultTimeout when not set).
func WithTimeout(d time.Duration) Option {
	return func(c *Client) { c.http = &http.Client{Timeout: d} }
}

// WithHTTPClient replaces the HTTP client; its Timeout is the bound on
// each call.
func WithHTTPClient(h *http.Client) Option {
	return func(c *Client) { c.http = h }
}

// New returns a client for the sidecar at baseURL (DefaultBaseURL when
// empty).
func New(baseURL string, opts ...Option) (*Client, error) {
	base, err := httpaddr.Base("guard sidecar address", baseURL, DefaultBaseURL)
	if err != nil {
		return nil, err
	}
	c := &Client{
		base: base,
		http: &http.Client{Timeout: DefaultTimeout},
	}
	for _, o := range opts {
		o(c)
	}
	if c.http == nil {
		return nil, errors.New("guard client: nil HTTP client")
	}
	return c, nil
}

// BaseURL is the sidecar address this client calls.
func (c *Client) BaseURL() string { return c.base }

// Timeout is the bound on each call (0: none beyond the caller's context).
func (c *Client) Timeout() time.Duration { return c.http.Timeout }

// UnavailableError means the sidecar gave no answer that can be trusted:
// nothing listens at the address, the call timed out, the status was not
// 2xx (and not a 4xx refusal), or the body was not the promised reply.
type UnavailableError struct {
	BaseURL, Method, Path string
	Status                int // the HTTP status when one came back, else 0
	Reason                string
	Err                   error // the underlying failure, when there is one
}

func (e *UnavailableError) Error() string {
	return fmt.Sprintf("the guard sidecar at %s is unavailable (%s %s: %s)", e.BaseURL, e.Method, e.Path, e.Reason)
}

func (e *UnavailableError) Unwrap() error { return e.Err }

// RefusedError is the sidecar's 4xx: it understood the request and said no,
// in its own words (such as a field it could not accept).
type RefusedError struct {
	Status       int
	Method, Path string
	Message      string // the sidecar's { error } text, verbatim
}

func (e *RefusedError) Error() string { return e.Message }

// Unavailable reports whether err means the sidecar could not answer.
func Unavailable(err error) bool {
	var ue *UnavailableError
	return errors.As(err, &ue)
}

// Refused reports whether err is a 4xx refusal from the sidecar, and
// returns it.
func Refused(err error) (*RefusedError, bool) {
	var re *RefusedError
	ok := errors.As(err, &re)
	return re, ok
}

// Scan screens one email (POST /scan). The reply carries a verdict of
// clean or flagged that agrees with its flagged field, or the call fails
// as unavailable.
func (c *Client) Scan(ctx context.Context, in wire.ScanRequest) (wire.ScanReply, error) {
	var out wire.ScanReply
	err := c.call(ctx, http.MethodPost, "/scan", in, &out, func() string { return checkScan(out) })
	return out, err
}

// Classify labels each of texts (POST /classify). The reply holds exactly
// one result per text, in the order given, or the call fails as
// unavailable.
func (c *Client) Classify(ctx context.Context, texts []string) (wire.ClassifyReply, error) {
	var out wire.ClassifyReply
	if texts == nil {
		texts = []string{}
	}
	err := c.call(ctx, http.MethodPost, "/classify", wire.ClassifyRequest{Texts: texts}, &out, func() string {
		return checkClassify(&out, len(texts))
	})
	return out, err
}

// Config reads the guard's configuration (GET /config).
func (c *Client) Config(ctx context.Context) (wire.GuardConfig, error) {
	var out wire.GuardConfig
	err := c.call(ctx, http.MethodGet, "/config", nil, &out, func() string { return checkConfig(out) })
	return out, err
}

// SetConfig changes the enable flag and/or the retention days (POST
// /config) and returns the configuration as it now stands.
func (c *Client) SetConfig(ctx context.Context, p wire.GuardConfigPatch) (wire.GuardConfig, error) {
	var out wire.GuardConfig
	err := c.call(ctx, http.MethodPost, "/config", p, &out, func() string { return checkConfig(out) })
	return out, err
}

// Models reads the model catalog (GET /models).
func (c *Client) Models(ctx context.Context) (wire.GuardModels, error) {
	var out wire.GuardModels
	err := c.call(ctx, http.MethodGet, "/models", nil, &out, nil)
	return out, err
}

// Health reads GET /healthz.
func (c *Client) Health(ctx context.Context) (wire.GuardHealth, error) {
	var out wire.GuardHealth
	err := c.call(ctx, http.MethodGet, "/healthz", nil, &out, nil)
	return out, err
}

// Stats reads GET /stats.
func (c *Client) Stats(ctx context.Context) (wire.GuardStats, error) {
	var out wire.GuardStats
	err := c.call(ctx, http.MethodGet, "/stats", nil, &out, nil)
	return out, err
}

// Trust lists the senders on the trust list (GET /trust).
func (c *Client) Trust(ctx context.Context) (wire.TrustList, error) {
	var out wire.TrustList
	err := c.call(ctx, http.MethodGet, "/trust", nil, &out, nil)
	return out, err
}

// UpsertTrust sets a sender's tier (POST /trust); with IfAbsent it writes
// only when the sender has no record. The reply is the record as it now
// stands.
func (c *Client) UpsertTrust(ctx context.Context, in wire.TrustUpsert) (wire.TrustReply, error) {
	var out wire.TrustReply
	err := c.call(ctx, http.MethodPost, "/trust", in, &out, func() string {
		if why := checkTrust(out.Record); why != "" {
			return "the reply's " + why
		}
		return ""
	})
	return out, err
}

// DeleteTrust removes a sender from the trust list (DELETE /trust/{email}),
// which makes them unknown again.
func (c *Client) DeleteTrust(ctx context.Context, email string) error {
	return c.call(ctx, http.MethodDelete, "/trust/"+url.PathEscape(email), nil, nil, nil)
}

// Quarantine lists the quarantine records (GET /quarantine).
func (c *Client) Quarantine(ctx context.Context) (wire.QuarantineList, error) {
	var out wire.QuarantineList
	err := c.call(ctx, http.MethodGet, "/quarantine", nil, &out, nil)
	return out, err
}

// PatchQuarantine releases or dismisses a record, or marks it replayed
// (PATCH /quarantine/{id}), and returns the record as it now stands.
func (c *Client) PatchQuarantine(ctx context.Context, id string, p wire.QuarantinePatch) (wire.QuarantineRecord, error) {
	var out wire.QuarantineRecord
	err := c.call(ctx, http.MethodPatch, "/quarantine/"+url.PathEscape(id), p, &out, func() string {
		if out.ID == "" || out.Status == "" {
			return "the reply is not a quarantine record (no id or status)"
		}
		return ""
	})
	return out, err
}

// call sends one request with body (when not nil) as JSON and decodes a
// 2xx reply into out (when not nil); check, when not nil, looks at the
// decoded reply and names what breaks the contract ("" when nothing does).
func (c *Client) call(ctx context.Context, method, path string, body, out any, check func() string) error {
	unavailable := func(status int, err error, format string, v ...any) error {
		return &UnavailableError{BaseURL: c.base, Method: method, Path: path, Status: status, Reason: fmt.Sprintf(format, v...), Err: err}
	}
	var rd io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("%s %s: encode body: %w", method, path, err)
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return unavailable(0, err, "%s", transportReason(err))
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer+1))
	if err != nil {
		return unavailable(resp.StatusCode, err, "reading the reply: %s", transportReason(err))
	}
	switch {
	case resp.StatusCode >= 400 && resp.StatusCode < 500:
		return &RefusedError{Status: resp.StatusCode, Method: method, Path: path, Message: errorText(resp.StatusCode, data)}
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		return unavailable(resp.StatusCode, nil, "%s", errorText(resp.StatusCode, data))
	case len(data) > maxAnswer:
		return unavailable(resp.StatusCode, nil, "the reply is larger than %d bytes", maxAnswer)
	}
	if out == nil {
		return nil
	}
	// A JSON null or array would decode into a struct without complaint and
	// leave every field zero: only an object is a reply.
	if trimmed := bytes.TrimSpace(data); len(trimmed) == 0 || trimmed[0] != '{' {
		return unavailable(resp.StatusCode, nil, "the reply is not a JSON object: %s", clip(data))
	}
	if err := json.Unmarshal(data, out); err != nil {
		return unavailable(resp.StatusCode, err, "the reply does not decode (%v): %s", err, clip(data))
	}
	if check != nil {
		if why := check(); why != "" {
			return unavailable(resp.StatusCode, nil, "%s: %s", why, clip(data))
		}
	}
	return nil
}

// transportReason says in a few words why no reply came back.
func transportReason(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		if ue.Timeout() {
			return "no reply within the timeout"
		}
		err = ue.Err
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "no reply within the timeout"
	}
	if errors.Is(err, context.Canceled) {
		return "the call was cancelled"
	}
	return err.Error()
}

// errorText is the sidecar's { error } text, or the start of the raw body
// when the reply is not in that shape (a proxy or a foreign process).
func errorText(status int, data []byte) string {
	var e struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(data, &e) == nil && e.Error != "" {
		return e.Error
	}
	text := clip(data)
	if text == "" {
		text = http.StatusText(status)
	}
	return fmt.Sprintf("status %d: %s", status, text)
}

func clip(data []byte) string {
	text := strings.TrimSpace(string(data))
	if len(text) > 200 {
		text = text[:200] + "..."
	}
	return text
}
