// Package classify decides whether text is a prompt injection: it selects
// the backend (a local model, or the offline detector of rules and a
// linear model), cuts a mail's subject and body into segments, applies the
// threshold, and answers a request with the offline detector when the
// model fails on it, saying why. It does no HTTP and no disk I/O of its
// own.
package classify

import (
	"context"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/opsboard/opsboard/shared/wire"
	"github.com/opsboard/opsboard/sidecar-guard/internal/heuristic"
	"github.com/opsboard/opsboard/sidecar-guard/internal/linear"
)

// Segment window of a mail field, in runes. A window is scored as one text
// (the model windows it again by tokens); long mail gets several segments so
// a person sees which part was flagged. The overlap keeps a phrase cut at a
// boundary whole in one of the two windows.
const (
	SegmentRunes   = 4000
	SegmentOverlap = 256
)

// Score is a backend's verdict on one text.
type Score struct {
	Value   float64  // 0..1, the probability of an injection
	Rules   []string // heuristic rules that fired
	Windows int      // model windows read (1 for the heuristic)
}

// Backend scores one text.
type Backend interface {
	// Name is the classifier name replies carry: "model:<id>" or
	// "heuristic-fallback".
	Name() string
	Score(ctx context.Context, text string) (Score, error)
}

// Heuristic is the offline detector as a backend: the rules and the
// committed linear model, both deterministic, no network. The name stays
// the one clients know.
type Heuristic struct{}

// Name is "heuristic-fallback".
func (Heuristic) Name() string { return wire.ClassifierHeuristic }

// Score scans text with the rules and the embedded model; it fails only
// when the embedded weights do not parse, which a test rules out.
func (Heuristic) Score(_ context.Context, text string) (sc Score, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("heuristic panicked: %v", p)
		}
	}()
	m, err := linear.Embedded()
	if err != nil {
		return Score{}, err
	}
	return Combined(m, text), nil
}

// Combined scores text with the rules and model m: the higher of the rule
// score and the model's calibrated probability. The model's operating
// point is its 0.5, so the threshold means the same for both parts, and a
// rule hit (0.9 and up) scores what it always did. Rules names only the
// rules: the model adds a score, not a rule.
func Combined(m *linear.Model, text string) Score {
	r := heuristic.Scan(text)
	return Score{Value: max(r.Score, m.Probability(text)), Rules: r.Rules, Windows: 1}
}

// Classifier applies a backend and a threshold, falling back to the
// heuristic for a request on which the backend fails.
type Classifier struct {
	backend   Backend
	fallback  Backend
	threshold float64
}

// New returns a classifier over backend; flagged means a score at or above
// threshold.
func New(backend Backend, threshold float64) *Classifier {
	return &Classifier{backend: backend, fallback: Heuristic{}, threshold: threshold}
}

// Name is the active backend's classifier name.
func (c *Classifier) Name() string { return c.backend.Name() }

// Threshold is the flag threshold.
func (c *Classifier) Threshold() float64 { return c.threshold }

// Degraded says the active backend is the heuristic, not a model.
func (c *Classifier) Degraded() bool { return strings.Contains(c.backend.Name(), "heuristic") }

// Verdict is the outcome of screening one mail.
type Verdict struct {
	Classifier string // the backend that answered
	MaxScore   float64
	Flagged    bool
	Segments   []wire.Segment
	Fallback   string // why the heuristic answered instead of the model, "" when it did not
}

// Mail screens a mail's subject and body. An empty field has no segment.
// The error is non-nil only when even the heuristic failed: the caller must
// then answer with an error, never a clean verdict.
func (c *Classifier) Mail(ctx context.Context, subject, body string) (Verdict, error) {
	v, err := c.mail(ctx, c.backend, subject, body)
	if err == nil || c.backend.Name() == c.fallback.Name() || ctx.Err() != nil {
		return v, err // a caller that gave up needs no fallback answer
	}
	v, ferr := c.mail(ctx, c.fallback, subject, body)
	if ferr != nil {
		return Verdict{}, fmt.Errorf("%w; heuristic: %w", err, ferr)
	}
	v.Fallback = fallbackReason(err)
	return v, nil
}

func fallbackReason(err error) string {
	return fmt.Sprintf("the model failed on this request (%v); the heuristic answered it", err)
}

