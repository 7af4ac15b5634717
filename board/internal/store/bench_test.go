package store

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

// benchSizes are the document sizes the issue asks for: cases with 5 tasks
// each and 10 linked messages per case.
var benchSizes = []struct {
	name  string
	cases int
}{{"100", 100}, {"1k", 1000}, {"10k", 10000}}

func skipLarge(b *testing.B, cases int) {
	if cases >= 10000 && testing.Short() {
		b.Skip("the 10k document (~200 MB) is skipped under -short")
	}
}

// fixtureDoc builds a realistic board: cases with summaries, tasks, notes and
// activity, and linked messages with a body of a typical email's length.
func fixtureDoc(cases int) *wire.Doc {
	d := storefile.New()
	at := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	ts := func(i int) string { return at.Add(time.Duration(i) * time.Minute).Format(time.RFC3339Nano) }
	body := strings.Repeat("Thanks for the update on the vendor contract. We still need the signed DPA and the revised pricing sheet before Friday. ", 12)
	d.Labels = []*wire.LabelDef{
		{ID: "finance", Title: "Finance", Description: "Money in and out", Color: "green"},
		{ID: "legal", Title: "Legal", Description: "Contracts and compliance", Color: "red"},
		{ID: "waiting", Title: "Waiting", Description: "Blocked on someone else", Color: "amber"},
	}
	for i := 1; i <= cases; i++ {
		id := fmt.Sprintf("CASE-%d", i)
		c := &wire.Case{
			ID: id, Title: fmt.Sprintf("Renew the vendor contract for site %d", i),
			Summary: "Procurement asked for a renewal before the end of the quarter; legal wants the DPA re-signed and finance wants three quotes.",
			Status:  wire.Lanes[i%len(wire.Lanes)], Domain: wire.Domains[i%2], Kind: "case",
			Labels: []string{"finance", "legal"}, Tags: []string{"vendor", "q2"},
			CreatedAt: ts(i), UpdatedAt: ts(i + 1),
		}
		for k := 1; k <= 5; k++ {
			c.Tasks = append(c.Tasks, wire.Task{ID: fmt.Sprintf("%s-T%d", id, k), Title: fmt.Sprintf("Step %d: collect the quote from supplier %d", k, k), CreatedAt: ts(i)})
		}
		c.Notes = []wire.Note{{ID: id + "-N1", Text: "Called the account manager; they will send the paperwork on Monday.", Actor: wire.ActorHuman, CreatedAt: ts(i)}}
		for k := 0; k < 12; k++ {
			c.Activity = append(c.Activity, wire.Activity{Actor: wire.ActorAgent, Verb: "message_linked", TS: ts(i + k), Detail: fmt.Sprintf("M-%d Re: contract renewal", i*10+k)})
		}
		d.Cases = append(d.Cases, c)
		for k := 0; k < 10; k++ {
			n := (i-1)*10 + k + 1
			d.Messages = append(d.Messages, &wire.Message{
				ID: fmt.Sprintf("M-%d", n), Source: "gmail", From: "account.manager@vendor.example",
				To: wire.Addresses{"me@example.com"}, Cc: wire.Addresses{"legal@example.com"},
				Subject: fmt.Sprintf("Re: contract renewal for site %d (%d)", i, k), Preview: body[:160], Body: body,
				ReceivedAt: ts(n), Read: k%3 == 0, CaseID: id, URL: "https://mail.example.com/m/" + fmt.Sprint(n),
			})
		}
	}
	d.Version = int64(cases)
	d.Counters = storefile.Counters(d)
	return d
}

// writeFixture puts the fixture document in a fresh directory and returns
// its path and size.
func writeFixture(tb testing.TB, d *wire.Doc) (string, int64) {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "board.json")
	data, err := encodeDoc(d)
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		tb.Fatal(err)
	}
	return path, int64(len(data))
}

