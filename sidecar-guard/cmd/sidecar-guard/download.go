package main

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/opsboard/opsboard/shared/hub"
	"github.com/opsboard/opsboard/shared/wire"
	"github.com/opsboard/opsboard/sidecar-guard/internal/classify"
)

// hubClient is the model hub to fetch from, nil when downloads are off.
func (c config) hubClient(log *slog.Logger) *hub.Client {
	if strings.EqualFold(strings.TrimSpace(c.hub), hub.Off) {
		return nil
	}
	return &hub.Client{Base: c.hub, Progress: hub.StderrProgress(log), Token: c.token}
}

// modelFetch downloads the active preset's model while the heuristic
// answers, then loads it and puts it in the heuristic's place.
type modelFetch struct {
	log     *slog.Logger
	client  *hub.Client
	preset  classify.Preset
	dir     string
	rt      classify.Runtime
	swap    *classify.Swap
	prober  *classify.Prober
	tracker *hub.Tracker
}

// newFetch is the download this start needs, or nil: only auto downloads,
// only a preset that names its files, only when the model did not load
// and its directory lacks a file. A directory holding every file is the
// person's, even when it does not load.
func newFetch(cfg config, loaded classify.Backend, f modelFetch) *modelFetch {
	p := cfg.choice.Preset
	f.preset, f.dir, f.client = p, cfg.dirOf(p), cfg.hubClient(f.log)
	if _, isModel := loaded.(*classify.Model); isModel || cfg.mode != classify.ModeAuto || p.Download == nil || f.client == nil || p.Download.Present(f.dir) {
		return nil
	}
	f.tracker = &hub.Tracker{}
	// Said from the first answer on: the download starts once the server
	// listens.
	f.tracker.Start(p.Download.Files[0].Remote)
	return &f
}

// status is the download as /config and /healthz report it.
func (f *modelFetch) status() wire.ModelDownload {
	if f == nil {
		return wire.ModelDownload{State: wire.DownloadIdle}
	}
	return f.tracker.Status()
}

// run downloads, loads and swaps in the model. Files that arrived but do
// not load are deleted, so the next start fetches them again.
func (f *modelFetch) run(ctx context.Context) {
	repo := *f.preset.Download
	f.log.Info("guard.download", "repo", repo.ID, "revision", repo.Revision, "dir", f.dir, "hub", f.client.Base)
	err := f.client.Fetch(ctx, repo, f.dir, f.tracker)
	f.prober.Forget(f.dir)
	if err != nil {
		if ctx.Err() == nil {
			f.log.Warn("guard.download", "state", f.tracker.Status().State, "err", err, "serving", wire.ClassifierHeuristic)
		}
		return
	}
	m, err := f.rt.Load(ctx, f.dir, f.preset.ModelID)
	if err != nil {
		if rerr := repo.Remove(f.dir); rerr != nil {
			f.log.Warn("guard.download", "remove", rerr)
		}
		f.prober.Forget(f.dir)
		f.tracker.Fail(fmt.Errorf("the downloaded model did not load and was deleted: %w", err))
		f.log.Warn("guard.download", "err", err, "serving", wire.ClassifierHeuristic)
		return
	}
	f.swap.Set(m)
	f.tracker.Done()
	f.log.Info("guard.download", "state", wire.DownloadDone, "classifier", m.Name())
}
