package classify

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestFlatMatchesFields flattens random text, ASCII and not, and wants
// what lower case, strings.Fields and a join by spaces give.
func TestFlatMatchesFields(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	alphabets := []string{"aB \t\n\v\f\r.Z", "Ab  Cd\u00a0É\u2003ß\u0130 ", "x Y\xffz\x85 "}
	for i := range 600 {
		alpha := alphabets[i%len(alphabets)]
		var sb strings.Builder
		for range rng.IntN(80) {
			sb.WriteByte(alpha[rng.IntN(len(alpha))]) // bytes: invalid UTF-8 too
		}
		text := sb.String()
		want := strings.Join(strings.Fields(strings.ToLower(text)), " ")
		if got := flat(text); got != want {
			t.Fatalf("flat(%q) = %q, want %q", text, got, want)
		}
	}
}
