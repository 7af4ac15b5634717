package main

import (
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/opsboard/opsboard/shared/client/clienttest"
)

// server is how the binary must introduce itself.
var server = mcp.Implementation{Name: "mcp-board", Version: "4.3.0"}

// TestBareHTTPServesOnTheBoardToolPort: a bare --http means port 8002,
// as mcp-calendar's means 8003.
func TestBareHTTPServesOnTheBoardToolPort(t *testing.T) {
	cfg, err := command.LoadConfig([]string{"--http"}, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if cfg.HTTPAddr != "127.0.0.1:8002" {
		t.Errorf("bare --http serves on %q, want 127.0.0.1:8002", cfg.HTTPAddr)
	}
}

// TestUnreachableBoard: with no board at the address, a tool answers with a
// tool error saying so and how to start it, and the session stays usable.
func TestUnreachableBoard(t *testing.T) {
	bin := clienttest.Build(t, ".", ".")
	addr := clienttest.FreeAddr(t)
	s := clienttest.StartSession(t, bin, "http://"+addr, server)
	for _, name := range []string{"get_tree", "list_labels", "search"} {
		args := map[string]any{}
		if name == "search" {
			args["q"] = "anything"
		}
		s.Refused(t, name, args, "the board is not running at http://"+addr, "make run")
	}
	s.CheckStdout(t, 0)
}

// TestStdoutIsOnlyProtocol sends the server what makes servers chatty (a
// garbage line, an unknown tool, bad arguments, a board error) and checks
// that every line it wrote to stdout is JSON-RPC, while its log went to
// stderr.
func TestStdoutIsOnlyProtocol(t *testing.T) {
	board := clienttest.StartBoard(t)
	bin := clienttest.Build(t, ".", ".")
	s := clienttest.StartSession(t, bin, board.URL, server)
	s.OK(t, "get_tree", nil)
	s.Refused(t, "get_case", map[string]any{"id": "CASE-404"}, "not found")
	s.Refused(t, "create_case", map[string]any{"title": 7}, "title")
	s.Refused(t, "update_case", map[string]any{"id": "CASE-1", "colour": "red"}, "colour")
	s.SendNoise(t)
	s.OK(t, "list_labels", map[string]any{"limit": 1})
	s.CheckStdout(t, 6)
	if !strings.Contains(s.Proc.Stderr(), "mcp-board.stdio") {
		t.Errorf("the startup log is not on stderr:\n%s", s.Proc.Stderr())
	}
}

// TestStreamableHTTP serves the tools over streamable HTTP with --http.
func TestStreamableHTTP(t *testing.T) {
	board := clienttest.StartBoard(t)
	bin := clienttest.Build(t, ".", ".")
	s := clienttest.ServeHTTP(t, bin, board.URL, server)
	if n := len(s.Tools(t)); n != len(toolsets()["core"])+len(frame) {
		t.Errorf("%d tools over HTTP, want core's %d and the toolset tools", n, len(toolsets()["core"]))
	}
	// Over HTTP a toolset is enabled for the one session that asks.
	s.OK(t, "enable_toolset", map[string]any{"toolset": "tree"}, "Enabled tree: added 3 tools: list_initiatives, create_initiative, create_workstream.")
	s.OK(t, "create_initiative", map[string]any{"title": "Over HTTP"}, "[initiative] Over HTTP")
	other := clienttest.ServeHTTP(t, bin, board.URL, server)
	if n := len(other.Tools(t)); n != len(toolsets()["core"])+len(frame) {
		t.Errorf("another session sees %d tools, want core's and the toolset tools", n)
	}
	if lines := s.Proc.StdoutLines(); len(lines) > 0 {
		t.Errorf("the HTTP server wrote to stdout: %q", lines)
	}
}
