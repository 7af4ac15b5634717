package search

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestContainsLower: the in-place comparison answers as lower-casing the
// field would, for ASCII and for fields with other letters.
func TestContainsLower(t *testing.T) {
	for _, tc := range []struct {
		s, q string
		want bool
	}{
		{"Renew the LEASE", "lease", true},
		{"Renew the LEASE", "leases", false},
		{"", "", true},
		{"abc", "", true},
		{"ab", "abc", false},
		{"Straße", "straße", true},
		{"KELVIN \u212a", "k", true}, // the Kelvin sign lower-cases to k
		{"plain ascii", "é", false},
		{"aaab", "aab", true},
	} {
		if got := containsLower(tc.s, tc.q); got != tc.want {
			t.Errorf("containsLower(%q, %q) = %v, want %v", tc.s, tc.q, got, tc.want)
		}
	}
	// Random fields from a small alphabet (so matches are common) against
	// the plain definition.
	rng := rand.New(rand.NewPCG(1, 2))
	alpha := []rune("aAbBzZ 1éÉ\u212a")
	word := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteRune(alpha[rng.IntN(len(alpha))])
		}
		return b.String()
	}
	for range 20000 {
		s, q := word(rng.IntN(12)), strings.ToLower(word(rng.IntN(4)))
		if got, want := containsLower(s, q), strings.Contains(strings.ToLower(s), q); got != want {
			t.Fatalf("containsLower(%q, %q) = %v, want %v", s, q, got, want)
		}
	}
}
