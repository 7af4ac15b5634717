// Package api is the board's HTTP API under /api: the only write path for the
// web page and the agent alike. Handlers decode, call one rule (cases,
// reminders, approvals, ...) and write the answer; the rules and read queries
// live in their packages, persistence in store.
package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/mux"
	"github.com/opsboard/opsboard/board/internal/backup/schedule"
	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/rules/field"
	"github.com/opsboard/opsboard/board/internal/rules/labels"
	"github.com/opsboard/opsboard/board/internal/rules/nldate"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/httpaddr"
	"github.com/opsboard/opsboard/shared/jsonbody"
	"github.com/opsboard/opsboard/shared/wire"
)

// maxBody bounds every request body.
const maxBody = wire.MaxRequestBody

// maxBodyDepth bounds a body's nesting: a free-form value's limit plus the
// few levels a route's body wraps it in.
const maxBodyDepth = 2 * field.MaxFreeFormDepth

// Config wires the API to its store.
type Config struct {
	Store   *store.Store
	Version string // the board's release, reported by /api/health
	Logger  *slog.Logger
	// AllowedHosts are extra Host names (besides loopback) the board answers,
	// for a person who serves it under a local name.
	AllowedHosts []string
	// SearchURL is the semantic search sidecar; "" means keyword search only.
	SearchURL string
	// StreamHeartbeat is how often /api/stream sends a heartbeat comment
	// (10 s when zero; never more than 15 s).
	StreamHeartbeat time.Duration
	// GuardURL is the guard sidecar; "" means none (its reads are offline,
	// its writes 503, and links push no trust).
	GuardURL string
	// PrincipalEmail is the person's own address (SVC_PRINCIPAL_EMAIL); ""
	// defers to the principalEmail board setting.
	PrincipalEmail string
	// Zone is the machine's time zone, the board's zone until the timezone
	// preference names another; UTC when nil.
	Zone *time.Location
	// ToolDir is the directory the agent's tool servers are built in (beside
	// the board's own executable); GET /api/connect names their paths there.
	ToolDir string
	// Now is the clock of the read routes that depend on today (the agenda);
	// time.Now when nil.
	Now func() time.Time
	// Backups starts and schedules the off-site backup; nil means the
	// board runs without backup settings (GET /api/backups says so, and
	// POST /api/backups/run is refused).
	Backups *schedule.Trigger
	// Bundles are the built-in label bundles the catalog installs from.
	Bundles []labels.Bundle
}

// API serves /api.
type API struct {
	store   *store.Store
	version string
	log     *slog.Logger
	hosts   map[string]bool
	bundles []labels.Bundle

	cacheMu sync.Mutex
	cacheV  int64
	cache   map[string][]byte

	search *searcher // /api/search: the keyword index and the sidecar client

	live *liveStream // GET /api/stream

	gs   *guardSide // the guard proxies and the trust push
	zone *time.Location
	now  func() time.Time

	backups  *schedule.Trigger // nil: no backup settings
	toolDir  string            // GET /api/connect: where the tool servers are built
	guardURL string            // GET /api/connect: the guard bridge's sidecar address

	dates *nldate.Parser // GET /api/dates/parse
}

// New returns the API's router. Other handlers (the web page) may be
// mounted on it by the caller. A GuardURL that is not an http address is
// logged and treated as no guard.
func New(cfg Config) (*API, *mux.Router) {
	a := &API{store: cfg.Store, version: cfg.Version, log: cfg.Logger, hosts: map[string]bool{}, cache: map[string][]byte{}}
	if a.log == nil {
		a.log = slog.Default()
	}
	a.zone, a.now, a.backups = cfg.Zone, cfg.Now, cfg.Backups
	a.toolDir, a.guardURL, a.bundles = cfg.ToolDir, cfg.GuardURL, cfg.Bundles
	if a.zone == nil {
		a.zone = time.UTC
	}
	if a.now == nil {
		a.now = time.Now
	}
	a.dates = nldate.New()
	a.search = newSearcher(cfg.SearchURL, a.log)
	a.live = newLiveStream(cfg.Store, cfg.StreamHeartbeat, a.log)
	if a.backups != nil {
		a.backups.OnRun(a.live.backupEvent)
	}
	a.gs = newGuard(cfg.GuardURL, cfg.PrincipalEmail, a.log)
	for _, h := range cfg.AllowedHosts {
		if h = strings.ToLower(strings.TrimSpace(h)); h != "" {
			a.hosts[h] = true
		}
	}
	r := mux.NewRouter()
	r.Use(a.guard)
	r.NotFoundHandler = a.guard(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.fail(w, errs.NotFound("no route %s %s", r.Method, r.URL.Path))
	}))
	r.MethodNotAllowedHandler = a.guard(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusMethodNotAllowed, wire.ErrorReply{Error: fmt.Sprintf("method %s not allowed on %s", r.Method, r.URL.Path)})
	}))
	a.routes(r.PathPrefix("/api").Subrouter())
	return a, r
}

