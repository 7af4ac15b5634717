// Command board is the opsboard daemon: the store, the /api routes and the
// web page, on one loopback address.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/opsboard/opsboard/board/internal/api"
	"github.com/opsboard/opsboard/board/internal/backup"
	"github.com/opsboard/opsboard/board/internal/backup/schedule"
	"github.com/opsboard/opsboard/board/internal/mail/dedupe"
	"github.com/opsboard/opsboard/board/internal/mail/ingest"
	"github.com/opsboard/opsboard/board/internal/rules/hierarchy"
	"github.com/opsboard/opsboard/board/internal/rules/labels"
	"github.com/opsboard/opsboard/board/internal/serve"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/board/internal/web"
	"github.com/opsboard/opsboard/shared/wire"
)

// release is the board's version, reported by /api/health.
const release = "0.1.0"

type config struct {
	addr         string
	data         string
	allowedHosts []string
	verify       bool
	searchURL    string
	guardURL     string // the guard sidecar; "" runs without one
	principal    string // the person's own address, for trust derivation
	timeouts     serve.Timeouts
	maxConns     int // connections served at once; the rest wait in the kernel's queue
	zone         *time.Location
	toolDir      string // where `make build` puts the tool servers: beside this executable
	// ingestInterval is the scheduled mail ingest's period ("" defers to
	// the ingestInterval preference; off when neither is set).
	ingestInterval string
	// vault is the vault folder; vaultConfigured says the flag or
	// SVC_VAULT_DIR named it, so the board does not create it when missing.
	vault           string
	vaultConfigured bool
}

func loadConfig(args []string) (config, error) {
	fs := flag.NewFlagSet("board", flag.ContinueOnError)
	cfg, finish, err := configFlags(fs)
	if err != nil {
		return *cfg, err
	}
	if err := fs.Parse(args); err != nil {
		return *cfg, err
	}
	finish()
	return *cfg, nil
}

