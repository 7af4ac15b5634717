package training

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/opsboard/opsboard/sidecar-guard/internal/linear"
)

// Extract turns rows into examples, in order.
func Extract(rows []Row, bits uint) []linear.Example {
	out := make([]linear.Example, len(rows))
	for i, r := range rows {
		out[i] = linear.Extract(r.trained(), r.Label == 1, bits)
	}
	return out
}

// Build trains a model on rows.
func Build(rows []Row, p linear.Params) *linear.Model {
	return linear.Train(Weigh(Extract(rows, p.Bits), rows, p), p)
}

// Weigh sets each example's weight when p balances sources: every source
// gets the same total weight within a class, and a class's weights still
// add up to its size.
func Weigh(ex []linear.Example, rows []Row, p linear.Params) []linear.Example {
	if !p.BalanceSources {
		return ex
	}
	type group struct {
		source string
		label  int
	}
	size := map[group]int{}
	groups, class := [2]int{}, [2]int{}
	for _, r := range rows {
		g := group{r.Source, r.Label}
		if size[g] == 0 {
			groups[r.Label]++
		}
		size[g]++
		class[r.Label]++
	}
	for i, r := range rows {
		ex[i].Weight = float64(class[r.Label]) / float64(groups[r.Label]*size[group{r.Source, r.Label}])
	}
	return ex
}

// Record is model.json: how the weights file beside it was made, so that
// anyone can make it again and check they got the same bytes.
type Record struct {
	Command string        `json:"command"`
	Params  linear.Params `json:"params"`
	Files   []File        `json:"files"`
	Attacks int           `json:"attacks"`
	Benign  int           `json:"benign"`
	// Carried counts the attacks trained on their payload alone, without
	// the benign mail they were put in.
	Carried int     `json:"attacksTrainedWithoutCarrier"`
	Weights string  `json:"weightsSha256"`
	Shift   float32 `json:"operatingMargin"`
	Bias    float32 `json:"bias"`
}

// NewRecord describes model m, trained from rows read from files, whose
// weights file is bin.
func NewRecord(command string, p linear.Params, files []File, rows []Row, m *linear.Model, bin []byte) Record {
	sum := sha256.Sum256(bin)
	r := Record{Command: command, Params: p, Files: files, Weights: hex.EncodeToString(sum[:]), Shift: m.Shift, Bias: m.Bias}
	for _, row := range rows {
		if row.Payload != "" {
			r.Carried++
		}
		if row.Label == 1 {
			r.Attacks++
		} else {
			r.Benign++
		}
	}
	return r
}
