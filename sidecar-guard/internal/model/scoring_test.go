package model

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestProbability(t *testing.T) {
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	tests := []struct {
		name   string
		logits []float32
		idx    int
		want   float64
	}{
		{"sigmoid of zero", []float32{0}, 0, 0.5},
		{"sigmoid of 2", []float32{2}, 0, 1 / (1 + math.Exp(-2))},
		{"sigmoid of -2", []float32{-2}, 0, 1 / (1 + math.Exp(2))},
		{"sigmoid saturates without overflow", []float32{-1000}, 0, 0},
		{"softmax of equal logits", []float32{0, 0}, 1, 0.5},
		{"softmax column 1", []float32{1, 3}, 1, math.Exp(3) / (math.Exp(1) + math.Exp(3))},
		{"softmax column 0", []float32{3, 1}, 0, math.Exp(3) / (math.Exp(1) + math.Exp(3))},
		{"softmax is shift invariant", []float32{1001, 1003}, 1, math.Exp(3) / (math.Exp(1) + math.Exp(3))},
		{"softmax of huge logits does not overflow", []float32{1000, 0}, 0, 1},
		{"three classes", []float32{0, 1, 2}, 2, math.Exp(2) / (1 + math.E + math.Exp(2))},
		{"NaN logit is read as 0", []float32{nan, 0}, 1, 0.5},
		{"infinite logit saturates", []float32{inf, 0}, 0, 1},
		{"index past the row", []float32{1, 2}, 2, 0},
		{"negative index", []float32{1, 2}, -1, 0},
		{"empty row", nil, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Probability(tt.logits, tt.idx)
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
				t.Errorf("Probability(%v, %d) (-want +got):\n%s", tt.logits, tt.idx, diff)
			}
		})
	}
}

func TestMaxScore(t *testing.T) {
	tests := []struct {
		name   string
		scores []float64
		want   float64
	}{
		{"no windows", nil, 0},
		{"one window", []float64{0.3}, 0.3},
		{"the max wherever it is", []float64{0.2, 0.9, 0.5}, 0.9},
		{"last window", []float64{0.1, 0.1, 0.7}, 0.7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, MaxScore(tt.scores)); diff != "" {
				t.Errorf("MaxScore(%v) (-want +got):\n%s", tt.scores, diff)
			}
		})
	}
}
