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
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/opsboard/opsboard/board/internal/testkit"
	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

// benchSizes are the document sizes the store is measured at: cases with 5 tasks
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

// openWarm opens a store on path in the state a running board is in: it has
// compacted once (so the encoder holds every record and a snapshot exists).
// The first compaction after a start is measured on its own.
func openWarm(b *testing.B, path string) *Store {
	b.Helper()
	s, err := Open(quietConfig(path))
	if err != nil {
		b.Fatal(err)
	}
	if err := patchTitle(s, "CASE-1", -1); err != nil {
		b.Fatal(err)
	}
	if err := s.compact(); err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	return s
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

// patchTitle is a typical small write as the case rules make it: one case
// copied, retitled, logged and put back. The engine's cost does not depend on
// which rule made the change, so the benchmarks write directly.
func patchTitle(s *Store, id string, i int) error {
	_, err := s.Update(context.Background(), wire.ActorAgent, nil, func(tx *Tx) error {
		c, ok := tx.Cases().Get(id)
		if !ok {
			return fmt.Errorf("case %s not found", id)
		}
		c.Title = fmt.Sprintf("Renew the vendor contract, round %d", i)
		c.Activity = append(c.Activity, wire.Activity{Actor: tx.Actor(), Verb: "title_changed", TS: tx.Stamp(), Detail: c.Title})
		c.UpdatedAt = tx.Stamp()
		tx.Cases().Put(c)
		return nil
	})
	return err
}

// createCase is a typical create: a new case with an id minted.
func createCase(s *Store, i int) error {
	_, err := s.Update(context.Background(), wire.ActorAgent, nil, func(tx *Tx) error {
		tx.Cases().Put(&wire.Case{ID: tx.NextID("CASE"), Title: fmt.Sprintf("New case %d", i), Status: "todo", Domain: "work", Kind: "case",
			Labels: []string{"finance"}, CreatedAt: tx.Stamp(), UpdatedAt: tx.Stamp()})
		return nil
	})
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
					d = testkit.BoardDoc(sz.cases)
				}
				path, _ := writeFixture(b, d)
				s := openWarm(b, path)
				defer s.Close()
				var lat latencies
				var err error
				own := make([]time.Duration, 0, b.N)
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					t0 := time.Now()
					if op == "patch" {
						err = patchTitle(s, fmt.Sprintf("CASE-%d", 1+i%sz.cases), i)
					} else {
						err = createCase(s, i)
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
			path, _ := writeFixture(b, testkit.BoardDoc(sz.cases))
			s := openWarm(b, path)
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
// entries newer than it: as many as may wait for compaction (CompactEntries),
// the worst a crash leaves. It reports the heap the open store holds against
// the document's size, right after the open and at steady state (after a
// compaction has filled the encoder's cache).
func BenchmarkColdLoad(b *testing.B) {
	const journaled = 5000
	for _, sz := range benchSizes {
		b.Run(sz.name, func(b *testing.B) {
			skipLarge(b, sz.cases)
			d := testkit.BoardDoc(sz.cases)
			path, size := writeFixture(b, d)
			var journal []byte
			for i := 1; i <= journaled; i++ {
				c := cloneCase(d.Cases.At((i * 7) % d.Cases.Len()))
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
			var opened, steady float64
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				if err := os.WriteFile(path, doc, 0o600); err != nil {
					b.Fatal(err)
				}
				if err := os.WriteFile(storefile.JournalPath(path), journal, 0o600); err != nil {
					b.Fatal(err)
				}
				cfg := manualConfig(path)
				runtime.GC()
				b.StartTimer()
				s, err := Open(cfg)
				if err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				if want := int64(sz.cases + journaled); s.Version() != want {
					b.Fatalf("loaded version %d, want %d", s.Version(), want)
				}
				withOpen := heapInUse()
				if err := s.compact(); err != nil {
					b.Fatal(err)
				}
				withCache := heapInUse()
				s.Close()
				s = nil
				base := heapInUse() // everything the store held is garbage now
				opened, steady = withOpen-base, withCache-base
				b.StartTimer()
			}
			b.ReportMetric(float64(size)/1e6, "doc-MB")
			b.ReportMetric(opened/float64(size), "heap/doc-open")
			b.ReportMetric(steady/float64(size), "heap/doc-steady")
		})
	}
}

// heapInUse is the live heap after a full collection.
func heapInUse() float64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return float64(m.HeapAlloc)
}

// BenchmarkListEncode is the JSON encoding of GET /api/cases at one version.
func BenchmarkListEncode(b *testing.B) {
	for _, sz := range benchSizes {
		b.Run(sz.name, func(b *testing.B) {
			skipLarge(b, sz.cases)
			d := testkit.BoardDoc(sz.cases)
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
			path, _ := writeFixture(b, testkit.BoardDoc(sz.cases))
			cfg := quietConfig(path)
			cfg.CompactIdle = time.Hour
			cfg.CompactEntries = 1 << 30
			s, err := Open(cfg)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			// The first compaction after a start encodes every record; later
			// ones only what changed. The benchmark measures the later ones.
			if err := s.compact(); err != nil {
				b.Fatal(err)
			}
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
			b.StopTimer()
			fi, err := os.Stat(path)
			if err != nil {
				b.Fatal(err)
			}
			snaps := s.listSnapshots()
			if len(snaps) == 0 {
				b.Fatal("no snapshot")
			}
			sn, err := os.Stat(snaps[len(snaps)-1].path)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(fi.Size())/1e6, "doc-MB")
			b.ReportMetric(float64(sn.Size())/1e6, "snapshot-MB")
		})
	}
}

