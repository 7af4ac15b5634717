package main

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/opsboard/opsboard/shared/client/clienttest"
)

func TestConfig(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, tc := range []struct {
		name    string
		args    []string
		env     map[string]string
		want    config
		wantErr string
	}{
		{"stdio by default", nil, nil, config{boardURL: "http://127.0.0.1:3000"}, ""},
		{"board address from CRM_BASE_URL", nil, map[string]string{"CRM_BASE_URL": "http://127.0.0.1:3999"}, config{boardURL: "http://127.0.0.1:3999"}, ""},
		{"--http ADDR", []string{"--http", "127.0.0.1:9001"}, nil, config{boardURL: "http://127.0.0.1:3000", httpAddr: "127.0.0.1:9001"}, ""},
		{"--http=ADDR", []string{"--http=127.0.0.1:9002"}, nil, config{boardURL: "http://127.0.0.1:3000", httpAddr: "127.0.0.1:9002"}, ""},
		{"bare --http serves on the calendar's port", []string{"--http"}, nil, config{boardURL: "http://127.0.0.1:3000", httpAddr: "127.0.0.1:8003"}, ""},
		{"stray argument", []string{"serve"}, nil, config{}, "unexpected arguments"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := loadConfig(tc.args, env(tc.env))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestUnreachableBoard: with no board at the address, a tool answers with a
// tool error saying so and how to start it, and the session stays usable.
func TestUnreachableBoard(t *testing.T) {
	bin := clienttest.Build(t, ".", ".")
	addr := clienttest.FreeAddr(t)
	s := startSession(t, bin, "http://"+addr)
	s.refused(t, "list_events", nil, "the board is not running at http://"+addr, "make run")
	s.refused(t, "create_event", map[string]any{"title": "x", "date": "2030-01-01"}, "the board is not running at http://"+addr, "make run")
	if err := clienttest.CheckJSONRPC(s.proc.StdoutLines()); err != nil {
		t.Error(err)
	}
}

// TestStdoutIsOnlyProtocol sends the server what makes servers chatty (a
// garbage line, an unknown tool, bad arguments, a board error) and checks
// that every line it wrote to stdout is JSON-RPC, while its log went to
// stderr.
func TestStdoutIsOnlyProtocol(t *testing.T) {
	board := clienttest.StartBoard(t)
	bin := clienttest.Build(t, ".", ".")
	s := startSession(t, bin, board.URL)
	s.ok(t, "list_events", nil)
	s.refused(t, "get_event", map[string]any{"id": "EVT-404"}, "EVT-404")
	s.refused(t, "create_event", map[string]any{"title": 7, "date": "2030-01-01"}, "title")
	s.refused(t, "update_event", map[string]any{"id": "EVT-1", "colour": "red"}, "colour")
	req := mcp.CallToolRequest{}
	req.Params.Name = "no_such_tool"
	if _, err := s.c.CallTool(clienttest.Context(t), req); err == nil {
		t.Error("an unknown tool was answered without an error")
	}
	if _, err := s.proc.Stdin.Write([]byte("this is not json\n")); err != nil {
		t.Fatal(err)
	}
	s.ok(t, "list_events", map[string]any{"limit": 1})
	lines := s.proc.StdoutLines()
	if len(lines) < 6 {
		t.Fatalf("only %d stdout lines: %q", len(lines), lines)
	}
	if err := clienttest.CheckJSONRPC(lines); err != nil {
		t.Error(err)
	}
	if !strings.Contains(s.proc.Stderr(), "mcp-calendar.stdio") {
		t.Errorf("the startup log is not on stderr:\n%s", s.proc.Stderr())
	}
}

// TestStreamableHTTP serves the tools over streamable HTTP with --http.
func TestStreamableHTTP(t *testing.T) {
	board := clienttest.StartBoard(t)
	bin := clienttest.Build(t, ".", ".")
	addr := clienttest.FreeAddr(t)
	p := clienttest.StartProcess(t, bin, []string{"CRM_BASE_URL=" + board.URL}, "--http", addr)
	t.Cleanup(func() { // runs before the process's own cleanup, which then sees a clean exit
		if err := p.Interrupt(); err != nil {
			t.Error(err)
		}
	})
	url := "http://" + addr + "/mcp"
	waitListening(t, url, p)
	c, err := mcpclient.NewStreamableHttpClient(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	ctx := clienttest.Context(t)
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "e2e", Version: "1"}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	tools, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tools.Tools) != len(wantTools()) {
		t.Errorf("%d tools over HTTP, want %d", len(tools.Tools), len(wantTools()))
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = "create_event"
	req.Params.Arguments = map[string]any{"title": "Over HTTP", "date": "2030-03-01", "allDay": true}
	res, err := c.CallTool(ctx, req)
	if err != nil || res.IsError {
		t.Fatalf("create_event over HTTP: %v %+v", err, res)
	}
	if text := res.Content[0].(mcp.TextContent).Text; !strings.Contains(text, "2030-03-01 all day - Over HTTP") {
		t.Errorf("answer %q", text)
	}
	if lines := p.StdoutLines(); len(lines) > 0 {
		t.Errorf("the HTTP server wrote to stdout: %q", lines)
	}
}

// waitListening polls until the server accepts connections (or exits).
func waitListening(t *testing.T, url string, p *clienttest.Process) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
			return
		}
		if ctx.Err() != nil {
			t.Fatalf("%s never answered: %v\nstderr:\n%s", url, err, p.Stderr())
		}
		time.Sleep(50 * time.Millisecond)
	}
}
