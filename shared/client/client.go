// Package client is the board's HTTP client for the tool servers. Every
// request carries the caller's context, and every write is attributed to the
// agent twice over (the x-actor header and a body actor field), so a route
// that reads only one of them still records the agent. A Client is safe for concurrent use.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/opsboard/opsboard/shared/httpaddr"
	"github.com/opsboard/opsboard/shared/wire"
)

// DefaultBaseURL is where the board listens unless told otherwise.
const DefaultBaseURL = "http://127.0.0.1:3000"

// maxAnswer bounds how much of an answer is read, so a foreign process on
// the port cannot make a tool server buffer without end.
const maxAnswer = 32 << 20

// Client talks to one board.
type Client struct {
	base string // scheme://host[:port][/prefix], no trailing slash
	http *http.Client
	now  func() time.Time
	keys callKeys // the Idempotency-Keys of tool calls' creates (callkey.go)
}

// Option configures a Client.
type Option func(*Client)

// WithHTTPClient replaces the default HTTP client (a 30 s timeout).
func WithHTTPClient(h *http.Client) Option {
	return func(c *Client) { c.http = h }
}

// WithClock replaces the clock that times a tool call's keys (tests).
func WithClock(now func() time.Time) Option {
	return func(c *Client) { c.now = now }
}

// New returns a client for the board at baseURL (DefaultBaseURL when empty).
func New(baseURL string, opts ...Option) (*Client, error) {
	base, err := httpaddr.Base("board address", baseURL, DefaultBaseURL)
	if err != nil {
		return nil, err
	}
	c := &Client{
		base: base,
		// The timeout only backs up callers whose context has no deadline:
		// the board answers in milliseconds when it is healthy.
		http: &http.Client{Timeout: 30 * time.Second},
		now:  time.Now,
	}
	for _, o := range opts {
		o(c)
	}
	return c, nil
}

// BaseURL is the board address this client calls.
func (c *Client) BaseURL() string { return c.base }

// BoardError is a refusal from the board: a 4xx or 5xx with its { error } text.
type BoardError struct {
	Status  int
	Method  string
	Path    string
	Message string // the board's own words, verbatim
	// HumanChange is set when the board refused an agent write that would
	// revert the person's recent change: an answer the agent acts on (by
	// proposing instead), not a failure.
	HumanChange *wire.HumanChange
}

// Error is the board's message verbatim, so the agent reads what the board
// said (for a 5xx, which the board should never send, the status is added).
func (e *BoardError) Error() string {
	if e.Status >= 500 {
		return fmt.Sprintf("the board failed with status %d on %s %s: %s", e.Status, e.Method, e.Path, e.Message)
	}
	return e.Message
}

// HumanChangeOf is the person's change an agent write was refused over, or
// nil when err is not that refusal.
func HumanChangeOf(err error) *wire.HumanChange {
	var be *BoardError
	if errors.As(err, &be) {
		return be.HumanChange
	}
	return nil
}

// Outcome is how a tool presents the board's refusal to revert the
// person's recent change: as an answer the model acts on (propose the
// change instead), not as a failure. ok is false for every other error.
func (e *BoardError) Outcome() (text string, ok bool) {
	if e.HumanChange == nil {
		return "", false
	}
	hc := e.HumanChange
	value := ""
	if len(hc.Value) > 0 && string(hc.Value) != "null" {
		// The value that stands, so the agent need not read the record again.
		value = " = " + truncate(string(hc.Value), 200)
	}
	return fmt.Sprintf("Not changed, the person's change stands (field %s%s, changed by the %s at %s).", hc.Field, value, hc.Actor, hc.TS), true
}

// NotFound reports whether err is the board's 404.
func NotFound(err error) bool {
	var be *BoardError
	return errors.As(err, &be) && be.Status == http.StatusNotFound
}

