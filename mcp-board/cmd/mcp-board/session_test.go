package main

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	mcpclient "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/opsboard/opsboard/shared/client/clienttest"
)

// session is a real MCP client session over stdio with a real server process.
type session struct {
	proc *clienttest.Process
	c    *mcpclient.Client
}

// startSession runs the server binary against the board at boardURL and
// initializes an MCP session with it.
func startSession(t *testing.T, bin, boardURL string) *session {
	t.Helper()
	p := clienttest.StartProcess(t, bin, []string{"CRM_BASE_URL=" + boardURL})
	c := mcpclient.NewClient(transport.NewIO(p.Stdout, p.Stdin, nil))
	ctx := clienttest.Context(t)
	if err := c.Start(ctx); err != nil {
		t.Fatalf("start client: %v\nstderr:\n%s", err, p.Stderr())
	}
	t.Cleanup(func() { _ = c.Close() })
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "e2e", Version: "1"}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	res, err := c.Initialize(ctx, init)
	if err != nil {
		t.Fatalf("initialize: %v\nstderr:\n%s", err, p.Stderr())
	}
	if res.ServerInfo.Name != "mcp-board" || res.ServerInfo.Version != "3.3.0" {
		t.Fatalf("server info %+v, want mcp-board 3.3.0", res.ServerInfo)
	}
	return &session{proc: p, c: c}
}

// tools lists the server's tools.
func (s *session) tools(t *testing.T) []mcp.Tool {
	t.Helper()
	res, err := s.c.ListTools(clienttest.Context(t), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatalf("list tools: %v", err)
	}
	return res.Tools
}

// call invokes a tool and returns its text and whether it is a tool error.
func (s *session) call(t *testing.T, name string, args map[string]any) (string, bool) {
	t.Helper()
	text, isErr, err := s.try(clienttest.Context(t), name, args)
	if err != nil {
		t.Fatalf("%s: protocol error: %v\nstderr:\n%s", name, err, s.proc.Stderr())
	}
	return text, isErr
}

// try is call for goroutines other than the test's: it returns the protocol
// error instead of failing the test.
func (s *session) try(ctx context.Context, name string, args map[string]any) (string, bool, error) {
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := s.c.CallTool(ctx, req)
	if err != nil {
		return "", false, err
	}
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n"), res.IsError, nil
}

// ok calls a tool that must succeed with an answer containing every want.
func (s *session) ok(t *testing.T, name string, args map[string]any, want ...string) string {
	t.Helper()
	text, isErr := s.call(t, name, args)
	if isErr {
		t.Fatalf("%s(%s) failed: %s", name, show(args), text)
	}
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("%s(%s): answer lacks %q:\n%s", name, show(args), w, text)
		}
	}
	return text
}

// refused calls a tool that must fail with a message containing every want.
func (s *session) refused(t *testing.T, name string, args map[string]any, want ...string) string {
	t.Helper()
	text, isErr := s.call(t, name, args)
	if !isErr {
		t.Fatalf("%s(%s) succeeded, want a tool error: %s", name, show(args), text)
	}
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("%s(%s): error lacks %q:\n%s", name, show(args), w, text)
		}
	}
	return text
}

func show(args map[string]any) string {
	b, _ := json.Marshal(args)
	return string(b)
}

// firstID is the first id with the given prefix (CASE, REM, ...) in text.
func firstID(t *testing.T, text, prefix string) string {
	t.Helper()
	id := regexp.MustCompile(`\b` + prefix + `-[0-9]+\b`).FindString(text)
	if id == "" {
		t.Fatalf("no %s id in:\n%s", prefix, text)
	}
	return id
}
