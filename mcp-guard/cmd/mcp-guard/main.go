// Command mcp-guard is the guard bridge: the agent's MCP tools over the
// guard sidecar (scan_email, classify_text, block_sender). It serves MCP
// over stdio by default, or over streamable HTTP with --http [ADDR]
// (default 127.0.0.1:8004). It fails closed: when the sidecar cannot
// answer, a scan's verdict is UNAVAILABLE, never clean. stdout carries the
// protocol only; logs go to stderr.
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/opsboard/opsboard/mcp-guard/internal/tools"
	"github.com/opsboard/opsboard/shared/guardclient"
	"github.com/opsboard/opsboard/shared/mcpserve"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Getenv)
	stop()
	os.Exit(code)
}

// guardConfig is where the sidecar is and how long a call may take.
type guardConfig struct {
	URL     string        // SVC_GUARD_URL
	Timeout time.Duration // SVC_GUARD_TIMEOUT_MS
}

// loadGuardConfig reads the sidecar's address and the call timeout from the
// environment.
func loadGuardConfig(getenv func(string) string) (guardConfig, error) {
	cfg := guardConfig{URL: strings.TrimSpace(getenv("SVC_GUARD_URL")), Timeout: guardclient.DefaultTimeout}
	if cfg.URL == "" {
		cfg.URL = guardclient.DefaultBaseURL
	}
	if v := strings.TrimSpace(getenv("SVC_GUARD_TIMEOUT_MS")); v != "" {
		ms, err := strconv.Atoi(v)
		if err != nil || ms <= 0 {
			return cfg, fmt.Errorf("SVC_GUARD_TIMEOUT_MS=%q must be a positive whole number of milliseconds", v)
		}
		cfg.Timeout = time.Duration(ms) * time.Millisecond
	}
	return cfg, nil
}

// command is the tool server around the sidecar client g; a bare --http
// serves on the guard bridge's port. It reads nothing of the board's
// configuration: the guard's tools never call the board.
func command(g *guardclient.Client) mcpserve.Command[*guardclient.Client] {
	return mcpserve.Command[*guardclient.Client]{
		Tools: tools.Server(),
		Deps: func(func(string) string) (*guardclient.Client, []any, error) {
			return g, []any{"guard", g.BaseURL()}, nil
		},
		DefaultHTTPAddr: tools.DefaultHTTPAddr,
	}
}

func run(ctx context.Context, args []string, getenv func(string) string) int {
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	cfg, err := loadGuardConfig(getenv)
	if err != nil {
		logger.Error(tools.Name, "err", err)
		return 1
	}
	g, err := guardclient.New(cfg.URL, guardclient.WithTimeout(cfg.Timeout))
	if err != nil {
		logger.Error(tools.Name, "err", fmt.Errorf("SVC_GUARD_URL: %w", err))
		return 1
	}
	logger.Info(tools.Name+".guard", "url", g.BaseURL(), "timeout", cfg.Timeout)
	return command(g).Main(ctx, args, getenv)
}
