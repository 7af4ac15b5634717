package main

import (
	"context"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"github.com/opsboard/opsboard/board/internal/mail/ingest"
)

// scheduleIngest runs the mail ingest inside the daemon on the interval
// the flag or environment sets, else the ingestInterval preference; off
// when neither is set. Once it is on, mail also comes in as it arrives
// (IMAP IDLE, watched folders), and health keeps each source's last run.
func scheduleIngest(ctx context.Context, log *slog.Logger, cfg config, self string, health *ingest.SourceHealth) {
	fixed, err := ingest.ParseInterval(cfg.ingestInterval)
	if err != nil {
		log.Warn("ingest.schedule", "err", err)
	}
	board := ingest.NewBoard(self)
	cfg.addr = self
	interval := func(ctx context.Context) time.Duration {
		if fixed > 0 {
			return fixed
		}
		prefs, err := board.Prefs(ctx)
		if err != nil {
			return 0
		}
		return ingest.PrefsInterval(prefs)
	}
	tick := time.Minute
	if fixed > 0 && fixed < tick {
		tick = fixed
	}
	var mu sync.Mutex // one run at a time: the runs share the watermarks file
	run := func(ctx context.Context, only string) {
		mu.Lock()
		defer mu.Unlock()
		scheduledRun(ctx, log, cfg, only, health)
	}
	go watchIngest(ctx, log, cfg, tick, interval, func(c ingest.Config) {
		health.Know(c)
		ingest.Watch(ctx, ingest.WatchOptions{Config: c, Logger: log, Run: run})
	})
	ingest.Schedule(ctx, tick, interval, func(ctx context.Context) { run(ctx, "") })
}

// scheduledRun is one run of the daemon's (all sources, or only one) and
// notes each source's outcome.
func scheduledRun(ctx context.Context, log *slog.Logger, cfg config, only string, health *ingest.SourceHealth) {
	rep, err := runIngest(ctx, log, cfg, ingestRun{only: only})
	if err != nil {
		log.Warn("ingest.scheduled", "source", only, "err", err)
		return
	}
	sources, err := ingest.LoadConfig(filepath.Join(filepath.Dir(cfg.data), ingest.ConfigName))
	if err == nil {
		var names []string
		for _, s := range sources.Sources {
			if only == "" || s.Name == only {
				names = append(names, s.Name)
			}
		}
		health.NoteRun(names, rep, time.Now())
	}
	log.Info("ingest.scheduled", "source", only, "fetched", rep.Fetched, "new", rep.New, "duplicates", rep.Duplicates, "quarantined", rep.Quarantined, "errors", len(rep.Errors))
}

// watchIngest calls watch (which runs until ctx ends) once the scheduled ingest is on
// (asked every tick) and its sources file reads; the sources file is read
// once, so a change to it takes a restart to be watched.
func watchIngest(ctx context.Context, log *slog.Logger, cfg config, tick time.Duration, interval func(context.Context) time.Duration, watch func(ingest.Config)) {
	t := time.NewTicker(tick)
	defer t.Stop()
	for {
		if interval(ctx) > 0 {
			sources, err := ingest.LoadConfig(filepath.Join(filepath.Dir(cfg.data), ingest.ConfigName))
			if err == nil {
				watch(sources)
				return
			}
			log.Warn("ingest.watch", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
