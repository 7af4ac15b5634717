package mcptool_test

import (
	"context"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/opsboard/opsboard/shared/client"
	"github.com/opsboard/opsboard/shared/mcptool"
	"github.com/opsboard/opsboard/shared/mcptool/mcptooltest"
)

func shout(*client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("shout", mcp.WithDescription("Say it loud."), mcptool.ReadOnly())
	return tool, mcptool.Handle(func(context.Context, *mcptool.Args) (string, error) { return "HI", nil })
}

func erase(*client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("erase", mcp.WithDescription("Erase it."), mcptool.Destructive(mcptool.Idempotent))
	return tool, mcptool.Handle(func(context.Context, *mcptool.Args) (string, error) { return "Erased.", nil })
}

var dynamicServer = mcptool.Server[*client.Client]{
	Name: "dynamic", Version: "1.0.0", Dynamic: true, Default: []string{"talk"},
	Toolsets: []mcptool.Toolset[*client.Client]{
		{Name: "talk", Description: "Talking.", Read: []mcptool.Constructor[*client.Client]{echo}, Write: []mcptool.Constructor[*client.Client]{forget}},
		{Name: "loud", Description: "Loud talking.", Read: []mcptool.Constructor[*client.Client]{shout, echo}, Write: []mcptool.Constructor[*client.Client]{erase}},
	},
}

// dynamicSession is an in-process MCP session with dynamicServer, counting
// the tools/list_changed notifications it receives.
func dynamicSession(t *testing.T, sel mcptool.Selection) (*mcpclient.Client, *atomic.Int32) {
	t.Helper()
	srv, err := dynamicServer.MCPServer(mcptooltest.NoBoard(t), sel)
	if err != nil {
		t.Fatal(err)
	}
	c, err := mcpclient.NewInProcessClient(srv)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	changed := &atomic.Int32{}
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == string(mcp.MethodNotificationToolsListChanged) {
			changed.Add(1)
		}
	})
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "test", Version: "1"}
	res, err := c.Initialize(ctx, init)
	if err != nil {
		t.Fatal(err)
	}
	if res.Capabilities.Tools == nil || !res.Capabilities.Tools.ListChanged {
		t.Errorf("a dynamic server must declare tools.listChanged: %+v", res.Capabilities.Tools)
	}
	return c, changed
}

func toolNames(t *testing.T, c *mcpclient.Client) []string {
	t.Helper()
	res, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, tl := range res.Tools {
		out = append(out, tl.Name)
	}
	sort.Strings(out)
	return out
}

func callText(t *testing.T, c *mcpclient.Client, name string, args map[string]any) (string, bool) {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = name, args
	res, err := c.CallTool(context.Background(), req)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res.Content[0].(mcp.TextContent).Text, res.IsError
}

// TestEnableToolset: a session lists the toolsets, enables one, is told its
// tool list changed and can call the new tools; an unknown name lists the
// sets; enabling a set twice adds nothing.
func TestEnableToolset(t *testing.T) {
	c, changed := dynamicSession(t, mcptool.Selection{})
	if got, want := toolNames(t, c), []string{"echo", "enable_toolset", "forget", "list_toolsets"}; !slices.Equal(got, want) {
		t.Fatalf("tools %v, want %v", got, want)
	}
	if text, _ := callText(t, c, "list_toolsets", nil); text != "talk - on - 2 tools: Talking.\nloud - off - 3 tools: Loud talking." {
		t.Errorf("list_toolsets:\n%s", text)
	}
	if text, isErr := callText(t, c, "enable_toolset", map[string]any{"toolset": "quiet"}); !isErr || !strings.Contains(text, `unknown toolset "quiet": the toolsets are talk, loud, all`) {
		t.Errorf("an unknown toolset: %q (error %v)", text, isErr)
	}
	if text, isErr := callText(t, c, "enable_toolset", map[string]any{"toolset": "Loud"}); isErr || text != "Enabled loud: added 2 tools: shout, erase." {
		t.Errorf("enable loud: %q (error %v)", text, isErr)
	}
	for deadline := time.Now().Add(5 * time.Second); changed.Load() == 0 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
	}
	if changed.Load() == 0 {
		t.Error("no tools/list_changed notification after enable_toolset")
	}
	if got, want := toolNames(t, c), []string{"echo", "enable_toolset", "erase", "forget", "list_toolsets", "shout"}; !slices.Equal(got, want) {
		t.Errorf("tools after enabling %v, want %v", got, want)
	}
	if text, isErr := callText(t, c, "shout", nil); isErr || text != "HI" {
		t.Errorf("shout: %q", text)
	}
	if text, _ := callText(t, c, "list_toolsets", nil); !strings.Contains(text, "loud - on - 3 tools") {
		t.Errorf("list_toolsets after enabling:\n%s", text)
	}
	if text, isErr := callText(t, c, "enable_toolset", map[string]any{"toolset": "loud"}); isErr || text != "Toolset loud is already on: nothing added." {
		t.Errorf("enable loud twice: %q (error %v)", text, isErr)
	}
}

// TestEnableToolsetReadOnly: a read-only session adds only the set's reads.
func TestEnableToolsetReadOnly(t *testing.T) {
	c, _ := dynamicSession(t, mcptool.Selection{ReadOnly: true})
	if text, _ := callText(t, c, "list_toolsets", nil); !strings.Contains(text, "loud - off - 2 tools") || !strings.Contains(text, "Read-only session") {
		t.Errorf("list_toolsets read-only:\n%s", text)
	}
	if text, isErr := callText(t, c, "enable_toolset", map[string]any{"toolset": "loud"}); isErr || text != "Enabled loud: added 1 tool: shout." {
		t.Errorf("enable loud read-only: %q (error %v)", text, isErr)
	}
	if got, want := toolNames(t, c), []string{"echo", "enable_toolset", "list_toolsets", "shout"}; !slices.Equal(got, want) {
		t.Errorf("tools %v, want %v", got, want)
	}
}

// TestEnableAllToolsets: "all" adds every set's tools and turns every set on.
func TestEnableAllToolsets(t *testing.T) {
	c, _ := dynamicSession(t, mcptool.Selection{})
	if text, isErr := callText(t, c, "enable_toolset", map[string]any{"toolset": "all"}); isErr || text != "Enabled all: added 2 tools: shout, erase." {
		t.Errorf("enable all: %q (error %v)", text, isErr)
	}
	if text, _ := callText(t, c, "list_toolsets", nil); strings.Contains(text, "off") {
		t.Errorf("a set is off after enabling all:\n%s", text)
	}
}
