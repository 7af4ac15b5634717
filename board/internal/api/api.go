// Package api is the board's HTTP API under /api: the only write path for the
// web page and the agent alike. Handlers decode, call one rule (cases,
// reminders, proposals, ...) and write the answer; the rules and read
// queries live in their packages, persistence in store, the JSON plumbing
// and the local-only check in shared/httpjson, the cache of list reads in
// serve.
package api

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/mux"
	"github.com/opsboard/opsboard/board/internal/backup/schedule"
	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/rules/field"
	"github.com/opsboard/opsboard/board/internal/rules/labels"
	"github.com/opsboard/opsboard/board/internal/rules/nldate"
	"github.com/opsboard/opsboard/board/internal/serve"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/board/internal/vault"
	"github.com/opsboard/opsboard/shared/httpjson"
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
	// Vault is the vault folder, opened by the caller (its change hook is
	// VaultChanged); nil runs without one: the vault routes answer 503 and
	// a case's vaultLinks stay free text.
	Vault *vault.Vault
	// Ingest reports the daemon's scheduled mail ingest for /api/health;
	// nil leaves it out.
	Ingest func() *wire.IngestHealth
}

// API serves /api.
type API struct {
	store   *store.Store
	version string
	log     *slog.Logger
	bundles []labels.Bundle

	cache serve.Cache // list reads, encoded once per version

	search *searcher // /api/search: the keyword index and the sidecar client

	live *liveStream // GET /api/stream

	gs   *guardSide // the guard proxies and the trust push
	zone *time.Location
	now  func() time.Time

	backups  *schedule.Trigger // nil: no backup settings
	ingest   func() *wire.IngestHealth
	toolDir  string // GET /api/connect: where the tool servers are built
	guardURL string // GET /api/connect: the guard bridge's sidecar address

	dates *nldate.Parser // GET /api/dates/parse

	vault    *vault.Vault  // nil: no vault folder
	vaultSeq atomic.Uint64 // numbers the vault events of the live stream
	syncMu   sync.Mutex    // one sync of the pages' back links at a time

	keys keyLocks // Idempotency-Keys in flight (idempotency.go)
}

// New returns the API's router. Other handlers (the web page) may be
// mounted on it by the caller. A GuardURL that is not an http address is
// logged and treated as no guard.
func New(cfg Config) (*API, *mux.Router) {
	a := &API{store: cfg.Store, version: cfg.Version, log: cfg.Logger}
	if a.log == nil {
		a.log = slog.Default()
	}
	a.zone, a.now, a.backups = cfg.Zone, cfg.Now, cfg.Backups
	a.ingest = cfg.Ingest
	a.toolDir, a.guardURL, a.bundles, a.vault = cfg.ToolDir, cfg.GuardURL, cfg.Bundles, cfg.Vault
	if a.zone == nil {
		a.zone = time.UTC
	}
	if a.now == nil {
		a.now = time.Now
	}
	a.dates = nldate.New()
	a.search = newSearcher(cfg.SearchURL, a.log)
	a.search.index.Body = cfg.Store.BodyForSearch
	a.live = newLiveStream(cfg.Store, cfg.StreamHeartbeat, a.log)
	if a.backups != nil {
		a.backups.OnRun(a.live.backupEvent)
		a.backups.OnDone(a.logBackup)
	}
	a.gs = newGuard(cfg.GuardURL, cfg.PrincipalEmail, a.log)
	local := httpjson.LocalOnly(httpjson.Local{
		Hosts:         cfg.AllowedHosts,
		HostRefusal:   "host %q is not allowed: the board answers on loopback addresses only (add it to SVC_BOARD_ALLOWED_HOSTS to allow it)",
		OriginRefusal: "origin %q may not write to the board",
		SamePort:      true, // only the board's own page writes
	})
	r := mux.NewRouter()
	// Routes match the encoded path, so a vault page's path (people%2FAnn.md)
	// stays one segment; every handler still reads its variables decoded.
	r.UseEncodedPath()
	r.Use(local, decodedVars)
	// The router's middleware runs on matched routes only; a stray request
	// gets the same checks.
	r.NotFoundHandler = local(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.fail(w, errs.NotFound("no route %s %s", r.Method, r.URL.Path))
	}))
	r.MethodNotAllowedHandler = local(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		httpjson.Reply(w, http.StatusMethodNotAllowed, wire.ErrorReply{Error: fmt.Sprintf("method %s not allowed on %s", r.Method, r.URL.Path)})
	}))
	a.routes(r.PathPrefix("/api").Subrouter())
	if a.vault != nil {
		go a.healPages()
	}
	return a, r
}

