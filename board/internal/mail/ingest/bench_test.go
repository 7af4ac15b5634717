package ingest_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/opsboard/opsboard/board/internal/api"
	"github.com/opsboard/opsboard/board/internal/mail/dedupe"
	"github.com/opsboard/opsboard/board/internal/mail/ingest"
	"github.com/opsboard/opsboard/board/internal/rules/labels"
	"github.com/opsboard/opsboard/board/internal/rules/pages"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/board/internal/testkit/guardtest"
	"github.com/opsboard/opsboard/board/internal/vault"
	"github.com/opsboard/opsboard/shared/guardclient"
	"github.com/opsboard/opsboard/shared/wire"
)

// benchMbox writes an mbox of n plain mails from 200 senders.
func benchMbox(b *testing.B, path string, n int) {
	b.Helper()
	mails := make([]string, n)
	for i := range mails {
		mails[i] = msg(map[string]string{"Message-ID": fmt.Sprintf("<b%d@bench.example>", i), "From": fmt.Sprintf("Sender %d <s%d@bench.example>", i%200, i%200),
			"To": "me@home.org", "Subject": fmt.Sprintf("Report %d", i), "Date": "Mon, 2 Mar 2026 10:00:00 +0000"},
			fmt.Sprintf("Hello,\r\n\r\nthe figures for week %d are in the usual place. Numbers look fine.\r\n\r\nRegards\r\n", i))
	}
	if err := os.WriteFile(path, mboxText(mails...), 0o600); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkIngestMbox10k ingests a 10,000-message mbox end to end: parse,
// dedupe, screen, route and an HTTP create on a real board per message.
func BenchmarkIngestMbox10k(b *testing.B) {
	const n = 10000
	box := filepath.Join(b.TempDir(), "big.mbox")
	benchMbox(b, box, n)
	b.Run("guard=off", func(b *testing.B) { benchIngest(b, box, n, nil, false) })
	// With a vault of one person page per sender, every create resolves its
	// sender to a page (entities), and the run reads the person pages once.
	b.Run("guard=off/vault=on", func(b *testing.B) { benchIngest(b, box, n, nil, true) })
	b.Run("guard=heuristic", func(b *testing.B) {
		g := guardtest.Start(b, nil)
		gc, err := guardclient.New(g.URL)
		if err != nil {
			b.Fatal(err)
		}
		on := true
		if _, err := gc.SetConfig(context.Background(), wire.GuardConfigPatch{Enabled: &on}); err != nil {
			b.Fatal(err)
		}
		benchIngest(b, box, n, gc, false)
	})
}

// benchVault writes one person page per sender of benchMbox.
func benchVault(b *testing.B, dir string) {
	b.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "people"), 0o755); err != nil {
		b.Fatal(err)
	}
	for i := range 200 {
		page := fmt.Sprintf("---\ntype: person\nemails: [s%d@bench.example]\n---\nSender %d\n", i, i)
		if err := os.WriteFile(filepath.Join(dir, "people", fmt.Sprintf("Sender %d.md", i)), []byte(page), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

func benchIngest(b *testing.B, box string, n int, guard *guardclient.Client, withVault bool) {
	bundles, err := labels.Load()
	if err != nil {
		b.Fatal(err)
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	for range b.N {
		b.StopTimer()
		dir := b.TempDir()
		st, err := store.Open(store.Config{Path: filepath.Join(dir, "board.json"), MessageKey: dedupe.Key, Seed: labels.SeedUniversal(bundles), Logger: quiet})
		if err != nil {
			b.Fatal(err)
		}
		acfg := api.Config{Store: st, Version: "bench", Logger: quiet, Bundles: bundles}
		if withVault {
			vdir := filepath.Join(dir, "vault")
			benchVault(b, vdir)
			acfg.Vault, err = vault.Open(context.Background(), vault.Config{Dir: vdir, Board: pages.Board{Store: st}, Log: quiet})
			if err != nil {
				b.Fatal(err)
			}
			for !acfg.Vault.Ready() {
				time.Sleep(10 * time.Millisecond)
			}
		}
		a, router := api.New(acfg)
		srv := httptest.NewServer(router)
		cfg := ingest.Config{Sources: []ingest.SourceConfig{{Name: "big", Kind: "mbox", Path: box, Since: "2000-01-01"}}}
		b.StartTimer()
		rep, err := ingest.Run(context.Background(), ingest.Options{Board: ingest.NewBoard(srv.URL), Guard: guard, Config: cfg, StateDir: dir, Logger: quiet})
		b.StopTimer()
		if err != nil || rep.New != n {
			b.Fatalf("run: %v, %+v", err, rep)
		}
		if withVault {
			if d := st.Snapshot(); d.Messages.Len() == 0 || len(d.Messages.At(0).Entities) == 0 {
				b.Fatalf("the first message resolved to no page: %+v", d.Messages.Slice()[:min(1, d.Messages.Len())])
			}
			acfg.Vault.Close()
		}
		a.Close()
		srv.Close()
		st.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "msgs/s")
}
