package index_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sort"
	"testing"
	"time"

	"github.com/opsboard/opsboard/shared/searchdoc/searchdoctest"
	"github.com/opsboard/opsboard/shared/wire"
	"github.com/opsboard/opsboard/sidecar-search/internal/embed"
	"github.com/opsboard/opsboard/sidecar-search/internal/index"
)

// synthetic builds a store of about n documents: per 10 documents one case
// with three tasks, five messages and one reminder, with text drawn from
// a Zipf-distributed vocabulary of made-up words.
func synthetic(n int) *wire.Doc {
	r := rand.New(rand.NewPCG(42, 42))
	words, text := searchdoctest.Vocabulary(r, 5000)
	d := &wire.Doc{}
	for i := 0; i < n/10; i++ {
		id := fmt.Sprintf("CASE-%d", i+1)
		c := &wire.Case{ID: id, Title: text(6), Summary: text(20), Tags: []string{words[r.IntN(50)]}, Status: wire.Lane(wire.Lanes()[i%5]), Domain: wire.Domain(wire.Domains()[i%2]), Kind: "case"}
		for t := range 3 {
			c.Tasks = append(c.Tasks, wire.Task{ID: fmt.Sprintf("%s-T%d", id, t+1), Title: text(5), Detail: text(8)})
		}
		d.Cases = d.Cases.Append(c)
		for m := range 5 {
			d.Messages = d.Messages.Append(&wire.Message{ID: fmt.Sprintf("M-%d", i*5+m+1), Subject: text(8), From: words[r.IntN(500)] + "@example.com", Preview: text(25), CaseID: id})
		}
		d.Reminders = d.Reminders.Append(&wire.Reminder{ID: fmt.Sprintf("REM-%d", i+1), Title: text(6), Detail: text(10), Status: "open", Domain: wire.Domain(wire.Domains()[i%2])})
	}
	return d
}

// BenchmarkBuild100kHash is a full index build from a loaded store state:
// deriving the documents, hashing, the digest and embedding every one.
func BenchmarkBuild100kHash(b *testing.B) {
	d := synthetic(100_000)
	n := len(index.Docs(d))
	b.ResetTimer()
	for b.Loop() {
		ix := index.New()
		if _, err := ix.Update(context.Background(), index.Docs(d), embed.Hash{}, false); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "docs/s")
}

// BenchmarkSearch3Queries100k is one sidecar ranking call of three queries
// over 100k documents, limit 50, reporting the median latency.
func BenchmarkSearch3Queries100k(b *testing.B) {
	ctx := context.Background()
	d := synthetic(100_000)
	ix := index.New()
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if _, err := ix.Update(ctx, index.Docs(d), embed.Hash{}, false); err != nil {
		b.Fatal(err)
	}
	d = nil
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	queries := []string{"renew the lease agreement", "acme invoice overdue", "quarterly planning offsite"}
	var lat []time.Duration
	b.ResetTimer()
	for b.Loop() {
		t0 := time.Now()
		if _, _, err := ix.Search(ctx, queries, index.Filter{}, 50, embed.Hash{}); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "index-MB")
	runtime.KeepAlive(ix)
}