func (c *Classifier) mail(ctx context.Context, b Backend, subject, body string) (Verdict, error) {
	v := Verdict{Classifier: b.Name(), Segments: []wire.Segment{}}
	for _, f := range []struct{ name, text string }{{"subject", subject}, {"body", body}} {
		if strings.TrimSpace(f.text) == "" {
			continue
		}
		for i, w := range Windows(f.text, SegmentRunes, SegmentOverlap) {
			if err := ctx.Err(); err != nil {
				return Verdict{}, err
			}
			sc, err := b.Score(ctx, w)
			if err != nil {
				return Verdict{}, fmt.Errorf("%s window %d: %w", f.name, i, err)
			}
			seg := c.segment(f.name, i, sc)
			v.Segments = append(v.Segments, seg)
			v.MaxScore = max(v.MaxScore, seg.Score)
			v.Flagged = v.Flagged || seg.Flagged
		}
	}
	return v, nil
}

func (c *Classifier) segment(field string, i int, sc Score) wire.Segment {
	s := wire.Segment{Field: field, Index: i, Score: clamp01(sc.Value), Rules: sc.Rules}
	s.Flagged = s.Score >= c.threshold
	if s.Flagged {
		if len(sc.Rules) > 0 {
			s.Reason = "matched " + strings.Join(sc.Rules, ", ")
		} else {
			s.Reason = fmt.Sprintf("score %.3f is at or above the threshold %g", s.Score, c.threshold)
		}
	}
	return s
}

func clamp01(x float64) float64 {
	switch {
	case x != x || x < 0: // NaN or negative: a broken score is no evidence either way
		return 0
	case x > 1:
		return 1
	}
	return x
}

// Batch is the outcome of classifying several texts.
type Batch struct {
	Classifier string
	Results    []wire.ClassifyResult
	Fallback   string
}

// Texts classifies each text whole (the model windows it by tokens). When
// the model fails on any text the whole batch is answered by the heuristic,
// so one reply never mixes two classifiers.
func (c *Classifier) Texts(ctx context.Context, texts []string) (Batch, error) {
	b, err := c.texts(ctx, c.backend, texts)
	if err == nil || c.backend.Name() == c.fallback.Name() || ctx.Err() != nil {
		return b, err
	}
	b, ferr := c.texts(ctx, c.fallback, texts)
	if ferr != nil {
		return Batch{}, fmt.Errorf("%w; heuristic: %w", err, ferr)
	}
	b.Fallback = fallbackReason(err)
	return b, nil
}

func (c *Classifier) texts(ctx context.Context, be Backend, texts []string) (Batch, error) {
	out := Batch{Classifier: be.Name(), Results: make([]wire.ClassifyResult, 0, len(texts))}
	for i, t := range texts {
		if err := ctx.Err(); err != nil {
			return Batch{}, err
		}
		sc, err := be.Score(ctx, t)
		if err != nil {
			return Batch{}, fmt.Errorf("text %d: %w", i, err)
		}
		r := wire.ClassifyResult{Index: i, Score: clamp01(sc.Value), Windows: sc.Windows, Rules: sc.Rules, Label: wire.LabelBenign}
		r.Flagged = r.Score >= c.threshold
		if r.Flagged {
			r.Label = wire.LabelInjection
		}
		out.Results = append(out.Results, r)
	}
	return out, nil
}

// Windows cuts text into pieces of at most size runes, each beginning about
// overlap runes before the previous one ended. Cuts move back to whitespace
// (within the second half of a window) so a word or an encoded run is not
// split when it can be avoided. Text that fits is returned whole.
func Windows(text string, size, overlap int) []string {
	if size <= 0 {
		return []string{text}
	}
	if ascii(text) { // a rune a byte: the windows are slices of the text, not copies
		return windows(text, len(text), size, overlap,
			func(i int) bool { return unicode.IsSpace(rune(text[i])) },
			func(a, b int) string { return text[a:b] })
	}
	r := []rune(text)
	return windows(text, len(r), size, overlap,
		func(i int) bool { return unicode.IsSpace(r[i]) },
		func(a, b int) string { return string(r[a:b]) })
}

// windows is Windows over a text of n runes, read through space (is rune i
// white space) and piece (runes a to b as a string).
func windows(text string, n, size, overlap int, space func(int) bool, piece func(a, b int) string) []string {
	if n <= size {
		return []string{text}
	}
	if overlap < 0 || overlap >= size/2 {
		overlap = size / 4 // keep progress at least half a window
	}
	var out []string
	for start := 0; ; {
		end := start + size
		if end >= n {
			return append(out, piece(start, n))
		}
		cut := end
		for i := end; i > start+size/2; i-- {
			if space(i) {
				cut = i
				break
			}
		}
		out = append(out, piece(start, cut))
		next := cut - overlap
		for j := next; j < cut; j++ {
			if space(j - 1) {
				next = j
				break
			}
		}
		start = next
	}
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
