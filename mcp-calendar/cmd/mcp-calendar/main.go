// Command mcp-calendar is the calendar's MCP tool server: agent verbs over
// the board's events. It serves MCP over stdio by default, or over
// streamable HTTP with --http [ADDR] (default 127.0.0.1:8003). stdout
// carries the protocol only; logs go to stderr.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/opsboard/opsboard/mcp-calendar/internal/tools"
	"github.com/opsboard/opsboard/shared/client"
	"github.com/opsboard/opsboard/shared/mcpserve"
)

// command serves a bare --http on this server's own port (8003).
var command = mcpserve.Command[*client.Client]{Tools: tools.Server(), Deps: mcpserve.Board, DefaultHTTPAddr: tools.DefaultHTTPAddr}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	code := command.Main(ctx, os.Args[1:], os.Getenv)
	stop()
	os.Exit(code)
}
