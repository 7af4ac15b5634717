package server

import (
	"net/http"
	"time"

	"github.com/opsboard/opsboard/shared/httpjson"
	"github.com/opsboard/opsboard/shared/wire"
	"github.com/opsboard/opsboard/sidecar-guard/internal/classify"
	"github.com/opsboard/opsboard/sidecar-guard/internal/guardstore"
)

// GET /config
func (s *Server) getConfig(w http.ResponseWriter, r *http.Request) {
	httpjson.Reply(w, http.StatusOK, s.config(s.cfg.Store.Settings()))
}

// POST /config: the sidecar always permits enabling; the board's page is
// what holds the switch back while the model is not ready.
func (s *Server) postConfig(w http.ResponseWriter, r *http.Request) {
	var in wire.GuardConfigPatch
	if err := bodies.Decode(w, r, &in); err != nil {
		s.fail(w, err)
		return
	}
	st, err := s.cfg.Store.PatchSettings(r.Context(), in)
	if err != nil {
		s.fail(w, err)
		return
	}
	if in.Enabled != nil {
		s.log.Info("guard.config", "enabled", st.Enabled)
	}
	httpjson.Reply(w, http.StatusOK, s.config(st))
}

func (s *Server) config(st guardstore.Settings) wire.GuardConfig {
	deps := s.deps(s.cfg.Choice.Preset)
	return wire.GuardConfig{
		Enabled:         st.Enabled,
		Classifier:      s.cfg.Classifier.Name(),
		Model:           s.modelID(),
		Preset:          s.cfg.Choice.Preset.Key,
		Threshold:       s.cfg.Classifier.Threshold(),
		Degraded:        s.cfg.Classifier.Degraded(),
		Ready:           deps.Ready,
		Deps:            deps,
		MaxTokens:       classify.MaxTokens,
		ReleasedTTLDays: st.ReleasedTTLDays,
		Download:        s.cfg.Download(),
	}
}

func (s *Server) deps(p classify.Preset) wire.GuardDeps {
	return classify.DepsOf(p, s.cfg.Prober.Probe(s.cfg.DirOf(p)), s.cfg.HFToken)
}

// GET /models
func (s *Server) models(w http.ResponseWriter, r *http.Request) {
	httpjson.Reply(w, http.StatusOK, classify.Catalog(classify.CatalogConfig{
		Choice: s.cfg.Choice, DirOf: s.cfg.DirOf, Probe: s.cfg.Prober.Probe,
		HFToken: s.cfg.HFToken, ActiveModelID: s.cfg.ModelID,
	}))
}

// GET /healthz
func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	httpjson.Reply(w, http.StatusOK, wire.GuardHealth{OK: true, Enabled: s.cfg.Store.Settings().Enabled, Classifier: s.cfg.Classifier.Name(), Download: s.cfg.Download()})
}

// GET /stats
func (s *Server) stats(w http.ResponseWriter, r *http.Request) {
	out := wire.GuardStats{
		Enabled:     s.cfg.Store.Settings().Enabled,
		Scans:       s.scans.Load(),
		Flagged:     s.flagged.Load(),
		Classified:  s.classified.Load(),
		Trust:       map[wire.Tier]int{wire.TierTrusted: 0, wire.TierBlocked: 0},
		Quarantine:  map[string]int{string(wire.QuarantineHeld): 0, string(wire.QuarantineReleased): 0, string(wire.QuarantineDismissed): 0},
		Classifier:  s.cfg.Classifier.Name(),
		StartedAt:   s.started.UTC().Format(time.RFC3339Nano),
		Fallbacks:   s.fallbacks.Load(),
		ModelErrors: s.modelErrors.Load(),
	}
	for _, t := range s.cfg.Store.Trust() {
		out.Trust[t.Tier]++
	}
	for _, q := range s.cfg.Store.Quarantine() {
		out.Quarantine[string(q.Status)]++
	}
	s.lastMu.Lock()
	if !s.lastScan.IsZero() {
		out.LastScanAt = s.lastScan.UTC().Format(time.RFC3339Nano)
	}
	s.lastMu.Unlock()
	httpjson.Reply(w, http.StatusOK, out)
}
