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

// ingestCommand is `board ingest [--source NAME] [--since YYYY-MM-DD]
// [--dry-run] [--json]` (or `board ingest login SOURCE`, see
// ingestLoginCommand): one
// run over the mail sources against the running board. It returns the exit
// code: 0 when every source was read (unscanned mail included), 1 when the
// board is unreachable or a source failed, 2 on bad usage.
func ingestCommand(log *slog.Logger, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "login" {
		return ingestLoginCommand(args[1:], os.Stdin, stdout, stderr)
	}
	fs := flag.NewFlagSet("board ingest", flag.ContinueOnError)
	cfg, finish, err := configFlags(fs)
	if err != nil {
		fmt.Fprintln(stderr, "board ingest:", err)
		return 2
	}
	only := fs.String("source", "", "read only the source with this name")
	since := fs.String("since", "", "leave out mail dated before this day (YYYY-MM-DD), for every source of this run")
	dry := fs.Bool("dry-run", false, "print the report and write nothing")
	asJSON := fs.Bool("json", false, "print the report as one JSON object")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	finish()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	prog := newProgress(stderr, "board ingest", "messages", -1)
	rep, err := runIngest(ctx, log, *cfg, ingestRun{only: *only, since: *since, dry: *dry, onRead: func() { prog.add(1) }})
	prog.done(fmt.Sprintf("%d new, %d duplicates, %d older than since, %d quarantined, %d errors",
		rep.New, rep.Duplicates, rep.OlderSkipped, rep.Quarantined, len(rep.Errors)))
	if err != nil {
		log.Error("ingest", "err", err)
		fmt.Fprintln(stderr, "board ingest:", err)
		rep.Errors = append(rep.Errors, err.Error())
	}
	if *asJSON {
		data, _ := json.Marshal(rep)
		fmt.Fprintln(stdout, string(data))
	} else {
		fmt.Fprintf(stdout, "fetched %d, new %d, duplicates %d, quarantined %d, blocked %d, unscanned %d\nrouted: case %d, reminder %d, inbox %d\n",
			rep.Fetched, rep.New, rep.Duplicates, rep.Quarantined, rep.Blocked, rep.Unscanned, rep.Routed.Case, rep.Routed.Reminder, rep.Routed.Inbox)
		if rep.OlderSkipped > 0 {
			fmt.Fprintf(stdout, "older than the since date, left out: %d\n", rep.OlderSkipped)
		}
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

// ingestRun is what one command line asks of a run.
type ingestRun struct {
	only, since string
	dry         bool
	onRead      func() // each message read, for the progress
}

// runIngest runs the pipeline with the sources file beside the board's data.
func runIngest(ctx context.Context, log *slog.Logger, cfg config, run ingestRun) (ingest.Report, error) {
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
		Only: run.only, Since: run.since, DryRun: run.dry, Zone: cfg.zone, OnRead: run.onRead, Logger: log})
}
