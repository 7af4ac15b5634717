package ingest_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/opsboard/opsboard/board/internal/api"
	"github.com/opsboard/opsboard/board/internal/mail/dedupe"
	"github.com/opsboard/opsboard/board/internal/mail/ingest"
	"github.com/opsboard/opsboard/board/internal/rules/labels"
	"github.com/opsboard/opsboard/board/internal/store"
)

// benchMaildir writes a Maildir of n plain mails spread evenly over the
// ten years before now, the newest first in name order.
func benchMaildir(b *testing.B, dir string, n int, now time.Time) {
	b.Helper()
	for _, sub := range []string{"new", "cur", "tmp"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o700); err != nil {
			b.Fatal(err)
		}
	}
	span := 10 * 365 * 24 * time.Hour
	for i := range n {
		date := now.Add(-time.Duration(int64(span) / int64(n) * int64(i))).Format(time.RFC1123Z)
		m := msg(map[string]string{"Message-ID": fmt.Sprintf("<f%d@bench.example>", i), "From": fmt.Sprintf("Sender %d <s%d@bench.example>", i%200, i%200),
			"To": "me@home.org", "Subject": fmt.Sprintf("Report %d", i), "Date": date},
			fmt.Sprintf("Hello,\r\n\r\nthe figures for week %d are in the usual place. Numbers look fine.\r\n\r\nRegards\r\n", i))
		if err := os.WriteFile(filepath.Join(dir, "cur", fmt.Sprintf("1700000000.%07d.host:2,S", i)), []byte(m), 0o600); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIngestMaildirFirstRun is a person's first run over ten years of
// mail in a Maildir (10,000 messages; OPSBOARD_BENCH_MAILS sets another
// count, e.g. 100000): with since reaching back past all of it, with the
// default cutoff of a first run (the last 90 days), and with a since one
// year back. It reports messages read per second, the process's peak heap,
// and the slowest answer of the inbox's first page (GET /api/messages,
// limit 50) asked every 100 ms during the run, as the page would be.
func BenchmarkIngestMaildirFirstRun(b *testing.B) {
	n := 10000
	if v, err := strconv.Atoi(os.Getenv("OPSBOARD_BENCH_MAILS")); err == nil && v > 0 {
		n = v
	}
	now := time.Now()
	box := filepath.Join(b.TempDir(), "Maildir")
	benchMaildir(b, box, n, now)
	for _, tc := range []struct{ name, since string }{
		{"since=all", "2000-01-01"},
		{"since=default", ""},
		{"since=1y", now.AddDate(-1, 0, 0).Format("2006-01-02")},
	} {
		b.Run(fmt.Sprintf("mails=%d/%s", n, tc.name), func(b *testing.B) { benchFirstRun(b, box, n, tc.since) })
	}
}

func benchFirstRun(b *testing.B, box string, n int, since string) {
	bundles, err := labels.Load()
	if err != nil {
		b.Fatal(err)
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	var peak uint64
	var slowest time.Duration
	for range b.N {
		b.StopTimer()
		dir := b.TempDir()
		st, err := store.Open(store.Config{Path: filepath.Join(dir, "board.json"), MessageKey: dedupe.Key, Seed: labels.SeedUniversal(bundles), Logger: quiet})
		if err != nil {
			b.Fatal(err)
		}
		a, router := api.New(api.Config{Store: st, Version: "bench", Logger: quiet, Bundles: bundles})
		srv := httptest.NewServer(router)
		cfg := ingest.Config{Sources: []ingest.SourceConfig{{Name: "home", Kind: "maildir", Path: box, Since: since}}}
		runtime.GC()
		stop := watchRun(srv.URL, &peak, &slowest)
		b.StartTimer()
		rep, err := ingest.Run(context.Background(), ingest.Options{Board: ingest.NewBoard(srv.URL), Config: cfg, StateDir: dir, Logger: quiet})
		b.StopTimer()
		stop()
		if err != nil || rep.Fetched+rep.OlderSkipped != n || rep.New != rep.Fetched {
			b.Fatalf("run: %v, %+v", err, rep)
		}
		b.ReportMetric(float64(rep.New), "new")
		a.Close()
		srv.Close()
		st.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "read-msgs/s")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(slowest.Milliseconds()), "inbox-max-ms")
}

// watchRun samples the heap and asks for the inbox's first page every
// 100 ms until stop is called, keeping the largest heap and the slowest
// answer.
func watchRun(url string, peak *uint64, slowest *time.Duration) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			*peak = max(*peak, ms.HeapInuse)
			start := time.Now()
			if resp, err := http.Get(url + "/api/messages?limit=50&cursor="); err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				*slowest = max(*slowest, time.Since(start))
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}