// UnreachableError means no board answered at the address.
type UnreachableError struct {
	BaseURL string
	Err     error
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("the board is not running at %s (%v). Start it with `make run` in the opsboard repository (or run bin/board), or set CRM_BASE_URL to the address of the running board, then retry", e.BaseURL, rootCause(e.Err))
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// rootCause trims the url.Error wrapping, which repeats the method and URL.
func rootCause(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// do sends one request. A GET sends no body; every other method sends a JSON
// object body with actor "agent" (just {"actor":"agent"} when body is nil).
// out, when not nil, receives the decoded answer.
func (c *Client) do(ctx context.Context, method, path string, query url.Values, body, out any) error {
	if method == http.MethodGet || method == http.MethodHead {
		return c.send(ctx, method, path, query, nil, "", out)
	}
	data, err := agentBody(body)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	return c.send(ctx, method, path, query, data, "", out)
}

// create is do for a POST that makes a record: under a tool call (WithCall)
// it is sent with the call's Idempotency-Key.
func (c *Client) create(ctx context.Context, path string, body, out any) error {
	data, err := agentBody(body)
	if err != nil {
		return fmt.Errorf("POST %s: %w", path, err)
	}
	return c.send(ctx, http.MethodPost, path, nil, data, c.keys.key(ctx, c.now(), path, data), out)
}

// readPost sends a POST that only reads (a search): its body is sent as
// given, with no actor, because a read has nothing to attribute.
func (c *Client) readPost(ctx context.Context, path string, body, out any) error {
	data, err := json.Marshal(body)
	if err != nil {
		return fmt.Errorf("POST %s: encode body: %w", path, err)
	}
	return c.send(ctx, http.MethodPost, path, nil, data, "", out)
}

// send performs one request; a nil body sends none, an empty key no
// Idempotency-Key.
func (c *Client) send(ctx context.Context, method, path string, query url.Values, body []byte, key string, out any) error {
	var rd io.Reader
	write := body != nil
	if write {
		rd = bytes.NewReader(body)
	}
	target := c.base + path
	if len(query) > 0 {
		target += "?" + query.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, method, target, rd)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	req.Header.Set("x-actor", string(wire.ActorAgent))
	req.Header.Set("Accept", "application/json")
	if write {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("%s %s: %w", method, path, ctx.Err())
		}
		return c.transportError(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("%s %s: %w", method, path, ctx.Err())
		}
		return fmt.Errorf("read the board's answer to %s %s: %w", method, path, err)
	}
	if resp.StatusCode >= 400 {
		be := &BoardError{Status: resp.StatusCode, Method: method, Path: path, Message: errorText(resp.StatusCode, data)}
		var reply wire.ErrorReply
		if json.Unmarshal(data, &reply) == nil {
			be.HumanChange = reply.HumanChange
		}
		return be
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("the service at %s did not answer %s %s like the board (%v): is CRM_BASE_URL pointing at the board?", c.base, method, path, err)
	}
	if resp.Header.Get("Idempotent-Replayed") == "true" {
		markExisting(out)
	}
	return nil
}

// markExisting sets Existing on a create's answer the board replayed for a
// repeated Idempotency-Key: the record was made by an earlier try, and the
// agent reads it as already there, as it reads the board's own dedupe.
func markExisting(out any) {
	v := reflect.ValueOf(out)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return
	}
	if f := v.Elem().FieldByName("Existing"); f.IsValid() && f.CanSet() && f.Kind() == reflect.Bool {
		f.SetBool(true)
	}
}

// transportError tells "nothing listens there" from a failure mid-request;
// both say where the board was expected and how to start it.
func (c *Client) transportError(err error) error {
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return &UnreachableError{BaseURL: c.base, Err: err}
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return &UnreachableError{BaseURL: c.base, Err: err}
	}
	return fmt.Errorf("the request to the board at %s failed (%v): is it running? Start it with `make run` and retry: %w", c.base, rootCause(err), err)
}

// errorText is the board's { error } text, or the raw body when the answer
// is not in that shape (a proxy or a foreign process on the port).
func errorText(status int, data []byte) string {
	var e wire.ErrorReply
	if json.Unmarshal(data, &e) == nil && e.Error != "" {
		return e.Error
	}
	text := strings.TrimSpace(string(data))
	if len(text) > 300 {
		text = text[:300] + "..."
	}
	if text == "" {
		text = http.StatusText(status)
	}
	return fmt.Sprintf("status %d: %s", status, text)
}

// agentBody encodes body as a JSON object and sets actor to agent.
func agentBody(body any) ([]byte, error) {
	fields := map[string]json.RawMessage{}
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return nil, fmt.Errorf("encode body: %w", err)
		}
		if err := json.Unmarshal(data, &fields); err != nil {
			return nil, fmt.Errorf("a write body must be a JSON object: %w", err)
		}
		if fields == nil { // the body encoded as null
			fields = map[string]json.RawMessage{}
		}
	}
	fields["actor"] = json.RawMessage(`"` + wire.ActorAgent + `"`)
	return json.Marshal(fields)
}

// seg escapes one path segment (an id).
func seg(id string) string { return url.PathEscape(id) }

// truncate cuts s to at most n bytes on a rune boundary, marking the cut.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
