package main

import (
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/opsboard/opsboard/shared/client/clienttest"
)

// server is how the binary must introduce itself.
var server = mcp.Implementation{Name: "mcp-calendar"}

// TestBareHTTPServesOnTheCalendarPort: a bare --http means the calendar
// tool server's own port, 8003.
func TestBareHTTPServesOnTheCalendarPort(t *testing.T) {
	cfg, err := command.LoadConfig([]string{"--http"}, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if cfg.HTTPAddr != "127.0.0.1:8003" {
		t.Errorf("bare --http serves on %q, want 127.0.0.1:8003", cfg.HTTPAddr)
	}
}

// TestUnreachableBoard: with no board at the address, a tool answers with a
// tool error saying so and how to start it, and the session stays usable.
func TestUnreachableBoard(t *testing.T) {
	bin := clienttest.Build(t, ".", ".")
	addr := clienttest.FreeAddr(t)
	s := clienttest.StartSession(t, bin, "http://"+addr, server)
	s.Refused(t, "list_events", nil, "the board is not running at http://"+addr, "make run")
	s.Refused(t, "create_event", map[string]any{"title": "x", "date": "2030-01-01"}, "the board is not running at http://"+addr, "make run")
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
	s.OK(t, "list_events", nil)
	s.Refused(t, "get_event", map[string]any{"id": "EVT-404"}, "EVT-404")
	s.Refused(t, "create_event", map[string]any{"title": 7, "date": "2030-01-01"}, "title")
	s.Refused(t, "update_event", map[string]any{"id": "EVT-1", "colour": "red"}, "colour")
	s.SendNoise(t)
	s.OK(t, "list_events", map[string]any{"limit": 1})
	s.CheckStdout(t, 6)
	if !strings.Contains(s.Proc.Stderr(), "mcp-calendar.stdio") {
		t.Errorf("the startup log is not on stderr:\n%s", s.Proc.Stderr())
	}
}

// TestStreamableHTTP serves the tools over streamable HTTP with --http.
func TestStreamableHTTP(t *testing.T) {
	board := clienttest.StartBoard(t)
	bin := clienttest.Build(t, ".", ".")
	s := clienttest.ServeHTTP(t, bin, board.URL, server)
	if n := len(s.Tools(t)); n != len(wantTools()) {
		t.Errorf("%d tools over HTTP, want %d", n, len(wantTools()))
	}
	s.OK(t, "create_event", map[string]any{"title": "Over HTTP", "date": "2030-03-01", "allDay": true}, "2030-03-01 all day - Over HTTP")
	if lines := s.Proc.StdoutLines(); len(lines) > 0 {
		t.Errorf("the HTTP server wrote to stdout: %q", lines)
	}
}

// TestToolsetAndReadOnly: the calendar's one toolset is named as on the
// board server, and --read-only keeps its two reads.
func TestToolsetAndReadOnly(t *testing.T) {
	bin := clienttest.Build(t, ".", ".")
	env := []string{"CRM_BASE_URL=http://" + clienttest.FreeAddr(t)}
	for _, tc := range []struct {
		args []string
		want int
	}{
		{[]string{"--toolsets", "calendar"}, 6},
		{[]string{"--toolsets", "all", "--read-only"}, 2},
	} {
		s := clienttest.StartSessionWith(t, bin, env, server, tc.args...)
		tools, size := s.ListBytes(t)
		if len(tools) != tc.want {
			t.Errorf("%v: %d tools, want %d", tc.args, len(tools), tc.want)
		}
		for _, tl := range tools {
			if ro := tl.Annotations.ReadOnlyHint; tc.args[len(tc.args)-1] == "--read-only" && (ro == nil || !*ro) {
				t.Errorf("%s served read-only", tl.Name)
			}
		}
		t.Logf("%v: %d tools, %d bytes of tools/list", tc.args, len(tools), size)
	}
}
