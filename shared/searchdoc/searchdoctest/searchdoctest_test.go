package searchdoctest_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/shared/searchdoc/searchdoctest"
)

func TestVocabulary(t *testing.T) {
	words, text := searchdoctest.Vocabulary(rand.New(rand.NewPCG(1, 2)), 100)
	if len(words) != 100 {
		t.Fatalf("%d words, want 100", len(words))
	}
	for _, w := range words {
		if len(w) < 3 || len(w) > 8 || strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") != "" {
			t.Errorf("word %q is not 3 to 8 lowercase letters", w)
		}
	}
	counts := map[string]int{}
	for range 200 {
		ws := strings.Fields(text(5))
		if len(ws) != 5 {
			t.Fatalf("text of %d words, want 5", len(ws))
		}
		for _, w := range ws {
			counts[w]++
		}
	}
	// Zipf: the first word is drawn far more often than the tenth.
	if counts[words[0]] <= 4*counts[words[9]] {
		t.Errorf("first word drawn %d times, tenth %d: not Zipf-like", counts[words[0]], counts[words[9]])
	}

	again, text2 := searchdoctest.Vocabulary(rand.New(rand.NewPCG(1, 2)), 100)
	if diff := cmp.Diff(words, again); diff != "" {
		t.Errorf("same seed, other words (-first +second)\n%s", diff)
	}
	_, text1 := searchdoctest.Vocabulary(rand.New(rand.NewPCG(1, 2)), 100)
	if a, b := text1(8), text2(8); a != b {
		t.Errorf("same seed, other texts: %q vs %q", a, b)
	}
}
