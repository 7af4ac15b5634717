package server

import (
	"context"
	"fmt"

	"github.com/opsboard/opsboard/sidecar-search/internal/embed"
	"github.com/opsboard/opsboard/sidecar-search/internal/index"
)

// fetches says Run should download the model: the setting lets the
// sidecar choose (auto), a hub is configured, and the directory lacks a
// file of the model. A directory holding every file is never fetched into,
// even when the model there does not load: that is the person's model.
func (s *Server) fetches() bool {
	auto := s.cfg.Embedder == "" || s.cfg.Embedder == "auto"
	return auto && s.cfg.Hub != nil && s.cfg.ModelDir != "" && !embed.Potion.Present(s.cfg.ModelDir)
}

// fetchModel downloads the model while the hash embedder serves, then
// loads it, switches to it and reindexes. Files that arrived but do not
// load are deleted, so the next start fetches them again.
func (s *Server) fetchModel(ctx context.Context) {
	s.log.Info("search.download", "repo", embed.Potion.ID, "revision", embed.Potion.Revision, "dir", s.cfg.ModelDir, "hub", s.cfg.Hub.Base)
	if err := s.cfg.Hub.Fetch(ctx, embed.Potion, s.cfg.ModelDir, &s.download); err != nil {
		if ctx.Err() == nil {
			s.log.Warn("search.download", "state", s.download.Status().State, "err", err, "serving", "hash")
		}
		return
	}
	e, err := embed.Select("model2vec", s.cfg.ModelDir, s.log)
	if err != nil {
		if rerr := embed.Potion.Remove(s.cfg.ModelDir); rerr != nil {
			s.log.Warn("search.download", "remove", rerr)
		}
		s.download.Fail(fmt.Errorf("the downloaded model did not load and was deleted: %w", err))
		s.log.Warn("search.download", "err", err, "serving", "hash")
		return
	}
	e.Embed(make([]float32, e.Dim()), "warm up")
	if err := s.switchTo(ctx, e); err != nil {
		if ctx.Err() == nil {
			s.download.Fail(fmt.Errorf("the model loaded but the index could not be rebuilt with it: %w", err))
			s.log.Warn("search.download", "err", err, "serving", "hash")
		}
		return
	}
	s.download.Done()
	s.log.Info("search.download", "state", "done", "embedder", e.Name())
}

// switchTo builds a new index with e beside the one serving, then swaps
// both in at once: searches keep the hash embedder's answers until the
// model's index is whole. Both indexes live in memory for that moment.
func (s *Server) switchTo(ctx context.Context, e embed.Embedder) error {
	s.refreshMu.Lock()
	defer s.refreshMu.Unlock()
	ref := &embedderRef{e: e, ix: index.New()}
	if _, err := s.rebuild(ctx, ref, s.currentStamp(), true); err != nil {
		return err
	}
	s.emb.Store(ref)
	return nil
}
