package api

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gorilla/mux"
	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/rules/saved"
	"github.com/opsboard/opsboard/shared/guardclient"
	"github.com/opsboard/opsboard/shared/httpjson"
	"github.com/opsboard/opsboard/shared/wire"
)

// The guard proxies: the web page reaches the guard sidecar's switch,
// catalog, trust list and quarantine through the board, so the board's own
// Host, Origin and Content-Type checks cover them. A 4xx of the sidecar
// passes through as it came; a sidecar that cannot answer (down, slow, 5xx)
// makes a read an empty 200 marked offline and a write a 503.

// Bounds on the calls to the sidecar: a proxied request answers within a
// second, and a trust push (after a link) or a health probe delays its
// caller by at most half a second.
const (
	guardProxyTimeout = wire.GuardProxyTimeout
	guardPushTimeout  = 500 * time.Millisecond
)

// guardSide is the board's link to the guard sidecar.
type guardSide struct {
	proxy *guardclient.Client // proxied routes
	quick *guardclient.Client // trust push and health probe
	// principal is SVC_PRINCIPAL_EMAIL; "" defers to the principalEmail
	// board setting.
	principal string
	seq       atomic.Uint64 // the guard event's own counter
}

// newGuardSide returns the link to the sidecar at url. With url "" it has no
// clients: reads are offline, writes 503, and links push no trust.
func newGuardSide(url, principal string) (*guardSide, error) {
	g := &guardSide{principal: strings.TrimSpace(principal)}
	if strings.TrimSpace(url) == "" {
		return g, nil
	}
	var err error
	if g.proxy, err = guardclient.New(url, guardclient.WithTimeout(guardProxyTimeout)); err != nil {
		return nil, err
	}
	if g.quick, err = guardclient.New(url, guardclient.WithTimeout(guardPushTimeout)); err != nil {
		return nil, err
	}
	return g, nil
}

// errNoGuard is the outage of a board started without a guard address.
var errNoGuard = errors.New("the board has no guard sidecar address (set SVC_GUARD_URL)")

func (g *guardSide) url() string {
	if g.proxy == nil {
		return ""
	}
	return g.proxy.BaseURL()
}

// guardChanged tells open pages that the guard's lists or switch changed.
func (a *API) guardChanged() {
	a.live.guardEvent(a.gs.seq.Add(1))
}

// readFailed answers a proxied read the sidecar could not serve: its 4xx as
// it came, anything else an empty 200 marked offline, built by empty.
func (a *API) readFailed(w http.ResponseWriter, err error, empty func(wire.Offline) any) {
	if re, ok := guardclient.Refused(err); ok {
		httpjson.Reply(w, re.Status, wire.ErrorReply{Error: re.Message})
		return
	}
	a.log.Warn("guard.offline", "err", err)
	httpjson.Reply(w, http.StatusOK, empty(wire.Offline{Offline: true, Reason: err.Error()}))
}

// writeFailed answers a proxied write the sidecar did not accept: its 4xx
// as it came, anything else 503 naming the sidecar's address.
func (a *API) writeFailed(w http.ResponseWriter, err error) {
	if re, ok := guardclient.Refused(err); ok {
		httpjson.Reply(w, re.Status, wire.ErrorReply{Error: re.Message})
		return
	}
	a.log.Warn("guard.write_unavailable", "err", err)
	msg := err.Error()
	if errors.Is(err, errNoGuard) {
		msg = "the guard is unavailable: " + msg
	}
	httpjson.Reply(w, http.StatusServiceUnavailable, wire.ErrorReply{Error: msg + "; start the guard sidecar and try again"})
}

// client is the proxy client, or errNoGuard.
func (g *guardSide) client() (*guardclient.Client, error) {
	if g.proxy == nil {
		return nil, errNoGuard
	}
	return g.proxy, nil
}

