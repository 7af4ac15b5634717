// Command mcp-board is the board's MCP tool server: agent verbs over cases,
// the tree, tasks, notes, messages, reminders, priorities, labels, search and
// approvals. It serves MCP over stdio by default, or over streamable HTTP
// with --http ADDR. stdout carries the protocol only; logs go to stderr.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/opsboard/opsboard/mcp-board/internal/tools"
	"github.com/opsboard/opsboard/shared/mcpserve"
)

// command has no default HTTP address: --http must name one (the help gives
// 127.0.0.1:8002 as the example).
var command = mcpserve.Command{Tools: tools.Server(), ExampleHTTPAddr: "127.0.0.1:8002"}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	code := command.Main(ctx, os.Args[1:], os.Getenv)
	stop()
	os.Exit(code)
}