// guard keeps the board local: a foreign Host (DNS rebinding) is refused,
// and so is a write from another web origin or a write whose body is not JSON.
func (a *API) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, port := splitHost(r.Host)
		if !a.hostAllowed(host) {
			writeJSON(w, http.StatusForbidden, wire.ErrorReply{Error: fmt.Sprintf("host %q is not allowed: the board answers on loopback addresses only (add it to SVC_BOARD_ALLOWED_HOSTS to allow it)", host)})
			return
		}
		if isWrite(r.Method) {
			if o := r.Header.Get("Origin"); o != "" && !a.originAllowed(o, port) {
				writeJSON(w, http.StatusForbidden, wire.ErrorReply{Error: fmt.Sprintf("origin %q may not write to the board", o)})
				return
			}
			if hasBody(r) && !isJSON(r.Header.Get("Content-Type")) {
				writeJSON(w, http.StatusUnsupportedMediaType, wire.ErrorReply{Error: "a request body must be sent as Content-Type: application/json"})
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

func isWrite(m string) bool {
	return m != http.MethodGet && m != http.MethodHead && m != http.MethodOptions
}

func hasBody(r *http.Request) bool {
	return r.ContentLength > 0 || (r.ContentLength < 0 && r.Body != nil && r.Body != http.NoBody)
}

func isJSON(ct string) bool {
	mt, _, _ := strings.Cut(ct, ";")
	return strings.EqualFold(strings.TrimSpace(mt), "application/json")
}

func splitHost(hostport string) (host, port string) {
	h, p, err := net.SplitHostPort(hostport)
	if err != nil {
		return strings.ToLower(strings.Trim(hostport, "[]")), ""
	}
	return strings.ToLower(h), p
}

func (a *API) hostAllowed(h string) bool {
	return a.hosts[h] || httpaddr.Loopback(h)
}

// originAllowed accepts the board's own page: an allowed host on the port the
// request came in on.
func (a *API) originAllowed(origin, port string) bool {
	scheme, rest, ok := strings.Cut(origin, "://")
	if !ok || (scheme != "http" && scheme != "https") {
		return false
	}
	h, p := splitHost(rest)
	if p == "" {
		p = map[string]string{"http": "80", "https": "443"}[scheme]
	}
	return a.hostAllowed(h) && p == port
}

// fail maps an error to its status and writes { error }. Every 4xx and 5xx
// body has that shape.
func (a *API) fail(w http.ResponseWriter, err error) {
	var (
		bad  *errs.BadRequestError
		nf   *errs.NotFoundError
		vc   *errs.VersionConflictError
		un   *errs.UnavailableError
		big  *http.MaxBytesError
		tl   *errs.TooLargeError
		hc   *errs.HumanChangeError
		uc   *errs.UndoConflictError
		code = http.StatusInternalServerError
	)
	switch {
	case errors.As(err, &hc):
		// 400, not 409: 409 stays the answer to a stale expectedVersion.
		writeJSON(w, http.StatusBadRequest, wire.ErrorReply{Error: err.Error(), HumanChange: &wire.HumanChange{Field: hc.Field, Actor: hc.Actor, TS: hc.TS}})
		return
	case errors.As(err, &uc):
		writeJSON(w, http.StatusBadRequest, wire.ErrorReply{Error: err.Error(), Conflicts: uc.Conflicts})
		return
	case errors.As(err, &bad):
		code = http.StatusBadRequest
	case errors.As(err, &nf):
		code = http.StatusNotFound
	case errors.As(err, &vc):
		code = http.StatusConflict
	case errors.As(err, &tl):
		code = http.StatusRequestEntityTooLarge
	case errors.As(err, &big):
		code = http.StatusRequestEntityTooLarge
		err = fmt.Errorf("request body is larger than %d bytes", maxBody)
	case errors.As(err, &un):
		code = http.StatusServiceUnavailable
	default:
		a.log.Error("api.internal", "err", err)
	}
	writeJSON(w, code, wire.ErrorReply{Error: err.Error()})
}

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

func (a *API) reply(w http.ResponseWriter, code int, v any) { writeJSON(w, code, v) }

// decode reads a JSON object body into v. It refuses anything that is not an
// object (null included), unknown fields, trailing data and oversized bodies,
// with a message that names the problem.
func decode(w http.ResponseWriter, r *http.Request, v any) error {
	return decodeWithin(w, r, v, maxBody)
}

// decodeWithin is decode with a bound of limit bytes.
func decodeWithin(w http.ResponseWriter, r *http.Request, v any, limit int64) error {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		return err
	}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return errs.BadRequest("the request body must be a JSON object")
	}
	// No body needs more than a free-form value's nesting and a few levels
	// around it; refuse deeper ones before decoding, naming the field.
	if depth, key := field.Depth(trimmed); depth > maxBodyDepth {
		return errs.BadRequest("field '%s' is nested %d levels deep; at most %d are allowed", key, depth-1, field.MaxFreeFormDepth)
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return errs.BadRequest("%s", jsonbody.Problem(err))
	}
	if dec.More() {
		return errs.BadRequest("the request body has data after the JSON object")
	}
	return nil
}