// principal is the person's own address and whether the environment fixes
// it; "" when neither the environment nor the principalEmail setting holds
// one.
func (a *API) principal() (string, bool) {
	if a.gs.principal != "" {
		return a.gs.principal, true
	}
	prefs, err := saved.Prefs(a.store.Snapshot())
	if err != nil {
		return "", false
	}
	var p string
	if raw, ok := prefs["principalEmail"]; ok {
		_ = json.Unmarshal(raw, &p) // a non-string setting is no principal
	}
	return strings.TrimSpace(p), false
}

// GET /api/guard/config
func (a *API) getGuardConfig(w http.ResponseWriter, r *http.Request) {
	view := func(c wire.GuardConfig, off wire.Offline) wire.GuardConfigView {
		p, env := a.principal()
		return wire.GuardConfigView{GuardConfig: c, Offline: off, URL: a.gs.url(), Principal: p, PrincipalFromEnv: env}
	}
	c, err := a.gs.client()
	if err == nil {
		var cfg wire.GuardConfig
		if cfg, err = c.Config(r.Context()); err == nil {
			httpjson.Reply(w, http.StatusOK, view(cfg, wire.Offline{}))
			return
		}
	}
	a.readFailed(w, err, func(off wire.Offline) any { return view(wire.GuardConfig{}, off) })
}

// POST /api/guard/config
func (a *API) setGuardConfig(w http.ResponseWriter, r *http.Request) {
	var in wire.GuardConfigInput
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	if in.Enabled == nil && in.ReleasedTTLDays == nil {
		a.fail(w, errs.BadRequest("give 'enabled' and/or 'releasedTtlDays'"))
		return
	}
	c, err := a.gs.client()
	if err != nil {
		a.writeFailed(w, err)
		return
	}
	cfg, err := c.SetConfig(r.Context(), in.GuardConfigPatch)
	if err != nil {
		a.writeFailed(w, err)
		return
	}
	a.log.Info("guard.config", "enabled", cfg.Enabled, "releasedTtlDays", cfg.ReleasedTTLDays)
	a.guardChanged()
	p, env := a.principal()
	httpjson.Reply(w, http.StatusOK, wire.GuardConfigView{GuardConfig: cfg, URL: a.gs.url(), Principal: p, PrincipalFromEnv: env})
}

// GET /api/guard/models
func (a *API) guardModels(w http.ResponseWriter, r *http.Request) {
	c, err := a.gs.client()
	if err == nil {
		var m wire.GuardModels
		if m, err = c.Models(r.Context()); err == nil {
			if m.Models == nil {
				m.Models = []wire.GuardModel{}
			}
			httpjson.Reply(w, http.StatusOK, wire.GuardModelsView{GuardModels: m})
			return
		}
	}
	a.readFailed(w, err, func(off wire.Offline) any {
		return wire.GuardModelsView{GuardModels: wire.GuardModels{Models: []wire.GuardModel{}}, Offline: off}
	})
}

// GET /api/trust
func (a *API) listTrust(w http.ResponseWriter, r *http.Request) {
	c, err := a.gs.client()
	if err == nil {
		var l wire.TrustList
		if l, err = c.Trust(r.Context()); err == nil {
			if l.Senders == nil {
				l.Senders = []wire.TrustRecord{}
			}
			httpjson.Reply(w, http.StatusOK, wire.TrustListView{TrustList: l})
			return
		}
	}
	a.readFailed(w, err, func(off wire.Offline) any {
		return wire.TrustListView{TrustList: wire.TrustList{Senders: []wire.TrustRecord{}}, Offline: off}
	})
}

// POST /api/trust
func (a *API) upsertTrust(w http.ResponseWriter, r *http.Request) {
	var in wire.TrustUpsertInput
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	c, err := a.gs.client()
	if err != nil {
		a.writeFailed(w, err)
		return
	}
	out, err := c.UpsertTrust(r.Context(), in.TrustUpsert)
	if err != nil {
		a.writeFailed(w, err)
		return
	}
	a.log.Info("guard.trust", "email", out.Record.Email, "tier", out.Record.Tier, "changed", out.Changed)
	if out.Changed {
		a.guardChanged()
	}
	httpjson.Reply(w, http.StatusOK, out)
}

