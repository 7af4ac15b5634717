// Package server is the guard sidecar's HTTP face: screening (/scan,
// /classify), settings (/config, /models), health (/healthz, /stats) and
// the sender-trust and quarantine lists. Handlers decode, call the
// classifier or the store, and answer; the rules live in those packages.
package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/mux"

	"github.com/opsboard/opsboard/shared/httpaddr"
	"github.com/opsboard/opsboard/shared/jsonbody"
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
	Now     func() time.Time
	Logger  *slog.Logger
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

// Handler routes the sidecar's endpoints behind the loopback check.
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
		writeJSON(w, http.StatusNotFound, errorBody(fmt.Sprintf("no route %s %s", r.Method, r.URL.Path)))
	})
	r.MethodNotAllowedHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusMethodNotAllowed, errorBody(fmt.Sprintf("method %s not allowed on %s", r.Method, r.URL.Path)))
	})
	return local(r)
}

// local keeps the sidecar to this machine's own callers. A foreign Host is
// refused (a web page reaching it through DNS rebinding), and so is a write
// from a web origin or with a non-JSON body: a page on any site could
// otherwise post a form to 127.0.0.1 and switch the guard off.
func local(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if host := httpaddr.Host(r.Host); !httpaddr.Loopback(host) {
			writeJSON(w, http.StatusForbidden, errorBody(fmt.Sprintf("host %q is not allowed: the guard sidecar answers on loopback addresses only", host)))
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			if o := r.Header.Get("Origin"); o != "" {
				if u, err := url.Parse(o); err != nil || !httpaddr.Loopback(httpaddr.Host(u.Host)) {
					writeJSON(w, http.StatusForbidden, errorBody(fmt.Sprintf("origin %q may not write to the guard", o)))
					return
				}
			}
			if hasBody(r) && !isJSON(r.Header.Get("Content-Type")) {
				writeJSON(w, http.StatusUnsupportedMediaType, errorBody("a request body must be sent as Content-Type: application/json"))
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

func hasBody(r *http.Request) bool {
	return r.ContentLength > 0 || (r.ContentLength < 0 && r.Body != nil && r.Body != http.NoBody)
}

func isJSON(ct string) bool {
	mt, _, _ := strings.Cut(ct, ";")
	return strings.EqualFold(strings.TrimSpace(mt), "application/json")
}

// badRequest is a 400 raised while decoding.
type badRequest struct{ msg string }

func (e *badRequest) Error() string { return e.msg }

func bad(format string, args ...any) error { return &badRequest{fmt.Sprintf(format, args...)} }

// fail maps an error to its status in one place and writes { error }.
func (s *Server) fail(w http.ResponseWriter, err error) {
	var (
		br   *badRequest
		sbr  *guardstore.BadRequestError
		nf   *guardstore.NotFoundError
		big  *http.MaxBytesError
		code = http.StatusInternalServerError
	)
	switch {
	case errors.As(err, &br), errors.As(err, &sbr):
		code = http.StatusBadRequest
	case errors.As(err, &nf):
		code = http.StatusNotFound
	case errors.As(err, &big):
		code = http.StatusRequestEntityTooLarge
		err = fmt.Errorf("request body is larger than %d bytes", maxBody)
	default:
		s.log.Error("guard.internal", "err", err)
	}
	writeJSON(w, code, errorBody(err.Error()))
}

func errorBody(msg string) map[string]string { return map[string]string{"error": msg} }

func writeJSON(w http.ResponseWriter, code int, v any) {
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(v); err != nil {
		code = http.StatusInternalServerError
		buf.Reset()
		fmt.Fprintf(&buf, "{\"error\":%q}\n", "encode response: "+err.Error())
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	w.Write(buf.Bytes())
}

// decode reads a JSON object body into v, refusing anything else (null, an
// array, unknown fields, wrong types, trailing data, oversized bodies) with
// a message that names the problem.
func decode(w http.ResponseWriter, r *http.Request, v any) error {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		return err
	}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return bad("the request body must be a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return bad("%s", jsonbody.Problem(err))
	}
	if dec.More() {
		return bad("the request body has data after the JSON object")
	}
	return nil
}

// pathVar is a route variable, unescaped.
func pathVar(r *http.Request, name string) (string, error) {
	v, err := url.PathUnescape(mux.Vars(r)[name])
	if err != nil {
		return "", bad("%s %q is not a valid path segment", name, mux.Vars(r)[name])
	}
	return v, nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