// BenchmarkFirstCompaction is the first compaction after a start, when no
// record's encoding is cached yet.
func BenchmarkFirstCompaction(b *testing.B) {
	for _, sz := range benchSizes {
		b.Run(sz.name, func(b *testing.B) {
			skipLarge(b, sz.cases)
			d := testkit.BoardDoc(sz.cases)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				var e docEncoder
				if err := e.write(io.Discard, d); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDraft is the in-memory part of one write inside the critical
// section, without the fsync: draft, find, copy-on-write of the touched
// collection, journal entry encoding. A patch copies the touched record's
// chunk of its collection and the collection's index of chunks (a few KB at
// any size); a create appends in place.
func BenchmarkDraft(b *testing.B) {
	for _, sz := range benchSizes {
		b.Run(sz.name, func(b *testing.B) {
			skipLarge(b, sz.cases)
			d := testkit.BoardDoc(sz.cases)
			ix := buildIndexes(d, nil)
			now := time.Now()
			for _, op := range []string{"patch-case", "patch-message", "create-case"} {
				b.Run(op, func(b *testing.B) {
					for i := 0; i < b.N; i++ {
						tx := newTx(d, now, wire.ActorAgent)
						tx.useIndexes(ix)
						switch op {
						case "patch-case":
							c, _ := tx.Cases().Get(fmt.Sprintf("CASE-%d", 1+i%sz.cases))
							c.Title = "patched"
							tx.Cases().Put(c)
						case "patch-message":
							m, _ := tx.Messages().Get(fmt.Sprintf("M-%d", 1+i%(10*sz.cases)))
							m.Read = !m.Read
							tx.Messages().Put(m)
						case "create-case":
							tx.Cases().Put(&wire.Case{ID: tx.NextID("CASE"), Title: "new", Status: "todo", Domain: "work", Kind: "case"})
						}
						if _, err := storefile.AppendEntry(nil, tx.entry(d.Version+1)); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		})
	}
}

// BenchmarkDocumentLag measures how far the document on disk trails the
// acknowledged writes with the default compaction settings while 8 clients
// write flat out (the worst case: the compactor never sees an idle second).
// max-lag-s is the longest time from a write's acknowledgement to the
// rename of a document that holds it.
func BenchmarkDocumentLag(b *testing.B) {
	const writeFor = 6 * time.Second
	for _, sz := range benchSizes {
		for _, load := range []struct {
			name    string
			writers int
			pause   time.Duration // between one client's writes
		}{{"8-clients-flat-out", 8, 0}, {"20-writes-per-s", 1, 50 * time.Millisecond}} {
			b.Run(sz.name+"/"+load.name, func(b *testing.B) {
				documentLag(b, sz.cases, load.writers, load.pause, writeFor)
			})
		}
	}
}

func documentLag(b *testing.B, cases, writers int, pause, writeFor time.Duration) {
	skipLarge(b, cases)
	path, _ := writeFixture(b, testkit.BoardDoc(cases))
	var worst, total time.Duration
	var count int
	for i := 0; i < b.N; i++ {
		s := openWarm(b, path)
		var mu sync.Mutex
		ackedAt := map[int64]time.Time{}
		type fold struct {
			version int64
			at      time.Time
		}
		var folds []fold
		stop := make(chan struct{})
		polled := make(chan struct{})
		go func() { // notes each time a newer document lands
			defer close(polled)
			last := s.compacted.Load()
			for {
				if v := s.compacted.Load(); v != last {
					folds = append(folds, fold{v, time.Now()})
					last = v
				}
				select {
				case <-stop:
					return
				case <-time.After(time.Millisecond):
				}
			}
		}()
		var wg sync.WaitGroup
		start := time.Now()
		for w := 0; w < writers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for n := 0; time.Since(start) < writeFor; n++ {
					v, err := s.Update(context.Background(), wire.ActorAgent, nil, func(tx *Tx) error {
						c, _ := tx.Cases().Get(fmt.Sprintf("CASE-%d", 1+(n*writers+w)%cases))
						c.Title = fmt.Sprint("lag ", n)
						tx.Cases().Put(c)
						return nil
					})
					if err != nil {
						b.Error(err)
						return
					}
					at := time.Now()
					mu.Lock()
					ackedAt[v] = at
					mu.Unlock()
					time.Sleep(pause)
				}
			}()
		}
		wg.Wait()
		last := s.Version()
		for s.compacted.Load() < last {
			time.Sleep(time.Millisecond)
		}
		time.Sleep(5 * time.Millisecond)
		close(stop)
		<-polled
		for v, at := range ackedAt {
			for _, f := range folds {
				if f.version >= v {
					lag := f.at.Sub(at)
					worst = max(worst, lag)
					total += lag
					count++
					break
				}
			}
		}
		s.Close()
	}
	b.ReportMetric(worst.Seconds(), "max-lag-s")
	b.ReportMetric(total.Seconds()/float64(max(count, 1)), "mean-lag-s")
}
