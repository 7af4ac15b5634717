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
		out[i] = linear.Extract(r.Text, r.Label == 1, bits)
	}
	return out
}

// Build trains a model on rows.
func Build(rows []Row, p linear.Params) *linear.Model {
	return linear.Train(Extract(rows, p.Bits), p)
}

// Record is model.json: how the weights file beside it was made, so that
// anyone can make it again and check they got the same bytes.
type Record struct {
	Command string        `json:"command"`
	Params  linear.Params `json:"params"`
	Files   []File        `json:"files"`
	Attacks int           `json:"attacks"`
	Benign  int           `json:"benign"`
	Weights string        `json:"weightsSha256"`
	Shift   float32       `json:"operatingMargin"`
	Bias    float32       `json:"bias"`
}

// NewRecord describes model m, trained from rows read from files, whose
// weights file is bin.
func NewRecord(command string, p linear.Params, files []File, rows []Row, m *linear.Model, bin []byte) Record {
	sum := sha256.Sum256(bin)
	r := Record{Command: command, Params: p, Files: files, Weights: hex.EncodeToString(sum[:]), Shift: m.Shift, Bias: m.Bias}
	for _, row := range rows {
		if row.Label == 1 {
			r.Attacks++
		} else {
			r.Benign++
		}
	}
	return r
}
