package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/opsboard/opsboard/board/internal/mail/ingest"
	"github.com/opsboard/opsboard/shared/guardclient"
)

// ingestCommand is `board ingest [--source NAME] [--dry-run] [--json]` (or
// `board ingest login SOURCE`, see ingestLoginCommand): one
// run over the mail sources against the running board. It returns the exit
// code: 0 when every source was read (unscanned mail included), 1 when the
// board is unreachable or a source failed, 2 on bad usage.
func ingestCommand(log *slog.Logger, args []string, stdout io.Writer) int {
	if len(args) > 0 && args[0] == "login" {
		return ingestLoginCommand(args[1:], os.Stdin, stdout, os.Stderr)
	}
	fs := flag.NewFlagSet("board ingest", flag.ContinueOnError)
	cfg, finish, err := configFlags(fs)
	if err != nil {
		fmt.Fprintln(os.Stderr, "board ingest:", err)
		return 2
	}
	only := fs.String("source", "", "read only the source with this name")
	dry := fs.Bool("dry-run", false, "print the report and write nothing")
	asJSON := fs.Bool("json", false, "print the report as one JSON object")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	finish()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	rep, err := runIngest(ctx, log, *cfg, *only, *dry)
	if err != nil {
		log.Error("ingest", "err", err)
		fmt.Fprintln(os.Stderr, "board ingest:", err)
		rep.Errors = append(rep.Errors, err.Error())
	}
	if *asJSON {
		data, _ := json.Marshal(rep)
		fmt.Fprintln(stdout, string(data))
	} else {
		fmt.Fprintf(stdout, "fetched %d, new %d, duplicates %d, quarantined %d, blocked %d, unscanned %d\nrouted: case %d, reminder %d, inbox %d\n",
			rep.Fetched, rep.New, rep.Duplicates, rep.Quarantined, rep.Blocked, rep.Unscanned, rep.Routed.Case, rep.Routed.Reminder, rep.Routed.Inbox)
		if rep.Replayed > 0 {
			fmt.Fprintf(stdout, "released from quarantine: %d\n", rep.Replayed)
		}
		for _, e := range rep.Errors {
			fmt.Fprintln(stdout, "error:", e)
		}
	}
	if err != nil || rep.SourceFailed {
		return 1
	}
	return 0
}

// runIngest runs the pipeline with the sources file beside the board's data.
func runIngest(ctx context.Context, log *slog.Logger, cfg config, only string, dry bool) (ingest.Report, error) {
	rep := ingest.Report{Errors: []string{}}
	dir := filepath.Dir(cfg.data)
	sources, err := ingest.LoadConfig(filepath.Join(dir, ingest.ConfigName))
	if err != nil {
		return rep, err
	}
	var guard *guardclient.Client
	if cfg.guardURL != "" {
		if guard, err = guardclient.New(cfg.guardURL, guardclient.WithTimeout(10*time.Second)); err != nil {
			return rep, err
		}
	}
	return ingest.Run(ctx, ingest.Options{Board: ingest.NewBoard(cfg.addr), Guard: guard, Config: sources, StateDir: dir,
		Only: only, DryRun: dry, Logger: log})
}
