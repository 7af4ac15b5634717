package vault

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// benchVault writes n pages as a person's vault holds them: people and
// organisations with frontmatter and a body with links, in a few folders.
func benchVault(b *testing.B, n int) string {
	b.Helper()
	dir := b.TempDir()
	for _, sub := range []string{"people", "organizations", "notes/2026"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			b.Fatal(err)
		}
	}
	for i := range n {
		var rel, body string
		switch i % 3 {
		case 0:
			rel = fmt.Sprintf("people/Person %05d.md", i)
			body = fmt.Sprintf("---\nid: V-%d\ntype: person\naliases: [P%d]\nemails: [p%d@example.com]\ncases: [CASE-%d]\ntags: [client]\n---\n# Person %d\n\nWorks with [[Org %05d]].\n\n## Timeline\n- 2026-01-02 Met\n", i+1, i, i, i, i, i+1)
		case 1:
			rel = fmt.Sprintf("organizations/Org %05d.md", i)
			body = fmt.Sprintf("---\nid: V-%d\ntype: organization\ndomains: [org%d.com]\n---\nAn organisation.\n", i+1, i)
		default:
			rel = fmt.Sprintf("notes/2026/Note %05d.md", i)
			body = fmt.Sprintf("A note without frontmatter about [[Person %05d]].\n", i-2)
		}
		if err := os.WriteFile(filepath.Join(dir, rel), []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

func openBench(b *testing.B, dir string) *Vault {
	b.Helper()
	v, err := Open(context.Background(), Config{Dir: dir, Board: newFakeBoard()})
	if err != nil {
		b.Fatal(err)
	}
	for !v.Ready() {
		time.Sleep(time.Millisecond)
	}
	return v
}

// BenchmarkOpenScan5000 is the start-up scan: Open until the first scan of
// a 5,000-page vault ends (the board answers meanwhile; the vault routes
// say "loading").
func BenchmarkOpenScan5000(b *testing.B) {
	dir := benchVault(b, 5000)
	b.ResetTimer()
	for b.Loop() {
		v := openBench(b, dir)
		b.StopTimer()
		v.Close()
		b.StartTimer()
	}
}

// BenchmarkList5000 is GET /api/vault's work at 5,000 pages: the first
// page of 100 by title, unfiltered, then filtered by type and by a query.
func BenchmarkList5000(b *testing.B) {
	v := openBench(b, benchVault(b, 5000))
	defer v.Close()
	for _, f := range []Filter{{}, {Type: "person"}, {Q: "org1"}} {
		b.Run(fmt.Sprintf("type=%s,q=%s", f.Type, f.Q), func(b *testing.B) {
			for b.Loop() {
				if _, _, err := v.List(f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
