package search_test

import (
	"testing"
	"time"

	"github.com/opsboard/opsboard/board/internal/search"
)

// BenchmarkKeywordSearchWithFields is the search tool's request (bodies and
// notes) over a warm index whose extra texts are already analysed.
func BenchmarkKeywordSearchWithFields(b *testing.B) {
	d := board1k10k()
	var x search.Indexer
	req, err := search.Parse(search.Body{Queries: []string{d.Cases.At(10).Title, "invoice overdue payment", "CASE-42"}, Fields: []string{"body", "notes"}})
	if err != nil {
		b.Fatal(err)
	}
	search.Rank(x.For(d), req, nil)
	var lat []time.Duration
	for b.Loop() {
		t0 := time.Now()
		search.Rank(x.For(d), req, nil)
		lat = append(lat, time.Since(t0))
	}
	b.ReportMetric(p50(lat), "p50-ms")
}

// BenchmarkFieldsFirstUse is the first request with fields on a fresh
// index: every message body and case's notes analysed once.
func BenchmarkFieldsFirstUse(b *testing.B) {
	d := board1k10k()
	req, err := search.Parse(search.Body{Q: ptr("invoice"), Fields: []string{"body", "notes"}})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		search.Rank(search.Build(d, nil), req, nil)
	}
}
