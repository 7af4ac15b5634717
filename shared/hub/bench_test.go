package hub_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/opsboard/opsboard/shared/hub"
	"github.com/opsboard/opsboard/shared/hub/hubtest"
)

// BenchmarkFetch32MiB downloads a file of potion-base-8M's size from a
// local hub, checks its sha256 and lands it: the cost on top of the
// network.
func BenchmarkFetch32MiB(b *testing.B) {
	h := hubtest.New(b)
	h.Add("org/big", "main", "model.safetensors", bytes.Repeat([]byte("0123456789abcdef"), 2<<20))
	r := hub.Repo{ID: "org/big", Revision: "main", Files: []hub.File{{Remote: "model.safetensors"}}}
	c := &hub.Client{Base: h.URL}
	dir := b.TempDir()
	b.SetBytes(32 << 20)
	b.ReportAllocs()
	for b.Loop() {
		if err := c.Fetch(context.Background(), r, dir, nil); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		os.Remove(filepath.Join(dir, "model.safetensors"))
		b.StartTimer()
	}
}
