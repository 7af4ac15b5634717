package web

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/opsboard/opsboard/board/internal/api"
	"github.com/opsboard/opsboard/board/internal/rules/pages"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/board/internal/vault"
)

// testVault opens the vault the daemon would: vault/ beside the store's
// document, created when missing. attach hands the vault's change hook
// the API built after it.
func testVault(t testing.TB, st *store.Store, log *slog.Logger) (v *vault.Vault, attach func(*api.API)) {
	t.Helper()
	dir := filepath.Join(filepath.Dir(st.Path()), "vault")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	var live atomic.Pointer[api.API]
	v, err := vault.Open(context.Background(), vault.Config{Dir: dir, Board: pages.Board{Store: st}, Log: log, OnChange: func() {
		if a := live.Load(); a != nil {
			a.VaultChanged()
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	return v, func(a *api.API) { live.Store(a) }
}