// decodedVars unescapes the route variables of a request matched on its
// encoded path; a variable that does not unescape stays as sent.
func decodedVars(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		vars := mux.Vars(r)
		for k, v := range vars {
			if s, err := url.PathUnescape(v); err == nil {
				vars[k] = s
			}
		}
		next.ServeHTTP(w, mux.SetURLVars(r, vars))
	})
}

// fail maps an error to its status and writes { error }. Every 4xx and 5xx
// body has that shape.
func (a *API) fail(w http.ResponseWriter, err error) {
	var (
		he   *httpjson.Error
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
		httpjson.Reply(w, http.StatusBadRequest, wire.ErrorReply{Error: err.Error(), HumanChange: &wire.HumanChange{Field: hc.Field, Actor: hc.Actor, TS: hc.TS, Value: hc.Value}})
		return
	case errors.As(err, &uc):
		httpjson.Reply(w, http.StatusBadRequest, wire.ErrorReply{Error: err.Error(), Conflicts: uc.Conflicts})
		return
	case errors.As(err, &he):
		code = he.Status
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
	httpjson.Reply(w, code, wire.ErrorReply{Error: err.Error()})
}

// bodies reads the board's request bodies: strictly, within maxBody, and
// no deeper than a free-form value and the few levels a route's body wraps
// it in, refused before decoding with the field named.
var bodies = httpjson.Decoder{Limit: maxBody, Check: func(body []byte) error {
	if depth, key := field.Depth(body); depth > maxBodyDepth {
		return errs.BadRequest("field '%s' is nested %d levels deep; at most %d are allowed", key, depth-1, field.MaxFreeFormDepth)
	}
	return nil
}}

// decode reads a JSON object body into v; its error is an *httpjson.Error
// or the bodies check's errs.BadRequest, both answered by fail.
func decode(w http.ResponseWriter, r *http.Request, v any) error {
	return bodies.Decode(w, r, v)
}

// decodeWithin is decode with a bound of limit bytes; an error past it
// unwraps to the *http.MaxBytesError.
func decodeWithin(w http.ResponseWriter, r *http.Request, v any, limit int64) error {
	d := bodies
	d.Limit = limit
	return d.Decode(w, r, v)
}

// decodeOptional is decode for routes whose body may be absent.
func decodeOptional(w http.ResponseWriter, r *http.Request, v any) error {
	return bodies.DecodeOptional(w, r, v)
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

// serveCached answers a list read from the cache of encoded bodies for
// the snapshot's version, with an ETag so an unchanged list costs a 304.
func (a *API) serveCached(w http.ResponseWriter, r *http.Request, d *wire.Doc, build func() (any, error)) {
	if err := a.cache.Serve(w, r, d.Version, build); err != nil {
		a.fail(w, err)
	}
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

// listValues is values over a collection of the document.
func listValues[T any](l wire.List[*T]) []T {
	if l.IsNil() {
		return nil
	}
	out := make([]T, 0, l.Len())
	for _, p := range l.All() {
		out = append(out, *p)
	}
	return out
}

// createdOr is a create's status: 201 for a new record, 200 when the
// create found the record it would have made and wrote nothing.
func createdOr(existing bool) int {
	if existing {
		return http.StatusOK
	}
	return http.StatusCreated
}
