// Command sidecar-search is the board's optional semantic search sidecar:
// an in-memory vector index over the board's store, read-only, on a
// loopback port.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/opsboard/opsboard/shared/httprun"
	"github.com/opsboard/opsboard/shared/hub"
	"github.com/opsboard/opsboard/sidecar-search/internal/server"
)

type config struct {
	addr     string
	data     string
	vault    string
	embedder string
	modelDir string
	hub      string // model hub address, hub.Off for none
	hfToken  string
}

func loadConfig(args []string) (config, error) {
	cfg := config{
		addr:     envOr("SVC_SEARCH_ADDR", "127.0.0.1:8008"),
		data:     envOr("SVC_BOARD_DATA", filepath.Join(dataHome(), "opsboard", "board.json")),
		embedder: envOr("SVC_SEARCH_EMBEDDER", "auto"),
		modelDir: envOr("SVC_SEARCH_MODEL_DIR", filepath.Join(dataHome(), "opsboard", "models", "potion-base-8M")),
		hub:      envOr("SVC_MODEL_HUB", hub.Default),
		hfToken:  os.Getenv("HF_TOKEN"),
	}
	fs := flag.NewFlagSet("sidecar-search", flag.ContinueOnError)
	fs.StringVar(&cfg.addr, "addr", cfg.addr, "listen address (SVC_SEARCH_ADDR)")
	fs.StringVar(&cfg.data, "data", cfg.data, "path of the board's store document (SVC_BOARD_DATA)")
	fs.StringVar(&cfg.embedder, "embedder", cfg.embedder, "auto, model2vec or hash (SVC_SEARCH_EMBEDDER)")
	fs.StringVar(&cfg.modelDir, "model-dir", cfg.modelDir, "model2vec model directory (SVC_SEARCH_MODEL_DIR)")
	fs.StringVar(&cfg.hub, "hub", cfg.hub, "model hub the model is fetched from when absent, or off (SVC_MODEL_HUB)")
	fs.StringVar(&cfg.vault, "vault", os.Getenv("SVC_VAULT_DIR"), "the board's vault folder, read for pages (SVC_VAULT_DIR; default vault/ beside the data)")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	cfg.vault = vaultDir(cfg.vault, cfg.data)
	return cfg, nil
}

// hubClient is the model hub to fetch from, nil when downloads are off.
func (c config) hubClient(log *slog.Logger) *hub.Client {
	if strings.EqualFold(strings.TrimSpace(c.hub), hub.Off) {
		return nil
	}
	return &hub.Client{Base: c.hub, Progress: hub.StderrProgress(log), Token: c.hfToken}
}

// vaultDir is the vault folder as the board finds it: the one configured,
// else vault/ beside the board's document. The sidecar only reads it.
func vaultDir(configured, data string) string {
	dir := strings.TrimSpace(configured)
	if dir == "" {
		dir = filepath.Join(filepath.Dir(data), "vault")
	}
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return dir
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// dataHome follows the XDG base directory convention, as the board does,
// so both find the same store by default.
func dataHome() string {
	if base := os.Getenv("XDG_DATA_HOME"); base != "" {
		return base
	}
	home, err := os.UserHomeDir()
	if err != nil {
		home = "."
	}
	return filepath.Join(home, ".local", "share")
}

func main() {
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if err := run(log, os.Args[1:]); err != nil {
		log.Error("sidecar-search", "err", err)
		fmt.Fprintln(os.Stderr, "sidecar-search:", err)
		os.Exit(1)
	}
}

// memoryLimit is the soft heap limit when GOMEMLIMIT does not set one: the
// index of 100k documents lives in about 130 MB, and re-reading the store
// briefly needs as much again; the limit makes the collector return that
// to the system instead of letting the process grow to twice its heap.
const memoryLimit = 256 << 20

func run(log *slog.Logger, args []string) error {
	cfg, err := loadConfig(args)
	if err != nil {
		return err
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	srv := server.New(server.Config{DataPath: cfg.data, VaultDir: cfg.vault, Embedder: cfg.embedder, ModelDir: cfg.modelDir, Hub: cfg.hubClient(log), Logger: log})
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.addr, err)
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	log.Info("search.listening", "url", "http://"+ln.Addr().String(), "data", cfg.data, "vault", cfg.vault, "embedder", cfg.embedder)
	// The index warms in the background: /healthz answers 503 until then.
	return httprun.Serve(ctx, log, "search", hs, ln, srv.Run)
}
