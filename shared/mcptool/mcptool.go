// Package mcptool is the frame every tool server builds its tools in: the
// server's registration (read and write tools apart), the argument check
// that runs before each handler, the argument getters, the annotations and
// the text lines more than one server answers with.
package mcptool

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/opsboard/opsboard/shared/client"
)

// Constructor builds one tool and its handler around a board client.
type Constructor func(*client.Client) (mcp.Tool, server.ToolHandlerFunc)

// Server is one tool server: what identifies it to MCP clients, what a
// client may put before the agent once per session, and its tools. Read
// and Write are listed apart so a read-only hint cannot lie.
type Server struct {
	Name, Version, Instructions string
	Read, Write                 []Constructor
}

// ReadTools are the tools that only read the board.
func (s Server) ReadTools(c *client.Client) []server.ServerTool { return build(c, s.Read) }

// WriteTools are the tools that change the board.
func (s Server) WriteTools(c *client.Client) []server.ServerTool { return build(c, s.Write) }

// MCPServer is the MCP server with every tool registered. Each handler is
// wrapped to check its arguments against the tool's schema first (see
// Validated), so a wrong type, a value outside an enum or an unknown
// argument is a tool error the model can correct.
func (s Server) MCPServer(c *client.Client) *server.MCPServer {
	srv := server.NewMCPServer(s.Name, s.Version,
		server.WithToolCapabilities(false),
		server.WithInstructions(s.Instructions),
		server.WithRecovery(),
	)
	srv.AddTools(s.ReadTools(c)...)
	srv.AddTools(s.WriteTools(c)...)
	return srv
}

func build(c *client.Client, cons []Constructor) []server.ServerTool {
	out := make([]server.ServerTool, 0, len(cons))
	for _, f := range cons {
		t, h := f(c)
		out = append(out, server.ServerTool{Tool: t, Handler: Validated(t, h)})
	}
	return out
}

// HandlerFunc is a tool's work: it returns the answer text or an error
// whose message is shown to the model as a tool error.
type HandlerFunc func(ctx context.Context, a *Args) (string, error)

// Handle adapts a HandlerFunc to mcp-go. A failure is a tool result flagged
// as an error (not a protocol error), so the model reads the board's words.
// The board's refusal to let the agent revert the person's recent change is
// no failure: it comes back as a normal result saying what to do instead.
func Handle(fn HandlerFunc) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		text, err := fn(ctx, ArgsOf(req))
		if hc := client.HumanChangeOf(err); hc != nil {
			return mcp.NewToolResultText(fmt.Sprintf("Not changed, the person's change stands (field %s, changed by the %s at %s). %v", hc.Field, hc.Actor, hc.TS, err)), nil
		}
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		return mcp.NewToolResultText(text), nil
	}
}
