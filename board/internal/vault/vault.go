// Package vault is the vault folder: one Markdown page per person,
// organisation, project or topic, which the person may also open in
// Obsidian. It is the only code that reads or writes the folder: it scans it
// in the background, keeps an index in memory, watches it for hand edits,
// and writes pages atomically, re-reading a page just before each write so a
// hand edit made in between is never lost.
package vault

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/shared/wire"
)

// Board is what the vault needs from the store. The vault never calls it
// while holding a lock of its own, so a Board method may call back into the
// vault; the reverse does not hold: the vault's writes may call Mint, so
// they must not be called from inside a store write.
type Board interface {
	// Mint returns a new V-<n>, never reused.
	Mint(ctx context.Context) (string, error)
	// Snapshot is the committed state: cases' vaultLinks, messages'
	// entities.
	Snapshot() *wire.Doc
	// Relink replaces page id from by to in every case's vaultLinks and
	// every message's entities, in one store write (a merge).
	Relink(ctx context.Context, from, to string) error
	// Resolve adds id to the entities of past inbound messages from one of
	// emails, or (organisations) from an address at one of domains.
	Resolve(ctx context.Context, id string, emails, domains []string) error
	// SavePageEdits keeps edits as the person's changes to the page at
	// path (Snapshot's PageEdits shows them), dropping what was kept under
	// from when the page moved from there; nil edits keep nothing.
	SavePageEdits(ctx context.Context, path, from string, edits wire.HumanEdits) error
	// LogOverride logs, as the agent's, a write that went past the
	// person's change to page record.
	LogOverride(ctx context.Context, record, detail string) error
}

// Config is what Open needs.
type Config struct {
	Dir   string // the vault folder; it must exist
	Board Board
	Log   *slog.Logger
	Now   func() time.Time
	// OnChange is called after any page changed (a write or a hand edit)
	// and when the first scan ends, so the page can refetch.
	OnChange func()
}

// Vault is an open vault folder.
type Vault struct {
	cfg  Config
	root string // cfg.Dir with symlinks resolved, so "inside the vault" is a prefix test

	mu  sync.RWMutex
	idx *index

	// writeMu makes the vault's own writes one at a time: each re-reads the
	// file, renders and renames, and two at once could each miss the other.
	writeMu sync.Mutex
	ready   atomic.Bool

	stop   chan struct{}
	wg     sync.WaitGroup
	closed sync.Once
}

// errLoading answers every read before the first scan ends.
var errLoading = &errs.UnavailableError{Msg: "the vault is still loading; retry in a moment"}

// Open starts the vault over cfg.Dir and returns at once: the first scan
// runs in the background (reads answer errLoading until it ends), then the
// watcher keeps the index current.
func Open(ctx context.Context, cfg Config) (*Vault, error) {
	if cfg.Board == nil {
		return nil, fmt.Errorf("vault: no board")
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.OnChange == nil {
		cfg.OnChange = func() {}
	}
	root, err := filepath.EvalSymlinks(cfg.Dir)
	if err != nil {
		return nil, fmt.Errorf("vault %s: %w", cfg.Dir, err)
	}
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("vault %s: not a folder", cfg.Dir)
	}
	root, err = filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("vault %s: %w", cfg.Dir, err)
	}
	v := &Vault{cfg: cfg, root: root, idx: newIndex(), stop: make(chan struct{})}
	w, werr := v.newWatcher()
	var walkW watcher // an interface holding a nil *Watcher is not nil
	if werr == nil {
		walkW = w
	} else {
		// The board still works without hand edits being seen; say so.
		cfg.Log.Warn("vault.watch", "dir", root, "err", werr)
	}
	v.wg.Add(1)
	go func() {
		defer v.wg.Done()
		v.firstScan(walkW)
		if walkW != nil {
			v.watchLoop(w)
		}
	}()
	return v, nil
}

// Close stops the watcher and waits for the background work to end.
func (v *Vault) Close() error {
	v.closed.Do(func() { close(v.stop) })
	v.wg.Wait()
	return nil
}

// Ready reports whether the first scan ended.
func (v *Vault) Ready() bool { return v.ready.Load() }

// Health is the vault's line in the board's health: pages and broken ones.
// Broken pages are the person's to fix; they never make the board degraded.
func (v *Vault) Health() wire.VaultHealth {
	if !v.Ready() {
		return wire.VaultHealth{Loading: true}
	}
	v.mu.RLock()
	defer v.mu.RUnlock()
	h := wire.VaultHealth{Pages: len(v.idx.pages)}
	for _, e := range v.idx.pages {
		if e.page.Broken != "" {
			h.Broken++
		}
	}
	return h
}

// stopped reports whether Close was called.
func (v *Vault) stopped() bool {
	select {
	case <-v.stop:
		return true
	default:
		return false
	}
}

// abs is a vault path on disk.
func (v *Vault) abs(rel string) string { return filepath.Join(v.root, filepath.FromSlash(rel)) }
