package render

import (
	"strings"
	"testing"

	"github.com/opsboard/opsboard/shared/wire"
)

func TestSearchNamesTheHashEmbedderAndLeavesOutWeakHits(t *testing.T) {
	ans := wire.SearchEnvelope{
		Engine: "semantic", Embedder: "hash",
		Results: []wire.QueryResult{{Query: "passport", Hits: []wire.SearchHit{
			{Type: "case", ID: "CASE-1", Why: []string{"semantic"}, Cosine: 0.52, Score: 0.5, Case: &wire.Case{ID: "CASE-1", Title: "Renew passport", Status: "todo"}},
			{Type: "case", ID: "CASE-2", Why: []string{"title-match", "semantic"}, Cosine: 0.1, Score: 2.1, Case: &wire.Case{ID: "CASE-2", Title: "Passport photos", Status: "todo"}},
			{Type: "case", ID: "CASE-3", Why: []string{"semantic"}, Cosine: 0.21, Score: 0.2, Case: &wire.Case{ID: "CASE-3", Title: "Dentist", Status: "todo"}},
		}}},
	}
	got := Search(ans, true)
	for _, want := range []string{
		`Search "passport" (semantic, fuzzy matching, no model loaded): 2 hits`,
		"CASE-1 - Renew passport", "CASE-2 - Passport photos",
		"1 weak semantic hit (cosine below 0.25) left out: not matches.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("answer lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "CASE-3") || strings.Contains(got, "embedder hash") {
		t.Errorf("a weak hit or the raw embedder name is shown:\n%s", got)
	}
}
