// Package mcptool is the frame every tool server builds its tools in: the
// server's registration (tools grouped in toolsets, read and write tools
// apart), the argument check that runs before each handler, the argument
// getters, the annotations and the text lines more than one server answers
// with. The frame is generic over what a server's tools work on (a board
// client, a guard client), so each server hands its tools exactly that.
package mcptool

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/opsboard/opsboard/shared/client"
)

// Constructor builds one tool and its handler around the server's
// dependency D (for the board servers, the board client).
type Constructor[D any] func(D) (mcp.Tool, server.ToolHandlerFunc)

// Toolset is a named group of tools a client can ask for. Read and Write
// are listed apart so a read-only hint cannot lie.
type Toolset[D any] struct {
	Name, Description string
	Read, Write       []Constructor[D]
}

// AllToolsets names every toolset of a server at once.
const AllToolsets = "all"

// Server is one tool server: what identifies it to MCP clients, what a
// client may put before the agent once per session, and its toolsets.
// Default names the toolsets served when none are asked for; empty means
// all of them. A Dynamic server also serves list_toolsets and
// enable_toolset in every selection, so a session can add a toolset's
// tools while it runs (its client is told the tool list changed).
type Server[D any] struct {
	Name, Version, Instructions string
	Toolsets                    []Toolset[D]
	Default                     []string
	Dynamic                     bool
}

// Selection is what a client asked to be served: toolset names (empty: the
// server's default) and whether only read-only tools are registered.
type Selection struct {
	Toolsets []string
	ReadOnly bool
}

