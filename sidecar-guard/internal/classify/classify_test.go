package classify_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/opsboard/opsboard/shared/wire"
	"github.com/opsboard/opsboard/sidecar-guard/internal/classify"
)

func TestWindows(t *testing.T) {
	for _, tc := range []struct {
		name          string
		text          string
		size, overlap int
		want          []string
	}{
		{"fits whole", "one two three", 20, 4, []string{"one two three"}},
		{"empty", "", 10, 2, []string{""}},
		{"cuts at whitespace and overlaps whole words", "aaaa bbbb cccc dddd eeee", 10, 4,
			[]string{"aaaa bbbb", "bbbb cccc", "cccc dddd", "dddd eeee"}},
		{"a run longer than a window is cut hard", "abcdefghijklmnop", 8, 2,
			[]string{"abcdefgh", "ghijklmn", "mnop"}},
		{"counts runes, not bytes", "ää ää ää ää", 6, 2, []string{"ää ää", "ää ää", "ää ää"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, classify.Windows(tc.text, tc.size, tc.overlap)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// referenceWindows is Windows as first written, over a rune slice.
func referenceWindows(text string, size, overlap int) []string {
	r := []rune(text)
	if len(r) <= size {
		return []string{text}
	}
	if overlap < 0 || overlap >= size/2 {
		overlap = size / 4
	}
	var out []string
	for start := 0; ; {
		end := start + size
		if end >= len(r) {
			return append(out, string(r[start:]))
		}
		cut := end
		for i := end; i > start+size/2; i-- {
			if unicode.IsSpace(r[i]) {
				cut = i
				break
			}
		}
		out = append(out, string(r[start:cut]))
		next := cut - overlap
		for j := next; j < cut; j++ {
			if unicode.IsSpace(r[j-1]) {
				next = j
				break
			}
		}
		start = next
	}
}

// TestWindowsMatchReference cuts random texts, ASCII (cut in place) and
// not (cut as runes, invalid bytes among them), and wants the pieces the
// rune-slice form cut.
func TestWindowsMatchReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	alphabets := []string{"ab \n\t", "abcdefgh ", "ä b\u00a0c\u2003d ", "x y\xffz\x85 "}
	for i := range 400 {
		alpha := []rune(alphabets[i%len(alphabets)])
		if i%len(alphabets) == 3 {
			alpha = nil
		}
		var sb strings.Builder
		for range rng.IntN(300) {
			if alpha == nil {
				sb.WriteByte("x y\xffz\x85 "[rng.IntN(7)])
			} else {
				sb.WriteRune(alpha[rng.IntN(len(alpha))])
			}
		}
		text := sb.String()
		size, overlap := 1+rng.IntN(60), rng.IntN(30)-2
		if diff := cmp.Diff(referenceWindows(text, size, overlap), classify.Windows(text, size, overlap)); diff != "" {
			t.Fatalf("%q size %d overlap %d (-reference +got)\n%s", text, size, overlap, diff)
		}
	}
}

// Every rune of the text is in some window, no window is longer than the
// size, and consecutive windows overlap.
func TestWindowsCoverLongText(t *testing.T) {
	var sb strings.Builder
	for i := range 4000 {
		fmt.Fprintf(&sb, "w%d ", i) // no repeats, so an overlap is found exactly
	}
	// A long run without spaces, not periodic either: it is cut hard.
	rng := rand.New(rand.NewPCG(1, 2))
	for range 12000 {
		sb.WriteByte("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"[rng.IntN(64)])
	}
	sb.WriteString(" tail")
	text := sb.String()
	ws := classify.Windows(text, classify.SegmentRunes, classify.SegmentOverlap)
	if len(ws) < 3 {
		t.Fatalf("%d windows for %d runes", len(ws), utf8.RuneCountInString(text))
	}
	joined := ws[0]
	for i, w := range ws {
		if n := utf8.RuneCountInString(w); n > classify.SegmentRunes {
			t.Errorf("window %d has %d runes", i, n)
		}
		if i == 0 {
			continue
		}
		prev, ov := ws[i-1], 0
		for j := min(len(w), len(prev)); j > 0; j-- {
			if strings.HasSuffix(prev, w[:j]) {
				ov = j
				break
			}
		}
		if ov == 0 {
			t.Fatalf("window %d does not overlap window %d", i, i-1)
		}
		joined += w[ov:]
	}
	if joined != text {
		t.Error("the windows, overlaps removed, do not rebuild the text")
	}
}

func TestResolve(t *testing.T) {
	for _, tc := range []struct {
		model, threshold string
		key, id          string
		th               float64
	}{
		{"", "", "llama-prompt-guard-2-86m", "meta-llama/Llama-Prompt-Guard-2-86M", 0.5},
		{"QUALIFIRE", "", "qualifire", "qualifire/prompt-injection-sentinel", 0.8},
		{"heuristic-only", "", "heuristic-only", "heuristic-only", 0.5},
		{"org/my-guard", "", "custom", "org/my-guard", 0.5},
		{"qualifire", "0.65", "qualifire", "qualifire/prompt-injection-sentinel", 0.65},
		{"qualifire", "1.5", "qualifire", "qualifire/prompt-injection-sentinel", 1.5}, // no clamping
		{"qualifire", "-0.2", "qualifire", "qualifire/prompt-injection-sentinel", -0.2},
		{"qualifire", "high", "qualifire", "qualifire/prompt-injection-sentinel", 0.8}, // not a float: ignored
	} {
		c := classify.Resolve(tc.model, tc.threshold)
		if c.Preset.Key != tc.key || c.Preset.ModelID != tc.id || c.Threshold != tc.th {
			t.Errorf("Resolve(%q, %q) = %s %s %v; want %s %s %v", tc.model, tc.threshold, c.Preset.Key, c.Preset.ModelID, c.Threshold, tc.key, tc.id, tc.th)
		}
	}
}

func TestParseMode(t *testing.T) {
	for in, want := range map[string]classify.Mode{"": classify.ModeAuto, "Auto": classify.ModeAuto, "promptguard": classify.ModePromptGuard, " heuristic ": classify.ModeHeuristic} {
		if got, err := classify.ParseMode(in); err != nil || got != want {
			t.Errorf("ParseMode(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := classify.ParseMode("model"); err == nil {
		t.Error("ParseMode(model) did not fail")
	}
}

// fakeRuntime stands in for a model directory; the real model backend is
// tested in its own package with a tiny model.
type fakeRuntime struct {
	deps    classify.Deps
	loadErr error
	backend classify.Backend
}

func (f fakeRuntime) Probe(string) classify.Deps { return f.deps }
func (f fakeRuntime) Load(context.Context, string, string) (classify.Backend, error) {
	return f.backend, f.loadErr
}

// scripted is a backend that answers with a fixed score, or fails on texts
// containing "boom".
type scripted struct{ score float64 }

func (s scripted) Name() string { return "model:test/scripted" }
func (s scripted) Score(_ context.Context, text string) (classify.Score, error) {
	if strings.Contains(text, "boom") {
		return classify.Score{}, errors.New("tokenizer exploded")
	}
	return classify.Score{Value: s.score, Windows: 2}, nil
}

func TestSelect(t *testing.T) {
	ready := classify.Deps{Runtime: true, Tokenizer: true, Weights: true}
	model := scripted{0.1}
	def := classify.Resolve("", "")
	for _, tc := range []struct {
		name     string
		mode     classify.Mode
		choice   classify.Choice
		rt       classify.Runtime
		want     string // backend name, "" when Select must fail
		errWants string
	}{
		{"auto loads the model", classify.ModeAuto, def, fakeRuntime{deps: ready, backend: model}, "model:test/scripted", ""},
		{"auto without weights is the heuristic", classify.ModeAuto, def, fakeRuntime{deps: classify.Deps{Runtime: true}}, wire.ClassifierHeuristic, ""},
		{"auto with a failing load is the heuristic", classify.ModeAuto, def, fakeRuntime{deps: ready, loadErr: errors.New("bad graph")}, wire.ClassifierHeuristic, ""},
		{"auto without a runtime is the heuristic", classify.ModeAuto, def, nil, wire.ClassifierHeuristic, ""},
		{"the heuristic-only preset never loads", classify.ModeAuto, classify.Resolve("heuristic-only", ""), fakeRuntime{deps: ready, backend: model}, wire.ClassifierHeuristic, ""},
		{"heuristic mode never loads", classify.ModeHeuristic, def, fakeRuntime{deps: ready, backend: model}, wire.ClassifierHeuristic, ""},
		{"promptguard loads the model", classify.ModePromptGuard, def, fakeRuntime{deps: ready, backend: model}, "model:test/scripted", ""},
		{"promptguard without weights names the directory", classify.ModePromptGuard, def, fakeRuntime{}, "", "/models/here"},
		{"promptguard with a failing load says why", classify.ModePromptGuard, def, fakeRuntime{deps: ready, loadErr: errors.New("bad graph")}, "", "bad graph"},
		{"promptguard with the heuristic preset", classify.ModePromptGuard, classify.Resolve("heuristic-only", ""), fakeRuntime{deps: ready, backend: model}, "", "needs a model"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, reason, err := classify.Select(context.Background(), classify.SelectConfig{Mode: tc.mode, Choice: tc.choice, ModelDir: "/models/here", Runtime: tc.rt})
			if tc.want == "" {
				if err == nil || !strings.Contains(err.Error(), tc.errWants) {
					t.Fatalf("err = %v, want one containing %q", err, tc.errWants)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if b.Name() != tc.want {
				t.Errorf("backend %s, want %s", b.Name(), tc.want)
			}
			if tc.want == wire.ClassifierHeuristic && reason == "" {
				t.Error("the heuristic was chosen without a reason")
			}
		})
	}
}

func TestMailFlagsAtThreshold(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		score, threshold float64
		flagged          bool
	}{{0.5, 0.5, true}, {0.49, 0.5, false}, {0.8, 0.8, true}, {0.79, 0.8, false}, {0, 0, true}} {
		v, err := classify.New(scripted{tc.score}, tc.threshold).Mail(ctx, "subject", "body")
		if err != nil {
			t.Fatal(err)
		}
		if v.Flagged != tc.flagged || v.MaxScore != tc.score || len(v.Segments) != 2 {
			t.Errorf("score %v at %v: flagged %v max %v with %d segments", tc.score, tc.threshold, v.Flagged, v.MaxScore, len(v.Segments))
		}
	}
}

func TestMailSegments(t *testing.T) {
	body := strings.Repeat("lorem ipsum ", 1000) // 12000 runes: several windows
	v, err := classify.New(scripted{0.7}, 0.5).Mail(context.Background(), "", body)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Segments) < 3 {
		t.Fatalf("%d segments for a 12000-rune body", len(v.Segments))
	}
	for i, s := range v.Segments {
		if s.Field != "body" || s.Index != i || !s.Flagged || s.Reason == "" {
			t.Errorf("segment %d = %+v", i, s)
		}
	}
}

func TestModelFailureFallsBackForThatRequest(t *testing.T) {
	ctx := context.Background()
	c := classify.New(scripted{0.1}, 0.5)
	v, err := c.Mail(ctx, "hello", "this body goes boom")
	if err != nil {
		t.Fatal(err)
	}
	if v.Classifier != wire.ClassifierHeuristic || !strings.Contains(v.Fallback, "tokenizer exploded") {
		t.Errorf("classifier %q fallback %q; want the heuristic and the model's error", v.Classifier, v.Fallback)
	}
	// The next request goes to the model again.
	v, err = c.Mail(ctx, "hello", "fine")
	if err != nil || v.Classifier != "model:test/scripted" || v.Fallback != "" {
		t.Errorf("after a fallback: classifier %q fallback %q err %v", v.Classifier, v.Fallback, err)
	}
	b, err := c.Texts(ctx, []string{"fine", "boom", "fine"})
	if err != nil {
		t.Fatal(err)
	}
	if b.Classifier != wire.ClassifierHeuristic || b.Fallback == "" || len(b.Results) != 3 {
		t.Errorf("batch: classifier %q fallback %q, %d results", b.Classifier, b.Fallback, len(b.Results))
	}
	for i, r := range b.Results {
		if r.Index != i || r.Windows != 1 {
			t.Errorf("result %d = %+v", i, r)
		}
	}
}

func TestTexts(t *testing.T) {
	b, err := classify.New(scripted{0.6}, 0.5).Texts(context.Background(), []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	want := []wire.ClassifyResult{
		{Index: 0, Label: wire.LabelInjection, Score: 0.6, Flagged: true, Windows: 2},
		{Index: 1, Label: wire.LabelInjection, Score: 0.6, Flagged: true, Windows: 2},
	}
	if diff := cmp.Diff(want, b.Results); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	b, _ = classify.New(scripted{0.6}, 0.8).Texts(context.Background(), []string{"a"})
	if b.Results[0].Label != wire.LabelBenign || b.Results[0].Flagged {
		t.Errorf("below the threshold: %+v", b.Results[0])
	}
}

func TestDepsOf(t *testing.T) {
	model, _ := classify.PresetByKey(classify.DefaultPreset)
	heur, _ := classify.PresetByKey(classify.HeuristicPreset)
	all := classify.Deps{Runtime: true, Tokenizer: true, Weights: true}
	for _, tc := range []struct {
		name string
		p    classify.Preset
		d    classify.Deps
		hf   bool
		want wire.GuardDeps
	}{
		{"a model with everything is ready", model, all, false, wire.GuardDeps{Torch: true, Transformers: true, ModelCached: true, Ready: true}},
		{"a model without weights is not", model, classify.Deps{Runtime: true, Tokenizer: true}, true, wire.GuardDeps{Torch: true, Transformers: true, HFToken: true}},
		{"a model without a tokenizer is not", model, classify.Deps{Runtime: true, Weights: true}, false, wire.GuardDeps{Torch: true, ModelCached: true}},
		{"the heuristic is always ready", heur, classify.Deps{}, false, wire.GuardDeps{Ready: true}},
	} {
		if diff := cmp.Diff(tc.want, classify.DepsOf(tc.p, tc.d, tc.hf)); diff != "" {
			t.Errorf("%s (-want +got)\n%s", tc.name, diff)
		}
	}
}

func TestCatalog(t *testing.T) {
	probe := func(dir string) classify.Deps {
		return classify.Deps{Runtime: true, Tokenizer: dir == "/m/qualifire", Weights: dir == "/m/qualifire"}
	}
	dirOf := func(p classify.Preset) string { return "/m/" + p.Key }
	got := classify.Catalog(classify.CatalogConfig{Choice: classify.Resolve("qualifire", "0.9"), DirOf: dirOf, Probe: probe})
	if got.Active != "qualifire" || got.ActiveModelID != "qualifire/prompt-injection-sentinel" || len(got.Models) != 4 {
		t.Fatalf("catalog %+v", got)
	}
	for _, m := range got.Models {
		wantReady := m.ID == "qualifire" || m.ID == classify.HeuristicPreset
		if m.Current != (m.ID == "qualifire") || m.Deps.Ready != wantReady {
			t.Errorf("%s: current %v ready %v", m.ID, m.Current, m.Deps.Ready)
		}
		if m.ID == "qualifire" && m.Threshold != 0.9 {
			t.Errorf("the current preset shows threshold %v, not the override 0.9", m.Threshold)
		}
	}
	custom := classify.Catalog(classify.CatalogConfig{Choice: classify.Resolve("org/x", ""), DirOf: dirOf, Probe: probe})
	last := custom.Models[len(custom.Models)-1]
	if len(custom.Models) != 5 || last.ID != classify.CustomPreset || last.ModelID != "org/x" || !last.Current || custom.Active != classify.CustomPreset {
		t.Errorf("custom model catalog %+v", custom)
	}
}

// A request whose caller has gone stops, and is not answered again by the
// heuristic.
func TestCancelledRequestStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := classify.New(scripted{0.1}, 0.5).Mail(ctx, "s", "b"); !errors.Is(err, context.Canceled) {
		t.Errorf("Mail after cancel: %v", err)
	}
	if _, err := classify.New(scripted{0.1}, 0.5).Texts(ctx, []string{"a"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Texts after cancel: %v", err)
	}
}
