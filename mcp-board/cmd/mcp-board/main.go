// Command mcp-board is the board's MCP tool server: agent verbs over cases,
// the tree, tasks, notes, messages, reminders, priorities, labels, search,
// proposals and the vault, grouped in toolsets (--toolsets; core by default). It serves
// MCP over stdio by default, or over streamable HTTP with --http [ADDR]
// (default 127.0.0.1:8002). stdout carries the protocol only; logs go to
// stderr.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/opsboard/opsboard/mcp-board/internal/tools"
	"github.com/opsboard/opsboard/shared/client"
	"github.com/opsboard/opsboard/shared/mcpserve"
)

// command serves a bare --http on this server's own port (8002).
var command = mcpserve.Command[*client.Client]{Tools: tools.Server(), Deps: mcpserve.Board, DefaultHTTPAddr: tools.DefaultHTTPAddr}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	code := command.Main(ctx, os.Args[1:], os.Getenv)
	stop()
	os.Exit(code)
}
