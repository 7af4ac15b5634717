// Command mcp-board is the board's MCP tool server: agent verbs over cases,
// the tree, tasks, notes, messages, reminders, priorities, labels, search and
// approvals. It serves MCP over stdio by default, or over streamable HTTP
// with --http ADDR. stdout carries the protocol only; logs go to stderr.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/server"
	"github.com/opsboard/opsboard/mcp-board/internal/tools"
	"github.com/opsboard/opsboard/shared/client"
)

type config struct {
	boardURL string // CRM_BASE_URL
	httpAddr string // empty: stdio
}

func loadConfig(args []string, getenv func(string) string) (config, error) {
	cfg := config{boardURL: getenv("CRM_BASE_URL")}
	if cfg.boardURL == "" {
		cfg.boardURL = client.DefaultBaseURL
	}
	fs := flag.NewFlagSet("mcp-board", flag.ContinueOnError)
	httpFlag := &addrFlag{}
	fs.Var(httpFlag, "http", "serve MCP over streamable HTTP on this address (e.g. 127.0.0.1:8002) instead of stdio")
	if err := fs.Parse(joinHTTPValue(args)); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected arguments %v", fs.Args())
	}
	if httpFlag.set && httpFlag.addr == "" {
		return cfg, errors.New("--http needs an address, e.g. --http 127.0.0.1:8002")
	}
	cfg.httpAddr = httpFlag.addr
	return cfg, nil
}

// addrFlag is --http: given bare it is set with no address; --http ADDR and
// --http=ADDR carry one.
type addrFlag struct {
	set  bool
	addr string
}

func (f *addrFlag) String() string   { return f.addr }
func (f *addrFlag) IsBoolFlag() bool { return true }
func (f *addrFlag) Set(v string) error {
	f.set = true
	if v != "true" {
		f.addr = v
	}
	return nil
}

// joinHTTPValue turns "--http ADDR" into "--http=ADDR", because a flag that
// may also stand alone cannot take a separate value in package flag.
func joinHTTPValue(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if (a == "--http" || a == "-http") && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
			out = append(out, a+"="+args[i+1])
			i++
			continue
		}
		out = append(out, a)
	}
	return out
}

func main() {
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if err := run(logger, os.Args[1:]); err != nil {
		logger.Error("mcp-board", "err", err)
		os.Exit(1)
	}
}

func run(logger *slog.Logger, args []string) error {
	cfg, err := loadConfig(args, os.Getenv)
	if err != nil {
		return err
	}
	board, err := client.New(cfg.boardURL)
	if err != nil {
		return err
	}
	s := tools.NewServer(board)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if cfg.httpAddr == "" {
		logger.Info("mcp-board.stdio", "board", board.BaseURL(), "version", tools.Version)
		stdio := server.NewStdioServer(s)
		stdio.SetErrorLogger(log.New(os.Stderr, "mcp-board: ", log.LstdFlags))
		if err := stdio.Listen(ctx, os.Stdin, os.Stdout); err != nil && !errors.Is(err, context.Canceled) {
			return fmt.Errorf("serve stdio: %w", err)
		}
		return nil
	}
	return serveHTTP(ctx, logger, s, cfg.httpAddr, board.BaseURL())
}

// serveHTTP serves streamable HTTP on addr (path /mcp) until ctx ends.
func serveHTTP(ctx context.Context, logger *slog.Logger, s *server.MCPServer, addr, boardURL string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", server.NewStreamableHTTPServer(s, server.WithStreamableHTTPLogger(logger)))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	logger.Info("mcp-board.http", "url", "http://"+ln.Addr().String()+"/mcp", "board", boardURL, "version", tools.Version)
	select {
	case err := <-errc:
		return fmt.Errorf("serve http: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("shut down http: %w", err)
	}
	return nil
}
