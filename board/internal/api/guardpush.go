package api

import (
	"context"
	"fmt"

	"github.com/opsboard/opsboard/board/internal/rules/correspondents"
	"github.com/opsboard/opsboard/shared/guardclient"
	"github.com/opsboard/opsboard/shared/wire"
)

// pushTrust derives the senders to trust on each node from the node's own
// messages and pushes each to the guard with ifAbsent, so a person's block
// or an existing entry stands. It runs after the write is durable and
// outside the store's lock; it never fails the write and holds it up at
// most guardPushTimeout. It returns nil when there was nothing to push (no
// principal, no guard address, no address derived), so such replies keep
// their form.
func (a *API) pushTrust(ctx context.Context, nodes ...correspondents.Node) *wire.TrustPush {
	principal, _ := a.principal()
	if principal == "" || a.gs.quick == nil {
		return nil
	}
	emails := correspondents.DeriveNodes(a.store.Snapshot(), principal, nodes...)
	if len(emails) == 0 {
		return nil
	}
	// The request may end as soon as the reply is written; the push is
	// bounded by its own timeout instead.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), guardPushTimeout)
	defer cancel()
	out := &wire.TrustPush{Pushed: []string{}}
	changed := false
	for _, e := range emails {
		rep, err := a.gs.quick.UpsertTrust(ctx, wire.TrustUpsert{Email: e, Tier: wire.TierTrusted, IfAbsent: true, Note: "derived from the board's mail"})
		if err != nil {
			if _, refused := guardclient.Refused(err); refused {
				if out.Error == "" {
					out.Error = fmt.Sprintf("the guard refused %s: %v", e, err)
				}
				continue
			}
			out.Error = err.Error() // the sidecar is not answering: the rest would fail too
			break
		}
		out.Pushed = append(out.Pushed, e)
		changed = changed || rep.Changed
	}
	a.log.Info("guard.trust_push", "derived", len(emails), "pushed", len(out.Pushed), "err", out.Error)
	if changed {
		a.guardChanged()
	}
	return out
}
