package linear

import (
	"math"
	"math/rand/v2"
	"slices"
)

// Params are the training hyperparameters; model.json records them.
type Params struct {
	Bits   uint    `json:"bits"`
	Epochs int     `json:"epochs"`
	Rate   float64 `json:"rate"` // AdaGrad step size
	L2     float64 `json:"l2"`   // L2 penalty per update
	Seed   uint64  `json:"seed"` // the example order of every epoch
	// TargetFPR places the operating point: the margin that this share of
	// the benign training texts reaches or exceeds becomes the score 0.5.
	TargetFPR float64 `json:"targetFpr"`
	// MinMargin is the lowest operating point: the training texts are
	// fitted too well for their quantile alone to hold on unseen text.
	MinMargin float64 `json:"minMargin"`
	// BalanceSources gives every source the same total weight within its
	// class, so the largest benign source does not define "benign".
	BalanceSources bool `json:"balanceSources"`
}

// DefaultParams are the parameters the committed model was trained with.
func DefaultParams() Params {
	return Params{Bits: DefaultBits, Epochs: 6, Rate: 0.2, L2: 1e-4, Seed: 27, TargetFPR: 0.002, MinMargin: 2.3}
}

// Example is one labelled text as features.
type Example struct {
	Buckets []uint32
	Scale   float64
	Attack  bool
	Weight  float64 // relative to the other examples of its class; 0 means 1
}

// Extract turns a text into an Example.
func Extract(text string, attack bool, bits uint) Example {
	var ex Example
	n := Features(text, bits, func(h uint32) { ex.Buckets = append(ex.Buckets, h) })
	ex.Scale, ex.Attack = Scale(n), attack
	return ex
}

// Train fits a model by AdaGrad on the logistic loss with L2, the two
// classes weighted to count equally (attacks are a seventh of the data).
// It is deterministic: the same examples, in the same order, and the same
// parameters give the same weights, bit for bit.
func Train(examples []Example, p Params) *Model {
	pos := 0
	for _, ex := range examples {
		if ex.Attack {
			pos++
		}
	}
	neg := len(examples) - pos
	weight := [2]float64{float64(len(examples)) / float64(2*max(neg, 1)), float64(len(examples)) / float64(2*max(pos, 1))}
	w := make([]float64, 1<<p.Bits)
	g := make([]float64, 1<<p.Bits)
	var bias, gBias float64
	order := make([]int, len(examples))
	for i := range order {
		order[i] = i
	}
	rng := rand.New(rand.NewPCG(p.Seed, p.Seed^0x5bd1e995))
	for range p.Epochs {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, i := range order {
			ex := &examples[i]
			z := bias
			for _, h := range ex.Buckets {
				z += w[h] * ex.Scale
			}
			y, cw := 0.0, weight[0]
			if ex.Attack {
				y, cw = 1, weight[1]
			}
			if ex.Weight > 0 {
				cw *= ex.Weight
			}
			d := cw * (sigmoid(z) - y)
			for _, h := range ex.Buckets {
				grad := d*ex.Scale + p.L2*w[h]
				g[h] += grad * grad
				w[h] -= p.Rate * grad / math.Sqrt(g[h]+1e-8)
			}
			gBias += d * d
			bias -= p.Rate * d / math.Sqrt(gBias+1e-8)
		}
	}
	m := &Model{Bits: p.Bits, Bias: float32(bias), W: make([]float32, len(w))}
	for i, v := range w {
		m.W[i] = float32(v)
	}
	m.Shift = float32(max(p.MinMargin, operatingPoint(m, examples, p.TargetFPR)))
	return m
}

// operatingPoint is the benign training margin at the 1-fpr quantile (at
// least 0, the class-balanced decision boundary).
func operatingPoint(m *Model, examples []Example, fpr float64) float64 {
	var margins []float64
	for _, ex := range examples {
		if !ex.Attack {
			margins = append(margins, m.margin(ex))
		}
	}
	if len(margins) == 0 {
		return 0
	}
	slices.Sort(margins)
	i := min(len(margins)-1, int(math.Floor(float64(len(margins))*(1-fpr))))
	return max(0, margins[i])
}

func (m *Model) margin(ex Example) float64 {
	var sum float64
	for _, h := range ex.Buckets {
		sum += float64(m.W[h])
	}
	return float64(m.Bias) + ex.Scale*sum
}

// MarginOf is the raw margin of an extracted example, the same as Margin
// of its text.
func (m *Model) MarginOf(ex Example) float64 { return m.margin(ex) }

// ProbabilityOf is Probability for an extracted example.
func (m *Model) ProbabilityOf(ex Example) float64 {
	return sigmoid(m.margin(ex) - float64(m.Shift))
}
