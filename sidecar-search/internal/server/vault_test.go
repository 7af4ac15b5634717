package server_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/sidecar-search/internal/server"
)

// startVault is start with the board's vault folder beside the store.
func startVault(t *testing.T, path, vault string) *sidecar {
	t.Helper()
	srv := server.New(server.Config{DataPath: path, VaultDir: vault, Embedder: "hash", Poll: time.Hour, Logger: slog.New(slog.DiscardHandler)})
	hs := httptest.NewServer(srv.Handler())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run: %v", err)
		}
		hs.Close()
	})
	sc := &sidecar{t: t, URL: hs.URL}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if code, _ := sc.do("GET", "/healthz", nil); code == http.StatusOK {
			return sc
		}
		if time.Now().After(deadline) {
			t.Fatal("sidecar did not become healthy")
		}
	}
}

func writePage(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	// A later mtime than any earlier write, however coarse the clock.
	later := time.Now().Add(time.Duration(len(text)) * time.Second)
	os.Chtimes(path, later, later)
}

func TestPagesAreSearchedFromTheVaultFolder(t *testing.T) {
	s := newStore(t)
	vault := filepath.Join(filepath.Dir(s.path), "vault")
	writePage(t, filepath.Join(vault, "people", "Ann Lee.md"), "---\nid: V-1\ntype: person\nemails: [ann@consulate.example]\n---\nHandles passport renewals at the consulate.\n")
	writePage(t, filepath.Join(vault, "topics", "Offsite.md"), "Ideas for the Lisbon offsite.\n")
	writePage(t, filepath.Join(vault, ".obsidian", "cache.md"), "passport passport passport")
	before := map[string][]byte{}
	filepath.Walk(vault, func(p string, info os.FileInfo, err error) error {
		if err == nil && info.Mode().IsRegular() {
			before[p], _ = os.ReadFile(p)
		}
		return nil
	})
	sc := startVault(t, s.path, vault)

	st := sc.stats()
	want := map[string]any{"case": float64(3), "task": float64(1), "message": float64(1), "reminder": float64(1), "page": float64(2)}
	if diff := cmp.Diff(want, st["docs"]); diff != "" {
		t.Errorf("doc counts (-want +got)\n%s", diff)
	}
	res := sc.search(map[string]any{"queries": []string{"passport renewal"}, "types": []string{"page"}, "limit": 5})
	if diff := cmp.Diff([]string{"V-1", "topics/Offsite.md"}, hitIDs(res, 0)); diff != "" {
		t.Errorf("page hits (-want +got)\n%s", diff)
	}
	hit := res["results"].([]any)[0].(map[string]any)["hits"].([]any)[0].(map[string]any)
	if hit["type"] != "page" || hit["caseId"] != nil {
		t.Errorf("a page hit: %v", hit)
	}
	for _, id := range hitIDs(sc.search(map[string]any{"queries": []string{"passport"}, "types": []string{"case"}, "limit": 50}), 0) {
		if !strings.HasPrefix(id, "CASE-") {
			t.Errorf("a types filter without page leaves pages out, got %s", id)
		}
	}

	// A hand edit in the folder is in the next search.
	writePage(t, filepath.Join(vault, "topics", "Offsite.md"), "Ideas for the Lisbon offsite: a sailing trip, a tram tour and a long lunch.\n")
	res = sc.search(map[string]any{"queries": []string{"sailing trip"}, "types": []string{"page"}, "limit": 1})
	if got := hitIDs(res, 0); len(got) != 1 || got[0] != "topics/Offsite.md" {
		t.Errorf("after the edit: %v", got)
	}
	os.Remove(filepath.Join(vault, "people", "Ann Lee.md"))
	if got := hitIDs(sc.search(map[string]any{"queries": []string{"passport"}, "types": []string{"page"}, "limit": 5}), 0); len(got) != 1 {
		t.Errorf("a removed page is still found: %v", got)
	}

	// The sidecar never writes to the vault.
	for p, data := range before {
		if p == filepath.Join(vault, "people", "Ann Lee.md") || p == filepath.Join(vault, "topics", "Offsite.md") {
			continue
		}
		if got, _ := os.ReadFile(p); string(got) != string(data) {
			t.Errorf("%s changed", p)
		}
	}
}

func TestNoVaultFolderIsNoPages(t *testing.T) {
	s := newStore(t)
	sc := startVault(t, s.path, filepath.Join(t.TempDir(), "not there"))
	want := map[string]any{"case": float64(3), "task": float64(1), "message": float64(1), "reminder": float64(1)}
	if diff := cmp.Diff(want, sc.stats()["docs"]); diff != "" {
		t.Errorf("doc counts (-want +got)\n%s", diff)
	}
}
