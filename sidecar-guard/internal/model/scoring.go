package model

import "math"

// Probability turns one row of classifier logits into the probability of
// column idx: a single-logit head is squashed through a sigmoid, a wider
// head through a softmax. It returns 0 for an empty row or an index out of
// range, and never NaN: non-finite logits are clamped first.
func Probability(logits []float32, idx int) float64 {
	switch {
	case len(logits) == 0 || idx < 0 || idx >= len(logits):
		return 0
	case len(logits) == 1:
		return sigmoid(finite(float64(logits[0])))
	}
	// Softmax shifted by the max logit so exp never overflows.
	maxLogit := math.Inf(-1)
	for _, l := range logits {
		maxLogit = math.Max(maxLogit, finite(float64(l)))
	}
	var sum float64
	for _, l := range logits {
		sum += math.Exp(finite(float64(l)) - maxLogit)
	}
	return math.Exp(finite(float64(logits[idx]))-maxLogit) / sum
}

func sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

// finite maps NaN to 0 and the infinities to large finite values, so a
// broken model output yields a defined probability rather than NaN.
func finite(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return 0
	case math.IsInf(x, 1):
		return math.MaxFloat32
	case math.IsInf(x, -1):
		return -math.MaxFloat32
	}
	return x
}

// MaxScore is the verdict across windows: the highest score, or 0 when there
// are none.
func MaxScore(scores []float64) float64 {
	var m float64
	for _, s := range scores {
		m = math.Max(m, s)
	}
	return m
}
