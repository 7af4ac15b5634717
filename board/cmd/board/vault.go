package main

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/opsboard/opsboard/board/internal/api"
	"github.com/opsboard/opsboard/board/internal/backup"
	"github.com/opsboard/opsboard/board/internal/rules/pages"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/board/internal/vault"
)

// vaultFolder is the vault folder the -vault flag names (made absolute),
// else the one SVC_VAULT_DIR names, else vault/ beside the data file; the
// same rule `board backup` follows.
func vaultFolder(flagged, data string) (dir string, configured bool) {
	if flagged != "" {
		if abs, err := filepath.Abs(flagged); err == nil {
			return abs, true
		}
		return flagged, true
	}
	return backup.VaultDir(os.Getenv, data)
}

// openedVault is the daemon's vault; v is nil when the board runs without
// one.
type openedVault struct{ v *vault.Vault }

// Close stops the vault's watcher.
func (o openedVault) Close() {
	if o.v != nil {
		o.v.Close()
	}
}

// openVault opens the vault folder, creating the default one. A folder
// the person named that is missing is not created (it may be a drive not
// mounted yet): the board runs without a vault and says so. The scan runs
// in the background; the vault routes answer 503 until it ends.
func openVault(log *slog.Logger, cfg config, st *store.Store) (openedVault, *vaultHook) {
	hook := &vaultHook{}
	if !cfg.vaultConfigured {
		if err := os.MkdirAll(cfg.vault, 0o700); err != nil {
			log.Error("vault.create", "dir", cfg.vault, "err", err)
			return openedVault{}, hook
		}
	} else if _, err := os.Stat(cfg.vault); errors.Is(err, fs.ErrNotExist) {
		log.Error("vault.missing", "dir", cfg.vault, "hint", "create the folder or fix -vault / SVC_VAULT_DIR, then restart")
		return openedVault{}, hook
	}
	v, err := vault.Open(context.Background(), vault.Config{Dir: cfg.vault, Board: pages.Board{Store: st}, Log: log, Now: time.Now, OnChange: hook.changed})
	if err != nil {
		log.Error("vault.open", "dir", cfg.vault, "err", err)
		return openedVault{}, hook
	}
	log.Info("vault.open", "dir", cfg.vault)
	return openedVault{v}, hook
}

// vaultHook forwards the vault's change hook to the API, which is built
// after the vault it serves; changes before then have no listener yet.
type vaultHook struct{ api atomic.Pointer[api.API] }

func (h *vaultHook) attach(a *api.API) { h.api.Store(a) }

func (h *vaultHook) changed() {
	if a := h.api.Load(); a != nil {
		a.VaultChanged()
	}
}
