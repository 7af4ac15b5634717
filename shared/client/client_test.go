package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/opsboard/opsboard/shared/client"
	"github.com/opsboard/opsboard/shared/wire"
)

// seen is one request as the fake board received it.
type seen struct {
	Method, Path, Query, Actor, ContentType string
	Body                                    map[string]any
}

// fakeBoard records every request and answers with answer(r).
func fakeBoard(t *testing.T, answer func(r *http.Request) (int, string)) (*client.Client, func() []seen) {
	t.Helper()
	var mu sync.Mutex
	var log []seen
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		s := seen{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Actor: r.Header.Get("x-actor"), ContentType: r.Header.Get("Content-Type")}
		if len(data) > 0 {
			if err := json.Unmarshal(data, &s.Body); err != nil {
				t.Errorf("%s %s: body is not a JSON object: %s", r.Method, r.URL.Path, data)
			}
		}
		mu.Lock()
		log = append(log, s)
		mu.Unlock()
		code, body := answer(r)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	return c, func() []seen {
		mu.Lock()
		defer mu.Unlock()
		return append([]seen(nil), log...)
	}
}

func TestEveryWriteCarriesTheAgentTwice(t *testing.T) {
	c, requests := fakeBoard(t, func(*http.Request) (int, string) { return 200, `{"version":1}` })
	ctx := context.Background()
	writes := []func() error{
		func() error { _, err := c.CreateCase(ctx, wire.CaseCreate{Title: "x", Dedupe: true}); return err },
		func() error {
			_, err := c.PatchCase(ctx, "CASE-1", wire.CasePatch{Status: wire.Some("done")})
			return err
		},
		func() error { _, err := c.ArchiveCase(ctx, "CASE-1"); return err },
		func() error { _, err := c.DeleteCase(ctx, "CASE-1"); return err },
		func() error { _, err := c.RestoreCase(ctx, "CASE-1"); return err },
		func() error { _, err := c.DeleteTask(ctx, "CASE-1", "CASE-1-T1"); return err },
		func() error { _, err := c.DeleteEvent(ctx, "EVT-1"); return err },
		func() error { _, err := c.DeleteReminder(ctx, "REM-1"); return err },
		func() error { _, err := c.Reject(ctx, "PROP-1"); return err },
		func() error { _, err := c.Approve(ctx, "PROP-1", wire.ProposalDecision{}); return err },
		func() error { _, _, err := c.UninstallBundle(ctx, "sales", false); return err },
		func() error { _, _, err := c.SetPrefs(ctx, map[string]any{"view": "strategy"}); return err },
		func() error {
			_, err := c.AddMessages(ctx, []wire.MessageCreate{{MessageInput: wire.MessageInput{Body: "b"}}})
			return err
		},
	}
	for _, w := range writes {
		if err := w(); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range requests() {
		if r.Actor != "agent" || r.Body["actor"] != "agent" || r.ContentType != "application/json" {
			t.Errorf("%s %s: x-actor %q, body actor %v, content type %q", r.Method, r.Path, r.Actor, r.Body["actor"], r.ContentType)
		}
	}
	got := requests()
	if got[3].Query != "hard=1" || got[10].Query != "scrub=0" {
		t.Errorf("queries: delete %q, uninstall %q", got[3].Query, got[10].Query)
	}
	if got[0].Body["dedupe"] != true || got[1].Body["status"] != "done" || got[11].Body["view"] != "strategy" {
		t.Errorf("bodies lost fields: %+v %+v %+v", got[0].Body, got[1].Body, got[11].Body)
	}
	if batch, _ := got[12].Body["messages"].([]any); got[12].Path != "/api/messages" || len(batch) != 1 {
		t.Errorf("a batch of messages sent %s %+v", got[12].Path, got[12].Body)
	}
}

func TestReadsSendNoBody(t *testing.T) {
	c, requests := fakeBoard(t, func(*http.Request) (int, string) { return 200, `{"cases":[],"tree":[]}` })
	if _, err := c.Cases(context.Background(), client.CaseFilter{Status: "todo", IncludeArchived: true}); err != nil {
		t.Fatal(err)
	}
	r := requests()[0]
	if r.Method != "GET" || r.Body != nil || r.Query != "includeArchived=1&status=todo" {
		t.Errorf("read: %+v", r)
	}
}

func TestBoardRefusalIsVerbatim(t *testing.T) {
	c, _ := fakeBoard(t, func(*http.Request) (int, string) {
		return 400, `{"error":"unknown label id(s) nope; valid: blocked, waiting-on"}`
	})
	_, err := c.PatchCase(context.Background(), "CASE-1", wire.CasePatch{Labels: wire.Some([]string{"nope"})})
	if err == nil || err.Error() != "unknown label id(s) nope; valid: blocked, waiting-on" {
		t.Fatalf("err %v, want the board's text verbatim", err)
	}
	var be *client.BoardError
	if !errors.As(err, &be) || be.Status != 400 {
		t.Errorf("err %T %+v, want a BoardError with status 400", err, err)
	}
}

func TestNotFound(t *testing.T) {
	c, _ := fakeBoard(t, func(*http.Request) (int, string) { return 404, `{"error":"case CASE-9 not found"}` })
	_, err := c.Case(context.Background(), "CASE-9")
	if !client.NotFound(err) || err.Error() != "case CASE-9 not found" {
		t.Errorf("err %v", err)
	}
}

func TestUnreachableBoardSaysHowToStartIt(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	c, err := client.New("http://" + addr)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Tree(context.Background(), client.TreeFilter{})
	var ue *client.UnreachableError
	if !errors.As(err, &ue) {
		t.Fatalf("err %T %v, want UnreachableError", err, err)
	}
	for _, want := range []string{"the board is not running at http://" + addr, "make run", "CRM_BASE_URL"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}
}

func TestForeignServiceIsNamed(t *testing.T) {
	c, _ := fakeBoard(t, func(*http.Request) (int, string) { return 200, `<html>hello</html>` })
	_, err := c.Labels(context.Background())
	if err == nil || !strings.Contains(err.Error(), "did not answer") {
		t.Errorf("err %v", err)
	}
}

func TestCancelledContextStopsTheRequest(t *testing.T) {
	release := make(chan struct{})
	arrived := make(chan struct{}, 1)
	c, _ := fakeBoard(t, func(r *http.Request) (int, string) {
		arrived <- struct{}{}
		select {
		case <-r.Context().Done():
		case <-release:
		}
		return 200, `{}`
	})
	defer close(release)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := c.Labels(ctx)
		errc <- err
	}()
	<-arrived
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("err %v, want context.Canceled", err)
	}
}

func TestConcurrentUse(t *testing.T) {
	c, requests := fakeBoard(t, func(*http.Request) (int, string) { return 200, `{"note":{"id":"CASE-1-N1"},"version":2}` })
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.AddNote(context.Background(), "CASE-1", "hi"); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if n := len(requests()); n != 20 {
		t.Errorf("%d requests, want 20", n)
	}
}

func TestNewRejectsABadAddress(t *testing.T) {
	for _, bad := range []string{"127.0.0.1:3000", "ftp://x", "http://"} {
		if _, err := client.New(bad); err == nil {
			t.Errorf("New(%q) accepted", bad)
		}
	}
	c, err := client.New("")
	if err != nil || c.BaseURL() != client.DefaultBaseURL {
		t.Errorf("New(\"\"): %v %v", c, err)
	}
}
