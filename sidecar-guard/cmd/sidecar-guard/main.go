// Command sidecar-guard is the board's prompt-injection guard: it screens
// untrusted mail text with a local model or a deterministic detector, and
// keeps the sender-trust list and the quarantine, on a loopback port.
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
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/opsboard/opsboard/shared/httprun"
	"github.com/opsboard/opsboard/shared/hub"
	"github.com/opsboard/opsboard/shared/wire"
	"github.com/opsboard/opsboard/sidecar-guard/internal/classify"
	"github.com/opsboard/opsboard/sidecar-guard/internal/guardstore"
	"github.com/opsboard/opsboard/sidecar-guard/internal/server"
)

// config is the environment, read once.
type config struct {
	addr     string
	data     string
	ttlDays  int
	mode     classify.Mode
	choice   classify.Choice
	modelDir string // "" means <data>/models/<preset key>
	hfToken  bool
	token    string // HF_TOKEN, sent to the model hub
	hub      string // model hub address, hub.Off for none
}

func loadConfig(getenv func(string) string, args []string) (config, error) {
	cfg := config{
		addr:     envOr(getenv, "SVC_GUARD_ADDR", "127.0.0.1:8009"),
		data:     envOr(getenv, "SVC_GUARD_DATA", defaultData(getenv)),
		modelDir: getenv("SVC_GUARD_MODEL_DIR"),
		hfToken:  getenv("HF_TOKEN") != "",
		token:    getenv("HF_TOKEN"),
		hub:      envOr(getenv, "SVC_MODEL_HUB", hub.Default),
		choice:   classify.Resolve(getenv("SVC_GUARD_MODEL"), getenv("SVC_GUARD_THRESHOLD")),
		ttlDays:  wire.QuarantineReleasedDays,
	}
	if v := strings.TrimSpace(getenv("SVC_GUARD_RELEASED_TTL_DAYS")); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return cfg, fmt.Errorf("SVC_GUARD_RELEASED_TTL_DAYS %q: must be a whole number of days, 0 or more (0 keeps released records)", v)
		}
		cfg.ttlDays = n
	}
	mode, err := classify.ParseMode(getenv("SVC_GUARD_CLASSIFIER"))
	if err != nil {
		return cfg, err
	}
	cfg.mode = mode
	fs := flag.NewFlagSet("sidecar-guard", flag.ContinueOnError)
	fs.StringVar(&cfg.addr, "addr", cfg.addr, "listen address (SVC_GUARD_ADDR)")
	fs.StringVar(&cfg.data, "data", cfg.data, "guard data directory (SVC_GUARD_DATA)")
	fs.StringVar(&cfg.modelDir, "model-dir", cfg.modelDir, "model directory (SVC_GUARD_MODEL_DIR; default <data>/models/<preset>)")
	fs.StringVar(&cfg.hub, "hub", cfg.hub, "model hub a preset's model is fetched from when absent, or off (SVC_MODEL_HUB)")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	return cfg, nil
}

// dirOf is the directory a preset's model is read from: the configured one
// for the active preset, else <data>/models/<key>.
func (c config) dirOf(p classify.Preset) string {
	if p.Key == c.choice.Preset.Key && c.modelDir != "" {
		return c.modelDir
	}
	key := p.Key
	if p.Key == classify.CustomPreset {
		key = strings.NewReplacer("/", "--", "\\", "--", "..", "_").Replace(p.ModelID)
	}
	return filepath.Join(c.data, "models", key)
}

func envOr(getenv func(string) string, name, def string) string {
	if v := getenv(name); v != "" {
		return v
	}
	return def
}

// defaultData is a guard/ directory beside the board's store: the
// directory of SVC_BOARD_DATA when set, else the XDG data home's opsboard/.
func defaultData(getenv func(string) string) string {
	if p := getenv("SVC_BOARD_DATA"); p != "" {
		return filepath.Join(filepath.Dir(p), "guard")
	}
	base := getenv("XDG_DATA_HOME")
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			home = "."
		}
		base = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(base, "opsboard", "guard")
}

func main() {
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if err := run(log, os.Getenv, os.Args[1:]); err != nil {
		log.Error("sidecar-guard", "err", err)
		fmt.Fprintln(os.Stderr, "sidecar-guard:", err)
		os.Exit(1)
	}
}

func run(log *slog.Logger, getenv func(string) string, args []string) error {
	cfg, err := loadConfig(getenv, args)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	store, err := guardstore.Open(guardstore.Options{Dir: cfg.data, SeedTTLDays: cfg.ttlDays})
	if err != nil {
		return err
	}
	defer store.Close()

	rt := classify.ModelRuntime{}
	backend, reason, err := classify.Select(ctx, classify.SelectConfig{
		Mode: cfg.mode, Choice: cfg.choice, ModelDir: cfg.dirOf(cfg.choice.Preset), Runtime: rt,
	})
	if err != nil {
		return err
	}
	var modelID string
	if m, ok := backend.(*classify.Model); ok {
		modelID = m.ID()
	}
	// The heuristic answers behind a swap while a model downloads.
	swap := classify.NewSwap(backend)
	defer swap.Close()
	cls := classify.New(swap, cfg.choice.Threshold)
	prober := classify.NewProber(rt, 5*time.Second, nil)
	fetch := newFetch(cfg, backend, modelFetch{log: log, rt: rt, swap: swap, prober: prober})

	srv := server.New(server.Config{
		Store: store, Classifier: cls, Choice: cfg.choice, ModelID: modelID,
		DirOf: cfg.dirOf, Prober: prober, HFToken: cfg.hfToken, Download: fetch.status, Logger: log,
	})
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.addr, err)
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second}
	log.Info("guard.listening", "url", "http://"+ln.Addr().String(), "data", cfg.data,
		"classifier", cls.Name(), "preset", cfg.choice.Preset.Key, "threshold", cls.Threshold(),
		"enabled", store.Settings().Enabled, "why", reason)

	return httprun.Serve(ctx, log, "guard", hs, ln, func(ctx context.Context) error {
		if fetch != nil {
			go fetch.run(ctx)
		}
		srv.Run(ctx)
		return nil
	})
}
