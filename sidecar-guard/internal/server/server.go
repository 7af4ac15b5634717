// Package server is the guard sidecar's HTTP face: screening (/scan,
// /classify), settings (/config, /models), health (/healthz, /stats) and
// the sender-trust and quarantine lists. Handlers decode, call the
// classifier or the store, and answer; the rules live in those packages.
package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/mux"

	"github.com/opsboard/opsboard/shared/httpjson"
	"github.com/opsboard/opsboard/shared/wire"
	"github.com/opsboard/opsboard/sidecar-guard/internal/classify"
	"github.com/opsboard/opsboard/sidecar-guard/internal/guardstore"
)

// Request limits.
const (
	maxBody  = wire.MaxGuardBody
	MaxTexts = wire.MaxGuardTexts
)

// Config is everything the server is wired with.
type Config struct {
	Store      *guardstore.Store
	Classifier *classify.Classifier
	Choice     classify.Choice // the model the sidecar was started with
	// ModelID is the id the loaded model reports; "" uses the choice's.
	ModelID string
	// DirOf is the model directory of a preset (the active one honours
	// SVC_GUARD_MODEL_DIR).
	DirOf   func(classify.Preset) string
	Prober  *classify.Prober
	HFToken bool // HF_TOKEN is set
	// Download reports the model's download (nil: idle, none was needed).
	Download func() wire.ModelDownload
	Now      func() time.Time
	Logger   *slog.Logger
	// PurgeEvery is how often expired released records are removed (1h).
	PurgeEvery time.Duration
}

// Server serves one store and one classifier.
type Server struct {
	cfg     Config
	log     *slog.Logger
	started time.Time

	scans, flagged, classified, fallbacks, modelErrors atomic.Int64

	lastMu   sync.Mutex
	lastScan time.Time
}

// New returns a server; Run purges in the background.
func New(cfg Config) *Server {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.PurgeEvery <= 0 {
		cfg.PurgeEvery = time.Hour
	}
	if cfg.Prober == nil {
		cfg.Prober = classify.NewProber(nil, 0, cfg.Now)
	}
	if cfg.Download == nil {
		cfg.Download = func() wire.ModelDownload { return wire.ModelDownload{State: wire.DownloadIdle} }
	}
	if cfg.DirOf == nil {
		cfg.DirOf = func(classify.Preset) string { return "" }
	}
	return &Server{cfg: cfg, log: cfg.Logger, started: cfg.Now()}
}

// Run removes released, unreplayed records past their retention now and
// then every PurgeEvery, until ctx ends.
func (s *Server) Run(ctx context.Context) {
	t := time.NewTicker(s.cfg.PurgeEvery)
	defer t.Stop()
	for {
		if n, err := s.cfg.Store.Purge(ctx); err != nil && ctx.Err() == nil {
			s.log.Warn("guard.purge", "err", err)
		} else if n > 0 {
			s.log.Info("guard.purge", "removed", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Handler routes the sidecar's endpoints behind the local-only check.
func (s *Server) Handler() http.Handler {
	r := mux.NewRouter()
	// Encoded paths keep an escaped "/" inside an email or id one segment.
	r.UseEncodedPath()
	r.HandleFunc("/scan", s.scan).Methods(http.MethodPost)
	r.HandleFunc("/classify", s.classify).Methods(http.MethodPost)
	r.HandleFunc("/config", s.getConfig).Methods(http.MethodGet)
	r.HandleFunc("/config", s.postConfig).Methods(http.MethodPost)
	r.HandleFunc("/models", s.models).Methods(http.MethodGet)
	r.HandleFunc("/healthz", s.healthz).Methods(http.MethodGet)
	r.HandleFunc("/stats", s.stats).Methods(http.MethodGet)
	r.HandleFunc("/trust", s.listTrust).Methods(http.MethodGet)
	r.HandleFunc("/trust", s.upsertTrust).Methods(http.MethodPost)
	r.HandleFunc("/trust/{email}", s.deleteTrust).Methods(http.MethodDelete)
	r.HandleFunc("/quarantine", s.listQuarantine).Methods(http.MethodGet)
	r.HandleFunc("/quarantine/{id}", s.patchQuarantine).Methods(http.MethodPatch)
	r.NotFoundHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		httpjson.ReplyError(w, http.StatusNotFound, fmt.Sprintf("no route %s %s", r.Method, r.URL.Path))
	})
	r.MethodNotAllowedHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		httpjson.ReplyError(w, http.StatusMethodNotAllowed, fmt.Sprintf("method %s not allowed on %s", r.Method, r.URL.Path))
	})
	// A page on any site could otherwise post to 127.0.0.1 and switch the
	// guard off; a local tool's page on another port may still write.
	return httpjson.LocalOnly(httpjson.Local{
		HostRefusal:   "host %q is not allowed: the guard sidecar answers on loopback addresses only",
		OriginRefusal: "origin %q may not write to the guard",
	})(r)
}

// bodies reads request bodies: strictly, and within maxBody.
var bodies = httpjson.Decoder{Limit: maxBody}

// fail maps an error to its status in one place and writes { error }.
func (s *Server) fail(w http.ResponseWriter, err error) {
	var (
		he   *httpjson.Error
		sbr  *guardstore.BadRequestError
		nf   *guardstore.NotFoundError
		code = http.StatusInternalServerError
	)
	switch {
	case errors.As(err, &he):
		code = he.Status
	case errors.As(err, &sbr):
		code = http.StatusBadRequest
	case errors.As(err, &nf):
		code = http.StatusNotFound
	default:
		s.log.Error("guard.internal", "err", err)
	}
	httpjson.ReplyError(w, code, err.Error())
}

// pathVar is a route variable, unescaped.
func pathVar(r *http.Request, name string) (string, error) {
	v, err := url.PathUnescape(mux.Vars(r)[name])
	if err != nil {
		return "", httpjson.BadRequest("%s %q is not a valid path segment", name, mux.Vars(r)[name])
	}
	return v, nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