// decodeOptional is decode for routes whose body may be absent.
func decodeOptional(w http.ResponseWriter, r *http.Request, v any) error {
	if !hasBody(r) {
		return nil
	}
	return decode(w, r, v)
}

// actorOf resolves attribution: agent when the header or the body says so,
// human otherwise. Callers never claim system.
func actorOf(r *http.Request, bodyActor wire.Actor) wire.Actor {
	header := r.Header.Get("x-actor")
	if strings.EqualFold(header, string(wire.ActorAgent)) || strings.EqualFold(string(bodyActor), string(wire.ActorAgent)) {
		return wire.ActorAgent
	}
	// The board's own jobs (the mail ingest) write as the system; only the
	// header says so, so a body cannot claim it.
	if strings.EqualFold(header, string(wire.ActorSystem)) {
		return wire.ActorSystem
	}
	return wire.ActorHuman
}

// serveCached answers a read from the cache of encoded bodies for the
// current version, with an ETag so an unchanged list costs a 304.
func (a *API) serveCached(w http.ResponseWriter, r *http.Request, d *wire.Doc, build func() (any, error)) {
	key := r.URL.Path + "?" + r.URL.RawQuery
	h := fnv.New32a()
	h.Write([]byte(key))
	etag := fmt.Sprintf(`"v%d-%x"`, d.Version, h.Sum32())
	w.Header().Set("ETag", etag)
	w.Header().Set("Cache-Control", "no-cache")
	if match := r.Header.Get("If-None-Match"); match != "" && strings.Contains(match, etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	a.cacheMu.Lock()
	if a.cacheV != d.Version {
		a.cacheV, a.cache = d.Version, map[string][]byte{}
	}
	body, ok := a.cache[key]
	a.cacheMu.Unlock()
	if !ok {
		v, err := build()
		if err != nil {
			a.fail(w, err)
			return
		}
		var buf bytes.Buffer
		if err := json.NewEncoder(&buf).Encode(v); err != nil {
			a.fail(w, fmt.Errorf("encode response: %w", err))
			return
		}
		body = buf.Bytes()
		a.cacheMu.Lock()
		if a.cacheV == d.Version && len(a.cache) < 256 {
			a.cache[key] = body
		}
		a.cacheMu.Unlock()
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Write(body)
}

// viewQuery reads the view parameter of a list read: true for the summary
// projection, false for the full records ("" or "full").
func viewQuery(r *http.Request) (summary bool, err error) {
	switch v := r.URL.Query().Get("view"); v {
	case "", "full":
		return false, nil
	case wire.ViewSummary:
		return true, nil
	default:
		return false, errs.BadRequest("query 'view' must be summary or full, not %q", v)
	}
}

// boolQuery reads 1/true/yes as true.
func boolQuery(r *http.Request, name string) bool {
	switch strings.ToLower(r.URL.Query().Get(name)) {
	case "1", "true", "yes":
		return true
	}
	return false
}

func intQuery(r *http.Request, name string, def int) (int, error) {
	s := r.URL.Query().Get(name)
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, errs.BadRequest("query '%s' must be an integer", name)
	}
	return n, nil
}

// values copies stored records into a reply's list. nil stays nil, so a
// list the board always wrote as null still is.
func values[T any](ps []*T) []T {
	if ps == nil {
		return nil
	}
	out := make([]T, len(ps))
	for i, p := range ps {
		out[i] = *p
	}
	return out
}
