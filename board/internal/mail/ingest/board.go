package ingest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/opsboard/opsboard/shared/client"
	"github.com/opsboard/opsboard/shared/wire"
)

// Board is the running board, called over its HTTP API as the system.
type Board struct {
	base  string
	http  *http.Client
	pages *client.Client // the vault's reads; nil when base is not a usable address
}

// NewBoard returns a client of the board at addr ("127.0.0.1:3000" or a URL).
func NewBoard(addr string) *Board {
	base := strings.TrimRight(addr, "/")
	if !strings.Contains(base, "://") {
		base = "http://" + base
	}
	b := &Board{base: base, http: &http.Client{Timeout: 30 * time.Second}}
	b.pages, _ = client.New(base, client.WithHTTPClient(b.http))
	return b
}

// UnreachableError says the board did not answer at all.
type UnreachableError struct{ Err error }

func (e *UnreachableError) Error() string { return "the board is unreachable: " + e.Err.Error() }
func (e *UnreachableError) Unwrap() error { return e.Err }

// StatusError is a refusal by the board: its status code and its words.
type StatusError struct {
	Code int
	Msg  string
}

func (e *StatusError) Error() string { return e.Msg }

func (b *Board) call(ctx context.Context, method, path string, in, out any) (int, error) {
	var body io.Reader
	if in != nil {
		data, err := json.Marshal(in)
		if err != nil {
			return 0, fmt.Errorf("encode %s %s: %w", method, path, err)
		}
		body = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(ctx, method, b.base+path, body)
	if err != nil {
		return 0, fmt.Errorf("%s %s: %w", method, path, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("x-actor", string(wire.ActorSystem))
	resp, err := b.http.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
		return 0, &UnreachableError{Err: err}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 256<<20))
	if err != nil {
		return resp.StatusCode, fmt.Errorf("%s %s: read answer: %w", method, path, err)
	}
	if resp.StatusCode >= 300 {
		var e struct {
			Error string `json:"error"`
		}
		_ = json.Unmarshal(data, &e)
		if e.Error == "" {
			e.Error = strings.TrimSpace(string(data))
		}
		return resp.StatusCode, &StatusError{Code: resp.StatusCode, Msg: fmt.Sprintf("%s %s: %d %s", method, path, resp.StatusCode, e.Error)}
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return resp.StatusCode, fmt.Errorf("%s %s: decode answer: %w", method, path, err)
		}
	}
	return resp.StatusCode, nil
}

// AddMessage creates a message (linked as in says); existing reports that
// the board already held the same mail and wrote nothing.
func (b *Board) AddMessage(ctx context.Context, in wire.MessageCreate) (m wire.Message, existing bool, err error) {
	var out wire.MessageReply
	if _, err := b.call(ctx, http.MethodPost, "/api/messages", in, &out); err != nil {
		return m, false, err
	}
	return out.Message, out.Existing, nil
}

// AddMessages creates up to wire.MaxMessageBatch messages in one write;
// the reply has one result per message, in order. One message the board
// refuses refuses them all (a *StatusError naming its index).
func (b *Board) AddMessages(ctx context.Context, in []wire.MessageCreate) (wire.MessageBatchReply, error) {
	var out wire.MessageBatchReply
	_, err := b.call(ctx, http.MethodPost, "/api/messages", wire.MessageBatch{Messages: in}, &out)
	return out, err
}

// Messages lists every message on the board.
func (b *Board) Messages(ctx context.Context) ([]wire.Message, error) {
	var out wire.MessageList
	_, err := b.call(ctx, http.MethodGet, "/api/messages", nil, &out)
	return out.Messages, err
}

// Cases lists the cases that are not archived.
func (b *Board) Cases(ctx context.Context) ([]wire.Case, error) {
	var out wire.CaseList
	_, err := b.call(ctx, http.MethodGet, "/api/cases", nil, &out)
	return out.Cases, err
}

// Reminders lists the reminders.
func (b *Board) Reminders(ctx context.Context) ([]wire.Reminder, error) {
	var out wire.ReminderList
	_, err := b.call(ctx, http.MethodGet, "/api/reminders", nil, &out)
	return out.Reminders, err
}

// RecordRun stores a run's report, shown as one system row in the feed.
func (b *Board) RecordRun(ctx context.Context, r wire.IngestRun) error {
	_, err := b.call(ctx, http.MethodPost, "/api/ingest-runs", r, nil)
	return err
}

// Prefs reads the board's preferences.
func (b *Board) Prefs(ctx context.Context) (map[string]json.RawMessage, error) {
	var out struct {
		Prefs map[string]json.RawMessage `json:"prefs"`
	}
	_, err := b.call(ctx, http.MethodGet, "/api/prefs", nil, &out)
	return out.Prefs, err
}

// PersonPages lists every person page, following nextCursor to the end.
func (b *Board) PersonPages(ctx context.Context) ([]wire.PageSummary, error) {
	if b.pages == nil {
		return nil, fmt.Errorf("the board address %q is not usable for the vault", b.base)
	}
	var out []wire.PageSummary
	f := client.PageFilter{Type: wire.PagePerson, Limit: wire.MaxPageList}
	for {
		list, err := b.pages.Pages(ctx, f)
		if err != nil {
			var un *client.UnreachableError
			if errors.As(err, &un) {
				return nil, &UnreachableError{Err: un.Err}
			}
			return nil, err
		}
		out = append(out, list.Pages...)
		if list.NextCursor == "" || list.NextCursor == f.Cursor {
			return out, nil
		}
		f.Cursor = list.NextCursor
	}
}
