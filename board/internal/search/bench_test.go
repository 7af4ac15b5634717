package search_test

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"github.com/opsboard/opsboard/board/internal/search"
	"github.com/opsboard/opsboard/shared/searchdoc/searchdoctest"
	"github.com/opsboard/opsboard/shared/wire"
)

// board1k10k is 1,000 cases (three tasks each) and 10,000 linked messages
// with text drawn from a Zipf-distributed vocabulary of made-up words.
func board1k10k() *wire.Doc {
	r := rand.New(rand.NewPCG(1, 2))
	words, text := searchdoctest.Vocabulary(r, 4000)
	d := &wire.Doc{}
	for i := range 1000 {
		id := fmt.Sprintf("CASE-%d", i+1)
		c := &wire.Case{ID: id, Title: text(5), Summary: text(30), Tags: []string{words[r.IntN(40)]}, Status: wire.Lane(wire.Lanes()[i%5]), Domain: wire.Domain(wire.Domains()[i%2]), Kind: "case"}
		for t := range 3 {
			c.Tasks = append(c.Tasks, wire.Task{ID: fmt.Sprintf("%s-T%d", id, t+1), Title: text(5)})
		}
		d.Cases = d.Cases.Append(c)
	}
	for i := range 10000 {
		d.Messages = d.Messages.Append(&wire.Message{ID: fmt.Sprintf("M-%d", i+1), Subject: text(8), From: words[r.IntN(300)] + "@example.com", Preview: text(30), Body: text(120), CaseID: fmt.Sprintf("CASE-%d", r.IntN(1000)+1)})
	}
	return d
}

func p50(lat []time.Duration) float64 {
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	return float64(lat[len(lat)/2].Microseconds()) / 1000
}

// BenchmarkKeywordSearch1kCases10kMessages is a POST /api/search on the
// keyword path over a warm index: three queries, k 10.
func BenchmarkKeywordSearch1kCases10kMessages(b *testing.B) {
	d := board1k10k()
	var x search.Indexer
	x.For(d)
	req, err := search.Parse(search.Body{Queries: []string{d.Cases.At(10).Title, "invoice overdue payment", "CASE-42"}})
	if err != nil {
		b.Fatal(err)
	}
	var lat []time.Duration
	for b.Loop() {
		t0 := time.Now()
		search.Rank(x.For(d), req, nil)
		lat = append(lat, time.Since(t0))
	}
	b.ReportMetric(p50(lat), "p50-ms")
}

// BenchmarkIndexBuild1kCases10kMessages is the first search after start:
// every record analysed.
func BenchmarkIndexBuild1kCases10kMessages(b *testing.B) {
	d := board1k10k()
	for b.Loop() {
		search.Build(d, nil)
	}
}

// BenchmarkIndexAfterOneWrite is the first search after a write: the
// index of the new snapshot reuses every unchanged record's analysis.
func BenchmarkIndexAfterOneWrite(b *testing.B) {
	d := board1k10k()
	prev := search.Build(d, nil)
	next := *d
	c := *d.Cases.At(7)
	c.Title = "edited title"
	next.Cases = d.Cases.Set(7, &c)
	for b.Loop() {
		search.Build(&next, prev)
	}
}

// BenchmarkScan1kCases10kMessages is GET /api/search: a word in no record,
// so every field of every record is read, mail bodies included.
func BenchmarkScan1kCases10kMessages(b *testing.B) {
	d := board1k10k()
	for b.Loop() {
		if r := search.Scan(d, "Zqxj"); len(r.Cases)+len(r.Messages) != 0 {
			b.Fatal("the word matched")
		}
	}
}
