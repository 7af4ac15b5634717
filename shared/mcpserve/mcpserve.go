// Package mcpserve runs a tool server binary: it reads the command line and
// environment, then serves MCP over stdio (the default) or over streamable
// HTTP with --http, with the toolsets --toolsets names (all tools, or only
// the read-only ones with --read-only). stdout carries the protocol only;
// logs go to stderr.
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

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/opsboard/opsboard/shared/client"
	"github.com/opsboard/opsboard/shared/mcptool"
)

// Command is one tool server binary whose tools work on a D.
type Command[D any] struct {
	Tools mcptool.Server[D]
	// Deps builds what the tools work on from the environment, with log
	// attributes saying where that is (see Board).
	Deps func(getenv func(string) string) (D, []any, error)
	// DefaultHTTPAddr is what a bare --http serves on.
	DefaultHTTPAddr string
}

// Config is what the command line and the environment ask for.
type Config struct {
	HTTPAddr string            // empty: stdio
	Select   mcptool.Selection // --toolsets (SVC_TOOLSETS), --read-only (SVC_READ_ONLY=1)
}

// Board is the Deps of a server whose tools call the board: a client of
// the board at CRM_BASE_URL (default the local board).
func Board(getenv func(string) string) (*client.Client, []any, error) {
	url := strings.TrimSpace(getenv("CRM_BASE_URL"))
	if url == "" {
		url = client.DefaultBaseURL
	}
	c, err := client.New(url)
	if err != nil {
		return nil, nil, fmt.Errorf("CRM_BASE_URL: %w", err)
	}
	return c, []any{"board", c.BaseURL()}, nil
}

// LoadConfig reads the command line args and the environment (through
// getenv, so a test can fix it). A flag wins over its variable.
func (c Command[D]) LoadConfig(args []string, getenv func(string) string) (Config, error) {
	var cfg Config
	fs := flag.NewFlagSet(c.Tools.Name, flag.ContinueOnError)
	httpFlag := &addrFlag{}
	fs.Var(httpFlag, "http", "serve MCP over streamable HTTP on this address instead of stdio (bare --http: "+c.DefaultHTTPAddr+")")
	toolsets := fs.String("toolsets", getenv("SVC_TOOLSETS"), "comma-separated toolsets to serve ("+strings.Join(c.Tools.ToolsetNames(), ", ")+"); default "+c.defaultToolsets())
	readOnly := fs.Bool("read-only", strings.TrimSpace(getenv("SVC_READ_ONLY")) == "1", "register only the tools that only read")
	if err := fs.Parse(joinHTTPValue(args)); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected arguments %v", fs.Args())
	}
	cfg.HTTPAddr = httpFlag.addr
	if httpFlag.set && cfg.HTTPAddr == "" {
		if c.DefaultHTTPAddr == "" {
			return cfg, errors.New("--http needs an address (host:port)")
		}
		cfg.HTTPAddr = c.DefaultHTTPAddr
	}
	cfg.Select = mcptool.Selection{Toolsets: mcptool.ParseToolsets(*toolsets), ReadOnly: *readOnly}
	if _, err := c.Tools.Resolve(cfg.Select.Toolsets); err != nil {
		return cfg, fmt.Errorf("--toolsets: %w", err)
	}
	return cfg, nil
}

func (c Command[D]) defaultToolsets() string {
	if len(c.Tools.Default) == 0 {
		return mcptool.AllToolsets
	}
	return strings.Join(c.Tools.Default, ",")
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
func (c Command[D]) Main(ctx context.Context, args []string, getenv func(string) string) int {
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if err := c.run(ctx, logger, args, getenv); err != nil {
		logger.Error(c.Tools.Name, "err", err)
		return 1
	}
	return 0
}

func (c Command[D]) run(ctx context.Context, logger *slog.Logger, args []string, getenv func(string) string) error {
	cfg, err := c.LoadConfig(args, getenv)
	if err != nil {
		return err
	}
	deps, where, err := c.Deps(getenv)
	if err != nil {
		return err
	}
	s, err := c.Tools.MCPServer(deps, cfg.Select)
	if err != nil {
		return err
	}
	attrs := append([]any{"version", c.Tools.Version, "toolsets", strings.Join(cfg.Select.Toolsets, ","), "readOnly", cfg.Select.ReadOnly}, where...)
	if cfg.HTTPAddr == "" {
		logger.Info(c.Tools.Name+".stdio", attrs...)
		return c.serveStdio(ctx, s, os.Stdin, os.Stdout)
	}
	return c.serveHTTP(ctx, logger, s, cfg.HTTPAddr, attrs)
}

// serveStdio serves one session on in and out until the input ends or ctx
// does.
func (c Command[D]) serveStdio(ctx context.Context, s *server.MCPServer, in io.Reader, out io.Writer) error {
	stdio := server.NewStdioServer(s)
	stdio.SetErrorLogger(log.New(os.Stderr, c.Tools.Name+": ", log.LstdFlags))
	if err := stdio.Listen(ctx, in, out); err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("serve stdio: %w", err)
	}
	return nil
}

// sessionVersions are the protocol revisions that keep a session.
func sessionVersions() []string {
	var out []string
	for _, v := range mcp.ValidProtocolVersions {
		if v <= mcp.LATEST_LEGACY_PROTOCOL_VERSION {
			out = append(out, v)
		}
	}
	return out
}

// serveHTTP serves streamable HTTP on addr (path /mcp) until ctx ends.
func (c Command[D]) serveHTTP(ctx context.Context, logger *slog.Logger, s *server.MCPServer, addr string, attrs []any) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	opts := []server.StreamableHTTPOption{server.WithStreamableHTTPLogger(logger)}
	if c.Tools.Dynamic {
		// A toolset enabled by one client is that client's alone, which
		// needs a session: the protocol revisions without one are not served.
		opts = append(opts, server.WithStreamableHTTPProtocolVersions(sessionVersions()...))
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", server.NewStreamableHTTPServer(s, opts...))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	logger.Info(c.Tools.Name+".http", append([]any{"url", "http://" + ln.Addr().String() + "/mcp"}, attrs...)...)
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
