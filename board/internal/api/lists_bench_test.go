package api_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"testing"

	"github.com/opsboard/opsboard/board/internal/api"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/board/internal/testkit"
)

// BenchmarkListsAtAYearOfUse reads the lists a page loads, whole and as
// summaries, and the changes of one write, on a board of 1,000 cases and
// 10,000 linked messages. Each request asks with a query the cache has not
// seen, so it measures building the answer, not replaying it. Figures in
// the board's README.
func BenchmarkListsAtAYearOfUse(b *testing.B) {
	if testing.Short() {
		b.Skip("builds a 20 MB board")
	}
	bd := newBoard(b, func(s *store.Config, _ *api.Config) {
		data, err := json.Marshal(testkit.BoardDoc(1000))
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(s.Path, data, 0o600); err != nil {
			b.Fatal(err)
		}
	})
	get := func(b *testing.B, path string) int {
		resp, err := http.Get(bd.URL + path)
		if err != nil {
			b.Fatal(err)
		}
		defer resp.Body.Close()
		n, err := io.Copy(io.Discard, resp.Body)
		if err != nil || resp.StatusCode != http.StatusOK {
			b.Fatalf("GET %s: %d %v", path, resp.StatusCode, err)
		}
		return int(n)
	}
	for _, r := range []struct{ name, path string }{
		{"cases/full", "/api/cases?x="}, {"cases/summary", "/api/cases?view=summary&x="},
		{"tree/full", "/api/tree?x="}, {"tree/summary", "/api/tree?view=summary&x="},
		{"messages/full", "/api/messages?x="}, {"messages/summary", "/api/messages?view=summary&x="},
		{"messages/summary-page-100", "/api/messages?view=summary&limit=100&x="},
		{"activity/400", "/api/activity?limit=400&x="}, {"activity/summary-page-400", "/api/activity?view=summary&limit=400&x="},
	} {
		b.Run(r.name, func(b *testing.B) {
			size, i := 0, 0
			for b.Loop() {
				i++
				size = get(b, fmt.Sprintf("%s%d", r.path, i))
			}
			b.ReportMetric(float64(size), "B/answer")
		})
	}
	// One agent write, then what changed since the version before it; and
	// since 100 writes back.
	for _, back := range []int{1, 100} {
		b.Run(fmt.Sprintf("changes/%d-writes", back), func(b *testing.B) {
			for i := range back {
				bd.must(http.StatusOK, "PATCH", "/api/cases/CASE-1", map[string]any{"title": fmt.Sprintf("renamed %d", i)}, agent...)
			}
			since := bd.Store.Version() - int64(back)
			size := 0
			for b.Loop() {
				size = get(b, fmt.Sprintf("/api/changes?since=%d", since))
			}
			b.ReportMetric(float64(size), "B/answer")
		})
	}
}