func quietConfig(path string) Config {
	return Config{Path: path, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
}

// latencies collects per-write durations from several goroutines.
type latencies struct {
	mu sync.Mutex
	d  []time.Duration
}

func (l *latencies) add(d []time.Duration) {
	l.mu.Lock()
	l.d = append(l.d, d...)
	l.mu.Unlock()
}

func (l *latencies) report(b *testing.B) {
	if len(l.d) == 0 {
		return
	}
	slices.Sort(l.d)
	q := func(p float64) float64 {
		return float64(l.d[int(p*float64(len(l.d)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(q(0.50), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
}

func patchTitle(s *Store, id string, i int) error {
	_, _, err := s.PatchCase(context.Background(), wire.ActorAgent, id, wire.CasePatch{Title: wire.Some(fmt.Sprintf("Renew the vendor contract, round %d", i))})
	return err
}

// BenchmarkWrite is one writer: each write returns after its journal fsync.
func BenchmarkWrite(b *testing.B) {
	for _, sz := range benchSizes {
		d := (*wire.Doc)(nil)
		for _, op := range []string{"patch", "create"} {
			b.Run(sz.name+"/"+op, func(b *testing.B) {
				skipLarge(b, sz.cases)
				if d == nil {
					d = fixtureDoc(sz.cases)
				}
				path, _ := writeFixture(b, d)
				s, err := Open(quietConfig(path))
				if err != nil {
					b.Fatal(err)
				}
				defer s.Close()
				var lat latencies
				own := make([]time.Duration, 0, b.N)
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					t0 := time.Now()
					if op == "patch" {
						err = patchTitle(s, fmt.Sprintf("CASE-%d", 1+i%sz.cases), i)
					} else {
						_, _, _, err = s.CreateCase(context.Background(), wire.ActorAgent, wire.CaseCreate{Title: fmt.Sprintf("New case %d", i), Labels: []string{"finance"}})
					}
					own = append(own, time.Since(t0))
					if err != nil {
						b.Fatal(err)
					}
				}
				b.StopTimer()
				lat.add(own)
				lat.report(b)
			})
		}
	}
}

// BenchmarkConcurrentWriters is 8 clients writing at once; concurrent
// writers share one fsync (group commit).
func BenchmarkConcurrentWriters(b *testing.B) {
	const writers = 8
	for _, sz := range benchSizes {
		b.Run(sz.name, func(b *testing.B) {
			skipLarge(b, sz.cases)
			path, _ := writeFixture(b, fixtureDoc(sz.cases))
			s, err := Open(quietConfig(path))
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			var lat latencies
			var errs atomic.Int64
			var next atomic.Int64
			var wg sync.WaitGroup
			b.ResetTimer()
			start := time.Now()
			for w := 0; w < writers; w++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					own := make([]time.Duration, 0, b.N/writers+1)
					for {
						i := next.Add(1)
						if i > int64(b.N) {
							break
						}
						t0 := time.Now()
						if err := patchTitle(s, fmt.Sprintf("CASE-%d", 1+int(i)%sz.cases), int(i)); err != nil {
							errs.Add(1)
						}
						own = append(own, time.Since(t0))
					}
					lat.add(own)
				}()
			}
			wg.Wait()
			elapsed := time.Since(start)
			b.StopTimer()
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "writes/s")
			b.ReportMetric(float64(errs.Load()), "errors")
			lat.report(b)
		})
	}
}

// BenchmarkColdLoad opens a store on an existing document with journal
// entries newer than it, and reports the heap it holds against the file.
func BenchmarkColdLoad(b *testing.B) {
	const journaled = 500
	for _, sz := range benchSizes {
		b.Run(sz.name, func(b *testing.B) {
			skipLarge(b, sz.cases)
			d := fixtureDoc(sz.cases)
			path, size := writeFixture(b, d)
			var journal []byte
			for i := 1; i <= journaled; i++ {
				c := CloneCase(d.Cases[i%len(d.Cases)])
				c.Title = fmt.Sprintf("Edited %d", i)
				var err error
				journal, err = storefile.AppendEntry(journal, &storefile.Entry{Version: d.Version + int64(i), Cases: []*wire.Case{c}})
				if err != nil {
					b.Fatal(err)
				}
			}
			doc, err := os.ReadFile(path)
			if err != nil {
				b.Fatal(err)
			}
			d = nil
			var heap float64
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				if err := os.WriteFile(path, doc, 0o600); err != nil {
					b.Fatal(err)
				}
				if err := os.WriteFile(storefile.JournalPath(path), journal, 0o600); err != nil {
					b.Fatal(err)
				}
				runtime.GC()
				var before runtime.MemStats
				runtime.ReadMemStats(&before)
				b.StartTimer()
				s, err := Open(quietConfig(path))
				if err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				if want := int64(sz.cases + journaled); s.Version() != want {
					b.Fatalf("loaded version %d, want %d", s.Version(), want)
				}
				runtime.GC()
				var after runtime.MemStats
				runtime.ReadMemStats(&after)
				heap = float64(after.HeapAlloc) - float64(before.HeapAlloc)
				s.Close()
				b.StartTimer()
			}
			b.ReportMetric(float64(size)/1e6, "doc-MB")
			b.ReportMetric(heap/float64(size), "heap/doc")
		})
	}
}

// BenchmarkListEncode is the JSON encoding of GET /api/cases at one version.
func BenchmarkListEncode(b *testing.B) {
	for _, sz := range benchSizes {
		b.Run(sz.name, func(b *testing.B) {
			skipLarge(b, sz.cases)
			d := fixtureDoc(sz.cases)
			var buf bytes.Buffer
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				buf.Reset()
				if err := json.NewEncoder(&buf).Encode(map[string]any{"cases": d.Cases, "version": d.Version}); err != nil {
					b.Fatal(err)
				}
			}
			b.SetBytes(int64(buf.Len()))
		})
	}
}

// BenchmarkCompact is one background compaction: the document rewritten by
// atomic rename. It bounds how far the document trails the journal.
func BenchmarkCompact(b *testing.B) {
	for _, sz := range benchSizes {
		b.Run(sz.name, func(b *testing.B) {
			skipLarge(b, sz.cases)
			path, _ := writeFixture(b, fixtureDoc(sz.cases))
			cfg := quietConfig(path)
			cfg.CompactIdle = time.Hour
			cfg.CompactEntries = 1 << 30
			s, err := Open(cfg)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				// The write costs well under 1% of the compaction.
				if err := patchTitle(s, "CASE-1", i); err != nil {
					b.Fatal(err)
				}
				if err := s.compact(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
