package mcpserve

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	mcpclient "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/opsboard/opsboard/shared/client"
	"github.com/opsboard/opsboard/shared/client/clienttest"
	"github.com/opsboard/opsboard/shared/mcptool"
)

func ping(*client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("ping", mcp.WithDescription("Answer pong."), mcptool.ReadOnly())
	return tool, mcptool.Handle(func(context.Context, *mcptool.Args) (string, error) { return "pong", nil })
}

var sample = mcptool.Server[*client.Client]{
	Name: "mcp-sample", Version: "1.0.0",
	Toolsets: []mcptool.Toolset[*client.Client]{
		{Name: "core", Read: []mcptool.Constructor[*client.Client]{ping}},
		{Name: "extra", Read: []mcptool.Constructor[*client.Client]{ping}},
	},
	Default: []string{"core"},
}

func TestLoadConfig(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	noDefault := Command[*client.Client]{Tools: sample}
	hasDefault := Command[*client.Client]{Tools: sample, DefaultHTTPAddr: "127.0.0.1:8003"}
	for _, tc := range []struct {
		name    string
		cmd     Command[*client.Client]
		args    []string
		env     map[string]string
		want    Config
		wantErr string
	}{
		{"stdio by default", hasDefault, nil, nil, Config{}, ""},
		{"--http ADDR", hasDefault, []string{"--http", "127.0.0.1:9001"}, nil, Config{HTTPAddr: "127.0.0.1:9001"}, ""},
		{"--http=ADDR", hasDefault, []string{"--http=127.0.0.1:9002"}, nil, Config{HTTPAddr: "127.0.0.1:9002"}, ""},
		{"-http ADDR", hasDefault, []string{"-http", "127.0.0.1:9003"}, nil, Config{HTTPAddr: "127.0.0.1:9003"}, ""},
		{"bare --http without a default", noDefault, []string{"--http"}, nil, Config{}, "--http needs an address"},
		{"bare --http serves on the default", hasDefault, []string{"--http"}, nil, Config{HTTPAddr: "127.0.0.1:8003"}, ""},
		{"--http before another flag is bare", hasDefault, []string{"--http", "-x"}, nil, Config{}, "flag provided but not defined: -x"},
		{"stray argument", hasDefault, []string{"serve"}, nil, Config{}, "unexpected arguments"},
		{"--toolsets", hasDefault, []string{"--toolsets", "core, Extra"}, nil, Config{Select: mcptool.Selection{Toolsets: []string{"core", "extra"}}}, ""},
		{"SVC_TOOLSETS", hasDefault, nil, map[string]string{"SVC_TOOLSETS": "all"}, Config{Select: mcptool.Selection{Toolsets: []string{"all"}}}, ""},
		{"the flag wins over the variable", hasDefault, []string{"--toolsets=extra"}, map[string]string{"SVC_TOOLSETS": "all"}, Config{Select: mcptool.Selection{Toolsets: []string{"extra"}}}, ""},
		{"an unknown toolset", hasDefault, []string{"--toolsets", "core,calendar"}, nil, Config{}, `--toolsets: unknown toolset "calendar": the toolsets are core, extra, all`},
		{"--read-only", hasDefault, []string{"--read-only", "--http"}, nil, Config{HTTPAddr: "127.0.0.1:8003", Select: mcptool.Selection{ReadOnly: true}}, ""},
		{"SVC_READ_ONLY", hasDefault, nil, map[string]string{"SVC_READ_ONLY": "1"}, Config{Select: mcptool.Selection{ReadOnly: true}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.cmd.LoadConfig(tc.args, env(tc.env))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("config (-want +got)\n%s", diff)
			}
		})
	}
}

func TestBoardDeps(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	c, where, err := Board(env(nil))
	if err != nil || c.BaseURL() != "http://127.0.0.1:3000" || where[1] != c.BaseURL() {
		t.Errorf("default board: %v %v %v", c, where, err)
	}
	if c, _, err = Board(env(map[string]string{"CRM_BASE_URL": "http://127.0.0.1:3999"})); err != nil || c.BaseURL() != "http://127.0.0.1:3999" {
		t.Errorf("CRM_BASE_URL: %v %v", c, err)
	}
	if _, _, err := Board(env(map[string]string{"CRM_BASE_URL": "127.0.0.1:3000"})); err == nil || !strings.Contains(err.Error(), "CRM_BASE_URL") {
		t.Errorf("a malformed CRM_BASE_URL: %v", err)
	}
}

func sampleMCP(t *testing.T) *server.MCPServer {
	t.Helper()
	c, err := client.New("http://127.0.0.1:1")
	if err != nil {
		t.Fatal(err)
	}
	s, err := sample.MCPServer(c, mcptool.Selection{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestServeStdio: one request in, one JSON-RPC answer out, and the end of
// the input ends the session cleanly.
func TestServeStdio(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	srv, done := sampleMCP(t), make(chan error, 1)
	go func() {
		done <- Command[*client.Client]{Tools: sample}.serveStdio(context.Background(), srv, inR, outW)
	}()
	go func() {
		_, _ = io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ping","arguments":{}}}`+"\n")
	}()
	line, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		ID     int                `json:"id"`
		Result mcp.CallToolResult `json:"result"`
	}
	if err := json.Unmarshal([]byte(line), &res); err != nil {
		t.Fatalf("%v: %s", err, line)
	}
	if res.ID != 1 || !strings.Contains(line, `"pong"`) {
		t.Errorf("answer %s", line)
	}
	inW.Close()
	go func() { _, _ = io.Copy(io.Discard, outR) }()
	waitClean(t, done, "stdio did not end with its input")
}

// TestServeHTTP: the tools answer on /mcp, and cancelling the context shuts
// the server down cleanly.
func TestServeHTTP(t *testing.T) {
	addr := clienttest.FreeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv, done := sampleMCP(t), make(chan error, 1)
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	go func() { done <- Command[*client.Client]{Tools: sample}.serveHTTP(ctx, logger, srv, addr, nil) }()

	c, err := mcpclient.NewStreamableHttpClient("http://" + addr + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	cctx := clienttest.Context(t)
	if err := c.Start(cctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "test", Version: "1"}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	var res *mcp.InitializeResult
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if res, err = c.Initialize(cctx, init); err == nil || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if res.ServerInfo.Name != "mcp-sample" || res.ServerInfo.Version != "1.0.0" {
		t.Errorf("server info %+v", res.ServerInfo)
	}
	cancel()
	waitClean(t, done, "http did not shut down when the context ended")
}

// waitClean waits for a serve function to return, which it must do
// without an error.
func waitClean(t *testing.T, done <-chan error, hung string) {
	t.Helper()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serving ended with %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal(hung)
	}
}
