package training

import (
	"fmt"
	"slices"
	"strings"

	"github.com/opsboard/opsboard/sidecar-guard/internal/heuristic"
	"github.com/opsboard/opsboard/sidecar-guard/internal/linear"
)

// Threshold is the sidecar's default flag threshold, which the model's
// operating point is mapped to.
const Threshold = 0.5

// Counts is a confusion matrix.
type Counts struct{ TP, FP, TN, FN int }

// Add counts one verdict.
func (c *Counts) Add(attack, flagged bool) {
	switch {
	case attack && flagged:
		c.TP++
	case attack:
		c.FN++
	case flagged:
		c.FP++
	default:
		c.TN++
	}
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Recall is TP / attacks.
func (c Counts) Recall() float64 { return ratio(c.TP, c.TP+c.FN) }

// FPR is FP / benign.
func (c Counts) FPR() float64 { return ratio(c.FP, c.FP+c.TN) }

// Precision is TP / flagged.
func (c Counts) Precision() float64 { return ratio(c.TP, c.TP+c.FP) }

// Verdicts are one text's three verdicts: rules alone, model alone, both.
type Verdicts struct{ Rules, Model, Combined Counts }

func (v *Verdicts) add(attack bool, rule, model float64) {
	v.Rules.Add(attack, rule >= Threshold)
	v.Model.Add(attack, model >= Threshold)
	v.Combined.Add(attack, max(rule, model) >= Threshold)
}

// Figure is one source's or set's result.
type Figure struct {
	Name string
	Verdicts
}

// Scores are every row's rule score and the model probability given by
// the fold that held the row's source out, indexed like the rows.
type Scores struct{ Rules, Model []float64 }

// HoldOutScores trains once per source on every other source and scores
// the rows of the source left out. The rules are the same in every fold.
func HoldOutScores(rows []Row, p linear.Params, progress func(string)) Scores {
	examples := Weigh(Extract(rows, p.Bits), rows, p)
	s := Scores{Rules: make([]float64, len(rows)), Model: make([]float64, len(rows))}
	for i, r := range rows {
		s.Rules[i] = heuristic.Scan(r.Text).Score
	}
	for _, src := range sourcesOf(rows) {
		progress(src)
		in, _ := fold(rows, src)
		train := make([]linear.Example, len(in))
		for j, i := range in {
			train[j] = examples[i]
		}
		m := linear.Train(train, p)
		for i, r := range rows {
			if r.Source == src {
				s.Model[i] = m.Probability(r.Text)
			}
		}
	}
	return s
}

func sourcesOf(rows []Row) []string {
	var sources []string
	for _, r := range rows {
		if !slices.Contains(sources, r.Source) {
			sources = append(sources, r.Source)
		}
	}
	slices.Sort(sources)
	return sources
}

// HoldOut is each source's figure with the source held out: recall on its
// attacks, false positives on its benign texts.
func HoldOut(rows []Row, s Scores) []Figure {
	var out []Figure
	for _, src := range sourcesOf(rows) {
		name := src
		if _, carried := fold(rows, src); carried > 0 {
			name = fmt.Sprintf("%s (%d attacks built in its texts left out too)", src, carried)
		}
		out = append(out, Pooled(name, rows, s, func(r Row) bool { return r.Source == src }))
	}
	return out
}

// fold returns the indexes of rows trained on while source is held out,
// and how many attacks were left out because they were built in source's
// texts: such an attack holds the text, so trained on, the source would
// not be unseen.
func fold(rows []Row, source string) (train []int, carried int) {
	for i, r := range rows {
		switch {
		case r.Carrier == source:
			carried++
		case r.Source != source:
			train = append(train, i)
		}
	}
	return train, carried
}

// Score measures model m with the rules on labelled sets.
func Score(m *linear.Model, sets []Set) []Figure {
	out := make([]Figure, 0, len(sets))
	for _, s := range sets {
		f := Figure{Name: s.Name}
		for _, r := range s.Rows {
			f.add(r.Label == 1, heuristic.Scan(r.Text).Score, m.Probability(r.Text))
		}
		out = append(out, f)
	}
	return out
}

// Table renders figures as a Markdown table: per row the size, then
// recall (attacks) or false-positive rate (benign) of the rules alone, the
// model alone and the combined detector, and the combined precision when
// the row has both classes.
func Table(title string, figs []Figure) string {
	var b strings.Builder
	fmt.Fprintf(&b, "| %s | attacks | benign | recall: rules / model / combined | FPR: rules / model / combined | combined precision |\n", title)
	b.WriteString("|---|---|---|---|---|---|\n")
	for _, f := range figs {
		c := f.Combined
		pos, neg := c.TP+c.FN, c.FP+c.TN
		rec, fpr, prec := "-", "-", "-"
		if pos > 0 {
			rec = fmt.Sprintf("%.3f / %.3f / **%.3f**", f.Rules.Recall(), f.Model.Recall(), c.Recall())
		}
		if neg > 0 {
			fpr = fmt.Sprintf("%.3f / %.3f / **%.3f** (%d)", f.Rules.FPR(), f.Model.FPR(), c.FPR(), c.FP)
		}
		if pos > 0 && neg > 0 {
			prec = fmt.Sprintf("%.3f", c.Precision())
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %s | %s | %s |\n", f.Name, pos, neg, rec, fpr, prec)
	}
	return b.String()
}