// DELETE /api/trust/{email}
func (a *API) deleteTrust(w http.ResponseWriter, r *http.Request) {
	email := strings.ToLower(strings.TrimSpace(mux.Vars(r)["email"]))
	c, err := a.gs.client()
	if err != nil {
		a.writeFailed(w, err)
		return
	}
	if err := c.DeleteTrust(r.Context(), email); err != nil {
		a.writeFailed(w, err)
		return
	}
	a.log.Info("guard.trust_removed", "email", email)
	a.guardChanged()
	httpjson.Reply(w, http.StatusOK, wire.TrustReply{Record: wire.TrustRecord{Email: email, Tier: wire.TierUnknown}, Changed: true})
}

// GET /api/quarantine
func (a *API) listQuarantine(w http.ResponseWriter, r *http.Request) {
	c, err := a.gs.client()
	if err == nil {
		var l wire.QuarantineList
		if l, err = c.Quarantine(r.Context()); err == nil {
			if l.Records == nil {
				l.Records = []wire.QuarantineRecord{}
			}
			httpjson.Reply(w, http.StatusOK, wire.QuarantineListView{QuarantineList: l})
			return
		}
	}
	a.readFailed(w, err, func(off wire.Offline) any {
		return wire.QuarantineListView{QuarantineList: wire.QuarantineList{Records: []wire.QuarantineRecord{}}, Offline: off}
	})
}

// PATCH /api/quarantine/{id}: Release or Dismiss, the person's decision
// on the Security page. The agent has no tool for it (its guard bridge
// scans and blocks only); like every route, this one attributes rather
// than refuses.
func (a *API) patchQuarantine(w http.ResponseWriter, r *http.Request) {
	var in wire.QuarantineAction
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	if in.Status == nil && in.Note == nil {
		a.fail(w, errs.BadRequest("give 'status' (released or dismissed) and/or 'note'"))
		return
	}
	c, err := a.gs.client()
	if err != nil {
		a.writeFailed(w, err)
		return
	}
	rec, err := c.PatchQuarantine(r.Context(), mux.Vars(r)["id"], wire.QuarantinePatch{Status: in.Status, Note: in.Note})
	if err != nil {
		a.writeFailed(w, err)
		return
	}
	a.log.Info("guard.quarantine", "id", rec.ID, "status", rec.Status)
	a.guardChanged()
	httpjson.Reply(w, http.StatusOK, rec)
}

// guardHealth is the guard's line in /api/health, probed within the push
// timeout; nil when the board has no guard address.
func (a *API) guardHealth(ctx context.Context) *wire.GuardHealthLine {
	if a.gs.quick == nil {
		return nil
	}
	line := &wire.GuardHealthLine{URL: a.gs.url()}
	cfg, err := a.gs.quick.Config(ctx)
	switch {
	case err != nil:
		line.State, line.Reason = wire.GuardUnreachable, err.Error()
	case !cfg.Enabled:
		line.State, line.Classifier = wire.GuardOff, cfg.Classifier
	case cfg.Degraded:
		line.State, line.Classifier = wire.GuardDegraded, cfg.Classifier
	default:
		line.State, line.Classifier = wire.GuardOn, cfg.Classifier
	}
	return line
}

// newGuard is newGuardSide for New: an address that is not an http URL is
// logged and the board runs without a guard, as it would with none set.
func newGuard(url, principal string, log *slog.Logger) *guardSide {
	g, err := newGuardSide(url, principal)
	if err != nil {
		log.Error("guard.address", "err", err)
		return &guardSide{principal: strings.TrimSpace(principal)}
	}
	return g
}
