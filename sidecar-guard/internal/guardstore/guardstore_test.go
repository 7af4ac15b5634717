package guardstore_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opsboard/opsboard/shared/wire"
	"github.com/opsboard/opsboard/sidecar-guard/internal/guardstore"
)

func open(t *testing.T, dir string, seed int) *guardstore.Store {
	t.Helper()
	s, err := guardstore.Open(guardstore.Options{Dir: dir, SeedTTLDays: seed})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The retention follows the environment's seed until a person sets one.
func TestRetentionSeed(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir, 7)
	yes := true
	if _, err := s.PatchSettings(context.Background(), wire.GuardConfigPatch{Enabled: &yes}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = open(t, dir, 3)
	if got := s.Settings(); !got.Enabled || got.ReleasedTTLDays != 3 {
		t.Errorf("unset retention with seed 3: %+v", got)
	}
	ten := 10
	if _, err := s.PatchSettings(context.Background(), wire.GuardConfigPatch{ReleasedTTLDays: &ten}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = open(t, dir, 3)
	defer s.Close()
	if got := s.Settings(); got.ReleasedTTLDays != 10 {
		t.Errorf("a person's retention gave way to the seed: %+v", got)
	}
}

// A file that does not parse stops the start and is left as it is.
func TestBrokenFileIsNotOverwritten(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, guardstore.TrustFile)
	if err := os.WriteFile(path, []byte(`{"senders": [`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := guardstore.Open(guardstore.Options{Dir: dir})
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("open with a broken trust.json: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != `{"senders": [` {
		t.Error("the broken file was changed")
	}
}

func TestWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.json")
	for _, v := range []string{"one", "two"} {
		if err := guardstore.WriteAtomic(path, []byte(v)); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(path); string(b) != v {
			t.Errorf("read %q, want %q", b, v)
		}
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("%d files in the directory, want only f.json", len(ents))
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600: trust and quarantine hold mail", fi.Mode().Perm())
	}
}

// Leftover temp files of a crash are removed on open; they never replace
// the real files.
func TestOpenRemovesCrashLeftovers(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, guardstore.TrustFile+".tmp-123"), []byte("half"), 0o600)
	s := open(t, dir, 7)
	defer s.Close()
	if _, err := os.Stat(filepath.Join(dir, guardstore.TrustFile+".tmp-123")); !os.IsNotExist(err) {
		t.Errorf("the leftover is still there: %v", err)
	}
	if len(s.Trust()) != 0 {
		t.Error("the leftover was read")
	}
}