// configFlags defines the daemon's settings on fs, defaulting from the
// environment; `board ingest` shares them to find the same board. Call
// finish after parsing.
func configFlags(fs *flag.FlagSet) (cfg *config, finish func(), err error) {
	cfg = &config{
		addr:           envOr("SVC_BOARD_ADDR", "127.0.0.1:3000"),
		data:           envOr("SVC_BOARD_DATA", defaultDataPath()),
		verify:         os.Getenv("SVC_BOARD_VERIFY") == "1",
		searchURL:      envOr("SVC_SEARCH_URL", "http://127.0.0.1:8008"),
		guardURL:       envOr("SVC_GUARD_URL", "http://127.0.0.1:8009"),
		principal:      os.Getenv("SVC_PRINCIPAL_EMAIL"),
		ingestInterval: os.Getenv("SVC_INGEST_INTERVAL"),
	}
	hosts := os.Getenv("SVC_BOARD_ALLOWED_HOSTS")
	for _, d := range []struct {
		env string
		dst *time.Duration
	}{
		{"SVC_BOARD_READ_HEADER_TIMEOUT", &cfg.timeouts.ReadHeader}, {"SVC_BOARD_BODY_TIMEOUT", &cfg.timeouts.Body},
		{"SVC_BOARD_WRITE_TIMEOUT", &cfg.timeouts.Write}, {"SVC_BOARD_IDLE_TIMEOUT", &cfg.timeouts.Idle},
	} {
		if v := os.Getenv(d.env); v != "" {
			if *d.dst, err = time.ParseDuration(v); err != nil {
				return cfg, nil, fmt.Errorf("%s=%q: %w", d.env, v, err)
			}
		}
	}
	cfg.maxConns = serve.ConnLimit()
	if v := os.Getenv("SVC_BOARD_MAX_CONNS"); v != "" {
		if cfg.maxConns, err = strconv.Atoi(v); err != nil || cfg.maxConns < 1 {
			return cfg, nil, fmt.Errorf("SVC_BOARD_MAX_CONNS=%q is not a positive number", v)
		}
	}
	fs.StringVar(&cfg.addr, "addr", cfg.addr, "listen address (SVC_BOARD_ADDR)")
	fs.StringVar(&cfg.data, "data", cfg.data, "path of the store document (SVC_BOARD_DATA)")
	fs.StringVar(&cfg.searchURL, "search-url", cfg.searchURL, "semantic search sidecar (SVC_SEARCH_URL)")
	fs.StringVar(&cfg.guardURL, "guard-url", cfg.guardURL, "guard sidecar (SVC_GUARD_URL)")
	fs.StringVar(&cfg.principal, "principal", cfg.principal, "your own email address, for sender trust (SVC_PRINCIPAL_EMAIL; else the principalEmail setting)")
	fs.DurationVar(&cfg.timeouts.ReadHeader, "read-header-timeout", cfg.timeouts.ReadHeader, "bound on a request's headers, 0 for 10s (SVC_BOARD_READ_HEADER_TIMEOUT)")
	fs.DurationVar(&cfg.timeouts.Body, "body-timeout", cfg.timeouts.Body, "bound on a request's body, 0 for 30s (SVC_BOARD_BODY_TIMEOUT)")
	fs.DurationVar(&cfg.timeouts.Write, "write-timeout", cfg.timeouts.Write, "bound on writing an answer, not the live stream, 0 for 60s (SVC_BOARD_WRITE_TIMEOUT)")
	fs.DurationVar(&cfg.timeouts.Idle, "idle-timeout", cfg.timeouts.Idle, "how long an idle keep-alive connection stays open, 0 for 60s (SVC_BOARD_IDLE_TIMEOUT)")
	fs.IntVar(&cfg.maxConns, "max-conns", cfg.maxConns, "connections served at once; default min(512, open-file limit - 128) (SVC_BOARD_MAX_CONNS)")
	fs.StringVar(&hosts, "allowed-hosts", hosts, "comma-separated extra Host names to answer (SVC_BOARD_ALLOWED_HOSTS)")
	fs.StringVar(&cfg.vault, "vault", "", "the vault folder of pages, e.g. an Obsidian vault (SVC_VAULT_DIR; default vault/ beside the data file)")
	fs.StringVar(&cfg.ingestInterval, "ingest-interval", cfg.ingestInterval, "read the mail sources this often, e.g. 15m (SVC_INGEST_INTERVAL; else the ingestInterval preference; off when neither)")
	return cfg, func() {
		cfg.zone = machineZone(os.Getenv("TZ"))
		cfg.vault, cfg.vaultConfigured = vaultFolder(cfg.vault, cfg.data)
		if exe, err := os.Executable(); err == nil {
			cfg.toolDir = filepath.Dir(exe)
		}
		for _, h := range strings.Split(hosts, ",") {
			if h = strings.TrimSpace(h); h != "" {
				cfg.allowedHosts = append(cfg.allowedHosts, h)
			}
		}
	}, nil
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// defaultDataPath follows the XDG base directory convention.
func defaultDataPath() string {
	base := os.Getenv("XDG_DATA_HOME")
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			home = "."
		}
		base = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(base, "opsboard", "board.json")
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "restore" {
		if err := restore(os.Stdout, os.Args[2:], time.Now()); err != nil {
			fmt.Fprintln(os.Stderr, "board restore:", err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) > 1 && os.Args[1] == "backup" {
		os.Exit(backupCommand(os.Args[2:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if len(os.Args) > 1 && os.Args[1] == "export" {
		os.Exit(exportCommand(os.Args[2:], os.Stdout, os.Stderr, time.Now()))
	}
	if len(os.Args) > 1 && os.Args[1] == "import" {
		os.Exit(importCommand(os.Args[2:], os.Stdout, os.Stderr))
	}
	if len(os.Args) > 1 && os.Args[1] == "ingest" {
		os.Exit(ingestCommand(log, os.Args[2:], os.Stdout, os.Stderr))
	}
	if len(os.Args) > 1 && os.Args[1] == "demo" {
		os.Exit(demoCommand(log, os.Args[2:], os.Stdout))
	}
	if err := run(log, os.Args[1:]); err != nil {
		log.Error("board", "err", err)
		fmt.Fprintln(os.Stderr, "board:", err)
		os.Exit(1)
	}
}

func run(log *slog.Logger, args []string) error {
	cfg, err := loadConfig(args)
	if err != nil {
		return err
	}
	bundles, err := labels.Load()
	if err != nil {
		return err
	}
	checkTree := func(d *wire.Doc) error { return hierarchy.Check(d.Cases.Slice()) }
	scfg := store.Config{Path: cfg.data, Logger: log, Zone: cfg.zone, MessageKey: dedupe.Key, Seed: labels.SeedUniversal(bundles), Check: checkTree}
	if cfg.verify {
		scfg.Verify = checkTree
	}
	// Bind first: a board that cannot listen (the port is taken) must fail
	// before it creates, locks or seeds anything in the data directory.
	ln, err := serve.Listen(cfg.addr, cfg.maxConns)
	if err != nil {
		return err
	}
	defer ln.Close()
	st, err := store.Open(scfg)
	if err != nil {
		return err
	}
	bset, err := backup.SettingsFrom(os.Getenv, cfg.data)
	if err != nil {
		st.Close()
		return err
	}
	// The board backs up its committed state: a consistent moment, never
	// a file copied mid-write.
	backups := schedule.New(schedule.Config{Settings: bset, Log: log, Zone: cfg.zone,
		Source: func(context.Context) (*wire.Doc, error) { return st.DocWithBodies(st.Snapshot()), nil }})
	backups.ScheduleDaily()
	folder, hook := openVault(log, cfg, st)
	defer folder.Close()
	ingestHealth := ingest.NewSourceHealth()
	a, router := api.New(api.Config{Store: st, Version: release, Logger: log, AllowedHosts: cfg.allowedHosts, SearchURL: cfg.searchURL,
		GuardURL: cfg.guardURL, PrincipalEmail: cfg.principal, Zone: cfg.zone, Backups: backups, ToolDir: cfg.toolDir, Bundles: bundles, Vault: folder.v,
		Ingest: ingestHealth.Health})
	hook.attach(a)
	web.Mount(router) // the page, for every path outside /api
	srv := serve.NewServer(router, cfg.timeouts, func(r *http.Request) bool { return r.URL.Path == "/api/stream" })
	srv.RegisterOnShutdown(a.Close) // end live streams so Shutdown does not wait on them
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	log.Info("board.listening", "url", "http://"+ln.Addr().String(), "data", st.Path(), "max_conns", cfg.maxConns)
	go scheduleIngest(ctx, log, cfg, "http://"+ln.Addr().String(), ingestHealth)
	select {
	case err := <-errc:
		backups.Close() // a run in flight stops before the store closes
		st.Close()
		return err
	case <-ctx.Done():
	}
	log.Info("board.shutdown")
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Warn("board.shutdown", "err", err) // long-lived streams are cut
	}
	backups.Close()
	return st.Close()
}

// machineZone is the machine's time zone under its IANA name (TZ, else the
// target of /etc/localtime), so the board can name it; UTC when neither
// gives a name.
func machineZone(tz string) *time.Location {
	name := strings.TrimPrefix(tz, ":")
	if name == "" {
		if target, err := os.Readlink("/etc/localtime"); err == nil {
			if _, after, ok := strings.Cut(target, "zoneinfo/"); ok {
				name = after
			}
		}
	}
	if loc, err := time.LoadLocation(name); err == nil && name != "" && name != "Local" {
		return loc
	}
	return time.UTC
}
