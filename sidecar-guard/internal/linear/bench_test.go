package linear_test

import (
	"os"
	"testing"

	"github.com/opsboard/opsboard/sidecar-guard/internal/linear"
)

// BenchmarkProbabilitySegment scores one full segment (4,000 characters of
// mail text) with the model alone; a 10 KB mail is three of them.
func BenchmarkProbabilitySegment(b *testing.B) {
	raw, err := os.ReadFile("testdata/slice/benign_llmail_emails.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	text := string(raw[:4000])
	m, err := linear.Embedded()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		m.Probability(text)
	}
}
