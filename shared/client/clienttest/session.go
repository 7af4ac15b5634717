package clienttest

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// Session is a real MCP client session with a running tool server process.
type Session struct {
	Proc   *Process
	Client *mcpclient.Client
}

// StartSession runs the tool server binary bin over stdio against the board
// at boardURL and initializes an MCP session with it. The server must name
// itself as want does (and give want's version, when want has one).
func StartSession(t testing.TB, bin, boardURL string, want mcp.Implementation) *Session {
	t.Helper()
	return StartSessionWith(t, bin, []string{"CRM_BASE_URL=" + boardURL}, want)
}

// StartSessionWith is StartSession with the process's extra environment
// entries and arguments given in full (a toolset, --read-only).
func StartSessionWith(t testing.TB, bin string, env []string, want mcp.Implementation, args ...string) *Session {
	t.Helper()
	p := StartProcess(t, bin, env, args...)
	return connect(t, p, mcpclient.NewClient(transport.NewIO(p.Stdout, p.Stdin, nil)), want)
}

// ServeHTTP runs the tool server binary bin with --http on a free port
// against the board at boardURL and initializes an MCP session with it over
// streamable HTTP, checking want as StartSession does. The server is
// interrupted when the test ends.
func ServeHTTP(t testing.TB, bin, boardURL string, want mcp.Implementation) *Session {
	t.Helper()
	addr := FreeAddr(t)
	p := StartProcess(t, bin, []string{"CRM_BASE_URL=" + boardURL}, "--http", addr)
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
	return connect(t, p, c, want)
}

// connect starts the client and initializes the session.
func connect(t testing.TB, p *Process, c *mcpclient.Client, want mcp.Implementation) *Session {
	t.Helper()
	ctx := Context(t)
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
	if got := res.ServerInfo; got.Name != want.Name || (want.Version != "" && got.Version != want.Version) {
		t.Fatalf("server info %+v, want %+v", got, want)
	}
	return &Session{Proc: p, Client: c}
}

// waitListening polls until the server accepts connections (or exits).
func waitListening(t testing.TB, url string, p *Process) {
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

// Tools lists the server's tools.
func (s *Session) Tools(t testing.TB) []mcp.Tool {
	t.Helper()
	res, err := s.Client.ListTools(Context(t), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatalf("list tools: %v", err)
	}
	return res.Tools
}

// ListBytes lists the server's tools and returns them with the size in
// bytes of the tools/list result as it came over the wire (stdio
// sessions only: it reads the answer's line from the process's stdout).
func (s *Session) ListBytes(t testing.TB) ([]mcp.Tool, int) {
	t.Helper()
	before := len(s.Proc.StdoutLines())
	tools := s.Tools(t)
	// The record of stdout may trail the client by a moment.
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		for _, line := range s.Proc.StdoutLines()[before:] {
			var msg struct {
				Result json.RawMessage `json:"result"`
			}
			var result struct {
				Tools json.RawMessage `json:"tools"`
			}
			if json.Unmarshal([]byte(line), &msg) == nil && json.Unmarshal(msg.Result, &result) == nil && result.Tools != nil {
				return tools, len(msg.Result)
			}
		}
	}
	t.Fatal("no tools/list answer on stdout")
	return nil, 0
}

// Call invokes a tool and returns its text and whether it is a tool error.
func (s *Session) Call(t testing.TB, name string, args map[string]any) (string, bool) {
	t.Helper()
	text, isErr, err := s.Try(Context(t), name, args)
	if err != nil {
		t.Fatalf("%s: protocol error: %v\nstderr:\n%s", name, err, s.Proc.Stderr())
	}
	return text, isErr
}

// Try is Call for goroutines other than the test's: it returns the protocol
// error instead of failing the test.
func (s *Session) Try(ctx context.Context, name string, args map[string]any) (string, bool, error) {
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := s.Client.CallTool(ctx, req)
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

// OK calls a tool that must succeed with an answer containing every want.
func (s *Session) OK(t testing.TB, name string, args map[string]any, want ...string) string {
	t.Helper()
	text, isErr := s.Call(t, name, args)
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

// Refused calls a tool that must fail with a message containing every want.
func (s *Session) Refused(t testing.TB, name string, args map[string]any, want ...string) string {
	t.Helper()
	text, isErr := s.Call(t, name, args)
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

// FirstID is the first id with the given prefix (CASE, REM, ...) in text.
func FirstID(t testing.TB, text, prefix string) string {
	t.Helper()
	id := regexp.MustCompile(`\b` + prefix + `-[0-9]+\b`).FindString(text)
	if id == "" {
		t.Fatalf("no %s id in:\n%s", prefix, text)
	}
	return id
}

// SendNoise sends what makes servers chatty outside the protocol: a call of
// a tool that does not exist (which must be refused) and a line that is not
// JSON.
func (s *Session) SendNoise(t testing.TB) {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = "no_such_tool"
	if _, err := s.Client.CallTool(Context(t), req); err == nil {
		t.Error("an unknown tool was answered without an error")
	}
	if _, err := s.Proc.Stdin.Write([]byte("this is not json\n")); err != nil {
		t.Fatal(err)
	}
}

// CheckStdout checks that the server wrote at least minLines lines to
// stdout so far and that every one is JSON-RPC.
func (s *Session) CheckStdout(t testing.TB, minLines int) {
	t.Helper()
	lines := s.Proc.StdoutLines()
	if len(lines) < minLines {
		t.Fatalf("only %d stdout lines: %q", len(lines), lines)
	}
	if err := CheckJSONRPC(lines); err != nil {
		t.Error(err)
	}
}
