// Package mcpserve runs a tool server binary: it reads the command line and
// environment, then serves MCP over stdio (the default) or over streamable
// HTTP with --http. stdout carries the protocol only; logs go to stderr.
package mcpserve

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/server"
	"github.com/opsboard/opsboard/shared/client"
	"github.com/opsboard/opsboard/shared/mcptool"
)

// Command is one tool server binary.
type Command struct {
	Tools mcptool.Server
	// DefaultHTTPAddr is what a bare --http serves on. Without one, --http
	// needs an address and ExampleHTTPAddr shows its form.
	DefaultHTTPAddr string
	ExampleHTTPAddr string
}

// Config is what the command line and the environment ask for.
type Config struct {
	BoardURL string // CRM_BASE_URL
	HTTPAddr string // empty: stdio
}

// LoadConfig reads the command line args and the environment (through
// getenv, so a test can fix it).
func (c Command) LoadConfig(args []string, getenv func(string) string) (Config, error) {
	cfg := Config{BoardURL: getenv("CRM_BASE_URL")}
	if cfg.BoardURL == "" {
		cfg.BoardURL = client.DefaultBaseURL
	}
	fs := flag.NewFlagSet(c.Tools.Name, flag.ContinueOnError)
	usage := "serve MCP over streamable HTTP on this address (e.g. " + c.ExampleHTTPAddr + ") instead of stdio"
	if c.DefaultHTTPAddr != "" {
		usage = "serve MCP over streamable HTTP on this address instead of stdio (bare --http: " + c.DefaultHTTPAddr + ")"
	}
	httpFlag := &addrFlag{}
	fs.Var(httpFlag, "http", usage)
	if err := fs.Parse(joinHTTPValue(args)); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected arguments %v", fs.Args())
	}
	cfg.HTTPAddr = httpFlag.addr
	if httpFlag.set && cfg.HTTPAddr == "" {
		if c.DefaultHTTPAddr == "" {
			return cfg, errors.New("--http needs an address, e.g. --http " + c.ExampleHTTPAddr)
		}
		cfg.HTTPAddr = c.DefaultHTTPAddr
	}
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

// Main runs the command with the process's arguments and environment until
// ctx ends, logging to stderr, and returns the exit code.
func (c Command) Main(ctx context.Context, args []string, getenv func(string) string) int {
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if err := c.run(ctx, logger, args, getenv); err != nil {
		logger.Error(c.Tools.Name, "err", err)
		return 1
	}
	return 0
}

func (c Command) run(ctx context.Context, logger *slog.Logger, args []string, getenv func(string) string) error {
	cfg, err := c.LoadConfig(args, getenv)
	if err != nil {
		return err
	}
	board, err := client.New(cfg.BoardURL)
	if err != nil {
		return err
	}
	s := c.Tools.MCPServer(board)
	if cfg.HTTPAddr == "" {
		logger.Info(c.Tools.Name+".stdio", "board", board.BaseURL(), "version", c.Tools.Version)
		return c.serveStdio(ctx, s, os.Stdin, os.Stdout)
	}
	return c.serveHTTP(ctx, logger, s, cfg.HTTPAddr, board.BaseURL())
}

// serveStdio serves one session on in and out until the input ends or ctx
// does.
func (c Command) serveStdio(ctx context.Context, s *server.MCPServer, in io.Reader, out io.Writer) error {
	stdio := server.NewStdioServer(s)
	stdio.SetErrorLogger(log.New(os.Stderr, c.Tools.Name+": ", log.LstdFlags))
	if err := stdio.Listen(ctx, in, out); err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("serve stdio: %w", err)
	}
	return nil
}

// serveHTTP serves streamable HTTP on addr (path /mcp) until ctx ends.
func (c Command) serveHTTP(ctx context.Context, logger *slog.Logger, s *server.MCPServer, addr, boardURL string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", server.NewStreamableHTTPServer(s, server.WithStreamableHTTPLogger(logger)))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	logger.Info(c.Tools.Name+".http", "url", "http://"+ln.Addr().String()+"/mcp", "board", boardURL, "version", c.Tools.Version)
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
