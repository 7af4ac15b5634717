package api

import (
	"io"
	"log/slog"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/search"
	"github.com/opsboard/opsboard/shared/wire"
)

// TestRankingThatPanicsStillAnswers: whatever the document holds, a search
// answers (an empty keyword answer) instead of ending the connection, on the
// keyword path as on the semantic one.
func TestRankingThatPanicsStillAnswers(t *testing.T) {
	s := newSearcher("", slog.New(slog.NewTextHandler(io.Discard, nil)))
	calls := 0
	s.rankFn = func(*search.Index, search.Request, *search.Semantic) search.Envelope {
		calls++
		panic("a record the ranker cannot handle")
	}
	req, err := search.Parse(search.Body{Queries: []string{"first", "second"}})
	if err != nil {
		t.Fatal(err)
	}
	want := search.Envelope{
		Engine: "keyword", Embedder: "none",
		Results: []search.QueryResult{{Query: "first", Hits: []search.Hit{}}, {Query: "second", Hits: []search.Hit{}}},
		Merged:  search.Records{Cases: []*wire.Case{}, Tasks: []search.TaskRef{}, Messages: []*wire.Message{}, Reminders: []*wire.Reminder{}},
	}
	for _, sem := range []*search.Semantic{nil, {Embedder: "test", Cosines: []map[string]float64{{}, {}}}} {
		calls = 0
		if diff := cmp.Diff(want, s.rank(search.Build(&wire.Doc{}, nil), req, sem)); diff != "" {
			t.Errorf("semantic %v: answer (-want +got)\n%s", sem != nil, diff)
		}
		if wantCalls := map[bool]int{false: 1, true: 2}[sem != nil]; calls != wantCalls {
			t.Errorf("semantic %v: ranked %d times, want %d (the keyword path after the semantic one)", sem != nil, calls, wantCalls)
		}
	}
}