// ParseToolsets reads a comma-separated list of toolset names, trimmed,
// lower-cased, empties dropped.
func ParseToolsets(v string) []string {
	var out []string
	for _, part := range strings.Split(v, ",") {
		if p := strings.ToLower(strings.TrimSpace(part)); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// ToolsetNames lists the server's toolset names in order, then "all".
func (s Server[D]) ToolsetNames() []string {
	names := make([]string, 0, len(s.Toolsets)+1)
	for _, ts := range s.Toolsets {
		names = append(names, ts.Name)
	}
	return append(names, AllToolsets)
}

// Resolve turns toolset names into the toolsets they name, in the server's
// order: none means the default, "all" means every one, and an unknown
// name is an error listing the accepted ones.
func (s Server[D]) Resolve(names []string) ([]Toolset[D], error) {
	if len(names) == 0 {
		names = s.Default
	}
	if len(names) == 0 || slices.Contains(names, AllToolsets) {
		return s.Toolsets, nil
	}
	known := s.ToolsetNames()
	for _, n := range names {
		if !slices.Contains(known, n) {
			return nil, fmt.Errorf("unknown toolset %q: the toolsets are %s", n, strings.Join(known, ", "))
		}
	}
	var out []Toolset[D]
	for _, ts := range s.Toolsets {
		if slices.Contains(names, ts.Name) {
			out = append(out, ts)
		}
	}
	return out, nil
}

// Tools builds the selected tools around d, each handler wrapped to check
// its arguments against the tool's schema first (see Validated). A tool in
// two selected toolsets is served once. With ReadOnly only the tools whose
// read-only hint is true are built. A Dynamic server's list_toolsets and
// enable_toolset come last.
func (s Server[D]) Tools(d D, sel Selection) ([]server.ServerTool, error) {
	tools, err := s.selected(d, sel)
	if err != nil || !s.Dynamic {
		return tools, err
	}
	ss, err := newSessions(s, d, sel, tools)
	if err != nil {
		return nil, err
	}
	return append(tools, ss.tools()...), nil
}

// selected builds the tools of the selected toolsets.
func (s Server[D]) selected(d D, sel Selection) ([]server.ServerTool, error) {
	sets, err := s.Resolve(sel.Toolsets)
	if err != nil {
		return nil, err
	}
	var out []server.ServerTool
	seen := map[string]bool{}
	add := func(cons []Constructor[D]) {
		for _, f := range cons {
			t, h := f(d)
			if seen[t.Name] || sel.ReadOnly && !ReadOnlyHint(t) {
				continue
			}
			seen[t.Name] = true
			out = append(out, server.ServerTool{Tool: t, Handler: Validated(t, h)})
		}
	}
	for _, ts := range sets {
		add(ts.Read)
	}
	if sel.ReadOnly {
		return out, nil
	}
	for _, ts := range sets {
		add(ts.Write)
	}
	return out, nil
}

// ReadOnlyHint reports whether a tool says it only reads.
func ReadOnlyHint(t mcp.Tool) bool {
	return t.Annotations.ReadOnlyHint != nil && *t.Annotations.ReadOnlyHint
}

// ReadTools are the read tools of every toolset, each once, and a Dynamic
// server's list_toolsets and enable_toolset.
func (s Server[D]) ReadTools(d D) []server.ServerTool {
	out := s.every(d, func(ts Toolset[D]) []Constructor[D] { return ts.Read })
	if s.Dynamic {
		ss := &sessions[D]{s: s, d: d, served: map[string]bool{}}
		out = append(out, ss.tools()...)
	}
	return out
}

// WriteTools are the write tools of every toolset, each once.
func (s Server[D]) WriteTools(d D) []server.ServerTool {
	return s.every(d, func(ts Toolset[D]) []Constructor[D] { return ts.Write })
}

func (s Server[D]) every(d D, part func(Toolset[D]) []Constructor[D]) []server.ServerTool {
	var out []server.ServerTool
	seen := map[string]bool{}
	for _, ts := range s.Toolsets {
		for _, f := range part(ts) {
			t, h := f(d)
			if !seen[t.Name] {
				seen[t.Name] = true
				out = append(out, server.ServerTool{Tool: t, Handler: Validated(t, h)})
			}
		}
	}
	return out
}

// MCPServer is the MCP server with the selected tools registered; a wrong
// type, a value outside an enum or an unknown argument is a tool error the
// model can correct.
// A Dynamic server declares that its tool list changes, and says so to a
// session that enables a toolset.
func (s Server[D]) MCPServer(d D, sel Selection) (*server.MCPServer, error) {
	tools, err := s.selected(d, sel)
	if err != nil {
		return nil, err
	}
	opts := []server.ServerOption{
		server.WithToolCapabilities(s.Dynamic),
		server.WithInstructions(s.Instructions),
		server.WithRecovery(),
	}
	var ss *sessions[D]
	if s.Dynamic {
		if ss, err = newSessions(s, d, sel, tools); err != nil {
			return nil, err
		}
		hooks := &server.Hooks{}
		hooks.AddOnUnregisterSession(func(_ context.Context, cs server.ClientSession) { ss.forget(cs.SessionID()) })
		opts = append(opts, server.WithHooks(hooks))
	}
	srv := server.NewMCPServer(s.Name, s.Version, opts...)
	if ss != nil {
		ss.srv = srv
		tools = append(tools, ss.tools()...)
	}
	srv.AddTools(tools...)
	return srv, nil
}

// An Outcome is an error the model should read as an answer rather than a
// failure: the board's refusal to let the agent revert the person's recent
// change is one (the client's BoardError implements it).
type Outcome interface {
	Outcome() (text string, ok bool)
}

// HandlerFunc is a tool's work: it returns the answer text or an error
// whose message is shown to the model as a tool error.
type HandlerFunc func(ctx context.Context, a *Args) (string, error)

// Handle adapts a HandlerFunc to mcp-go. A failure is a tool result flagged
// as an error (not a protocol error), so the model reads the board's words.
// The board's refusal to let the agent revert the person's recent change is
// no failure: it comes back as a normal result saying what to do instead.
// The context names the call (tool, arguments, session) to the board's
// client, so the creates a retried call repeats are one write each.
func Handle(fn HandlerFunc) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		ctx = client.WithCall(ctx, req.Params.Name, sessionOf(ctx), req.Params.Arguments)
		text, err := fn(ctx, ArgsOf(req))
		var out Outcome
		if errors.As(err, &out) {
			if text, ok := out.Outcome(); ok {
				return mcp.NewToolResultText(text + " " + err.Error()), nil
			}
		}
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		return mcp.NewToolResultText(text), nil
	}
}

// sessionOf is the MCP session's id, "" outside one.
func sessionOf(ctx context.Context) string {
	if s := server.ClientSessionFromContext(ctx); s != nil {
		return s.SessionID()
	}
	return ""
}
