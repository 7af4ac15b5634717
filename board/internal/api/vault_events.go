package api

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/opsboard/opsboard/shared/wire"
	"github.com/r3labs/sse/v2"
)

// VaultChanged is the vault's change hook: a page was written or edited by
// hand, or the first scan ended. It tells every open stream.
func (a *API) VaultChanged() {
	a.live.vaultEvent(a.vaultSeq.Add(1))
}

// healPages waits for the vault's first scan, then makes every page's
// cases match the store, which is their truth: a crash between a case
// write and its pages' write is mended here. Only pages that differ are
// written.
func (a *API) healPages() {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for !a.vault.Ready() {
		select {
		case <-a.live.life.Done():
			return
		case <-tick.C:
		}
	}
	a.syncPages(context.Background())
}

// vaultEvent publishes vault{seq} to every open stream: pages are files,
// not records, so the store's version does not tell the People view.
func (l *liveStream) vaultEvent(seq uint64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.started || l.closed {
		return
	}
	l.fanOut(&sse.Event{ID: strconv.AppendInt(nil, l.sent, 10), Event: []byte("vault"), Data: fmt.Appendf(nil, `{"seq":%d}`, seq)})
}

// vaultHealth is the vault's line in /api/health; broken pages are the
// person's to fix and never make the board degraded.
func (a *API) vaultHealth() *wire.VaultHealth {
	if a.vault == nil {
		return nil
	}
	h := a.vault.Health()
	return &h
}
