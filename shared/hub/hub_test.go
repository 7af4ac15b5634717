package hub_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/opsboard/opsboard/shared/hub"
	"github.com/opsboard/opsboard/shared/hub/hubtest"
	"github.com/opsboard/opsboard/shared/wire"
)

var repo = hub.Repo{ID: "org/tiny", Revision: "main", Files: []hub.File{
	{Remote: "config.json"},
	{Remote: "onnx/model.onnx", Local: "model.onnx"},
}}

func content() (config, model []byte) {
	return []byte(`{"a":1}`), bytes.Repeat([]byte("weights!"), 4096)
}

func serve(t *testing.T) *hubtest.Hub {
	h := hubtest.New(t)
	config, model := content()
	h.Add("org/tiny", "main", "config.json", config)
	h.Add("org/tiny", "main", "onnx/model.onnx", model)
	return h
}

func checkFiles(t *testing.T, dir string) {
	t.Helper()
	config, model := content()
	for name, want := range map[string][]byte{"config.json": config, "model.onnx": model} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes (%v), want %d", name, len(got), err, len(want))
		}
		if _, err := os.Stat(filepath.Join(dir, name+".part")); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s.part left behind: %v", name, err)
		}
	}
}

func TestFirstDownloadLandsEveryFileWithTheToken(t *testing.T) {
	h := serve(t)
	h.Set(func(h *hubtest.Hub) { h.Token = "secret" })
	dir := filepath.Join(t.TempDir(), "m")
	var tr hub.Tracker
	c := &hub.Client{Base: h.URL, Token: "secret"}
	if err := c.Fetch(context.Background(), repo, dir, &tr); err != nil {
		t.Fatal(err)
	}
	checkFiles(t, dir)
	if !repo.Present(dir) {
		t.Error("Present is false after a download")
	}
	for _, r := range h.Requests() {
		if r.Authorization != "Bearer secret" || !strings.HasPrefix(r.Path, "/org/tiny/resolve/main/") {
			t.Errorf("request %+v", r)
		}
	}
	// A second fetch finds everything in place and asks for nothing.
	n := len(h.Requests())
	if err := c.Fetch(context.Background(), repo, dir, &tr); err != nil || len(h.Requests()) != n {
		t.Errorf("second fetch: %v, %d new requests", err, len(h.Requests())-n)
	}
}

func TestDroppedDownloadResumesWithARange(t *testing.T) {
	h := serve(t)
	h.Set(func(h *hubtest.Hub) { h.CutAfter = 5000 })
	dir := t.TempDir()
	c := &hub.Client{Base: h.URL}
	var tr hub.Tracker
	err := c.Fetch(context.Background(), repo, dir, &tr)
	if err == nil || !strings.Contains(err.Error(), "model.onnx") {
		t.Fatalf("cut download: %v", err)
	}
	st, serr := os.Stat(filepath.Join(dir, "model.onnx.part"))
	if serr != nil || st.Size() != 5000 {
		t.Fatalf("partial file after the cut: %v %v", st, serr)
	}
	if s := tr.Status(); s.State != wire.DownloadFailed || s.File != "onnx/model.onnx" || s.Bytes != 5000 || s.Error == "" {
		t.Errorf("status after the cut: %+v", s)
	}
	h.Set(func(h *hubtest.Hub) { h.CutAfter = 0 })
	if err := c.Fetch(context.Background(), repo, dir, &tr); err != nil {
		t.Fatal(err)
	}
	checkFiles(t, dir)
	reqs := h.Requests()
	if last := reqs[len(reqs)-1]; last.Range != "bytes=5000-" {
		t.Errorf("resume asked for range %q, want bytes=5000-", last.Range)
	}
}

func TestHubIgnoringTheRangeIsReadFromTheStart(t *testing.T) {
	h := serve(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "model.onnx.part"), []byte("stale bytes from another file"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.Set(func(h *hubtest.Hub) { h.NoRange = true })
	if err := (&hub.Client{Base: h.URL}).Fetch(context.Background(), repo, dir, nil); err != nil {
		t.Fatal(err)
	}
	checkFiles(t, dir)
}

func TestGatedModelWithoutTokenNamesTheToken(t *testing.T) {
	h := serve(t)
	h.Set(func(h *hubtest.Hub) { h.Token = "secret" })
	var tr hub.Tracker
	err := (&hub.Client{Base: h.URL}).Fetch(context.Background(), repo, t.TempDir(), &tr)
	if err == nil || !strings.Contains(err.Error(), "401") || !strings.Contains(err.Error(), "HF_TOKEN") {
		t.Errorf("gated without a token: %v", err)
	}
	if s := tr.Status(); s.State != wire.DownloadFailed || !strings.Contains(s.Error, "HF_TOKEN") {
		t.Errorf("status %+v", s)
	}
}

func TestCorruptFileIsRefused(t *testing.T) {
	h := serve(t)
	h.Set(func(h *hubtest.Hub) { h.BadSHA = true })
	dir := t.TempDir()
	err := (&hub.Client{Base: h.URL}).Fetch(context.Background(), repo, dir, nil)
	if err == nil || !strings.Contains(err.Error(), "sha256") {
		t.Fatalf("corrupt file: %v", err)
	}
	left, _ := os.ReadDir(dir)
	if len(left) != 0 {
		t.Errorf("a refused file stayed: %v", left)
	}
}

func TestHangingHubEndsWithTheContext(t *testing.T) {
	h := serve(t)
	h.Set(func(h *hubtest.Hub) { h.Hang = true })
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if err := (&hub.Client{Base: h.URL}).Fetch(ctx, repo, t.TempDir(), nil); err == nil {
		t.Error("a hanging hub gave no error")
	}
}

func TestStalledBodyIsOffline(t *testing.T) {
	h := serve(t)
	h.Set(func(h *hubtest.Hub) { h.StallAfter = 100 })
	var tr hub.Tracker
	err := (&hub.Client{Base: h.URL, Stall: 100 * time.Millisecond}).Fetch(context.Background(), repo, t.TempDir(), &tr)
	if err == nil || !hub.Offline(err) || tr.Status().State != wire.DownloadOffline {
		t.Errorf("stalled body: %v, %+v", err, tr.Status())
	}
}

func TestNetworkGoneIsOffline(t *testing.T) {
	var tr hub.Tracker
	err := (&hub.Client{Base: "http://127.0.0.1:1"}).Fetch(context.Background(), repo, t.TempDir(), &tr)
	if err == nil || !hub.Offline(err) {
		t.Fatalf("network gone: %v", err)
	}
	if s := tr.Status(); s.State != wire.DownloadOffline || s.File != "config.json" {
		t.Errorf("status %+v", s)
	}
}

func TestRemoveDeletesFilesAndParts(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"config.json", "model.onnx.part", "keep.txt"} {
		os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o644)
	}
	if err := repo.Remove(dir); err != nil {
		t.Fatal(err)
	}
	left, _ := os.ReadDir(dir)
	if len(left) != 1 || left[0].Name() != "keep.txt" {
		t.Errorf("left %v", left)
	}
}
