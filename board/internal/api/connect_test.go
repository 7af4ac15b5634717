package api_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/opsboard/opsboard/board/internal/api"
	"github.com/opsboard/opsboard/board/internal/store"
)

func TestConnectNamesBuiltAndMissingServers(t *testing.T) {
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "mcp-board"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	b := newBoard(t, func(_ *store.Config, c *api.Config) { c.ToolDir = bin; c.GuardURL = "http://127.0.0.1:8009" })
	got := b.must(200, "GET", "/api/connect", nil)
	url := got.Get("boardUrl").String()
	if url != b.URL {
		t.Errorf("boardUrl %q, want the address the request reached: %q", url, b.URL)
	}
	servers := got.Get("servers").Array()
	if len(servers) != 3 {
		t.Fatalf("servers %s", got.Get("servers").Raw)
	}
	for _, s := range servers {
		name := s.Get("name").String()
		if want := filepath.Join(bin, name); s.Get("path").String() != want {
			t.Errorf("%s path %q, want %q", name, s.Get("path").String(), want)
		}
		if want := name == "mcp-board"; s.Get("exists").Bool() != want {
			t.Errorf("%s exists=%v, want %v", name, s.Get("exists").Bool(), want)
		}
	}
	if env := servers[0].Get("env.CRM_BASE_URL").String(); env != b.URL {
		t.Errorf("mcp-board env CRM_BASE_URL %q, want %q", env, b.URL)
	}
	if env := servers[2].Get("env.SVC_GUARD_URL").String(); env != "http://127.0.0.1:8009" {
		t.Errorf("mcp-guard env SVC_GUARD_URL %q", env)
	}
}

func TestHealthNamesTheBoardZone(t *testing.T) {
	b := newBoard(t)
	if z := b.must(200, "GET", "/api/health", nil).Get("timezone").String(); z != "UTC" {
		t.Errorf("timezone %q, want UTC (no preference, no machine zone given)", z)
	}
	b.must(200, "PATCH", "/api/prefs", map[string]any{"timezone": "Europe/Berlin"})
	if z := b.must(200, "GET", "/api/health", nil).Get("timezone").String(); z != "Europe/Berlin" {
		t.Errorf("timezone %q after the preference, want Europe/Berlin", z)
	}
}
