// Package model runs a binary sequence-classification model (a prompt
// injection detector such as Prompt Guard 2) from a local directory in the
// Hugging Face layout: config.json with id2label, tokenizer.json, and ONNX
// weights (model.onnx, or onnx/model.onnx). Nothing here downloads.
//
// The default build runs the graph on a pure-Go backend, so the binary needs
// no shared library; building with the ORT tag runs it on ONNX Runtime
// instead (faster; needs libtokenizers to link and libonnxruntime to run).
//
// Long texts are scored in overlapping token windows and the verdict is the
// highest malicious probability across them. The tokenizer and the runtime
// read untrusted text, so every call into them is guarded: input is capped
// and cleaned before tokenizing, and a panic comes back as an error.
package model

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/knights-analytics/hugot"
	"github.com/knights-analytics/hugot/backends"
	"github.com/knights-analytics/hugot/pipelines"
	"github.com/opsboard/opsboard/shared/wire"
)

// Defaults for Options fields left zero: the window the preset models were
// trained on and the overlap that keeps a phrase cut by one window whole in
// the next.
const (
	DefaultMaxTokens = 512
	DefaultOverlap   = 64
)

// MaxTextChars is the longest text Score accepts, in characters. A longer
// one is refused with ErrTooLong rather than truncated, because an attacker
// would put the payload past the cut; the caller falls back to a cheaper
// detector for it.
const MaxTextChars = wire.MaxGuardModelText

// chunkChars bounds what one tokenizer call sees; chunkOverlap is shared
// between consecutive chunks so a phrase at a cut is seen whole once.
const (
	chunkChars   = 8192
	chunkOverlap = 512
)

// batchWindows is how many windows run through the graph at once.
const batchWindows = 8

// ErrTooLong is returned by Score for a text over MaxTextChars characters.
var ErrTooLong = errors.New("text longer than the model backend accepts")

// Deps says which parts of a model setup are present. A failing check is
// false; Probe never panics.
type Deps struct {
	Runtime   bool // an inference runtime is available in this build
	Tokenizer bool // the directory's tokenizer.json loads
	Weights   bool // the directory holds ONNX weights
}

// Options tune the windowing. Zero fields take the defaults.
type Options struct {
	MaxTokens int // tokens per window, special tokens included (default 512)
	Overlap   int // tokens shared by consecutive windows (default 64)
}

// Result is one text's score.
type Result struct {
	Score   float64 // highest malicious probability across windows, 0..1
	Windows int     // how many windows were scored
}

// Classifier is a loaded model. It is safe for concurrent use; graph runs
// take turns (the runtime already spreads one run across the cores).
type Classifier struct {
	mu        sync.RWMutex // Score holds it shared, Close exclusively
	run       sync.Mutex   // one graph run at a time: the runtimes share state between runs
	closed    bool
	session   *hugot.Session
	pipeline  *pipelines.TextClassificationPipeline
	tok       tokenizer
	runtime   string
	id        string
	malicious int
	maxTokens int
	overlap   int
}

// modelConfig is the part of config.json we read.
type modelConfig struct {
	NameOrPath string            `json:"_name_or_path"`
	ID2Label   map[string]string `json:"id2label"`
}

// Probe checks a model directory without loading the graph. It parses the
// tokenizer, which for a large vocabulary takes a moment, so callers should
// not probe on every request.
func Probe(dir string) (deps Deps) {
	defer func() {
		if recover() != nil {
			deps = Deps{}
		}
	}()
	deps.Runtime = runtimeAvailable()
	if tk, err := loadTokenizer(dir); err == nil {
		deps.Tokenizer = true
		tk.close()
	}
	_, err := findWeights(dir)
	deps.Weights = err == nil
	return deps
}

// Load reads the model in dir and prepares it for scoring. It fails with an
// error naming the directory when a file is missing or the graph uses
// operations the runtime lacks.
func Load(ctx context.Context, dir string, opt Options) (c *Classifier, err error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	opt, err = opt.withDefaults()
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("model directory %s does not exist or is not a directory", dir)
	}
	cfg, err := readConfig(dir)
	if err != nil {
		return nil, err
	}
	weights, err := findWeights(dir)
	if err != nil {
		return nil, err
	}
	tok, err := loadTokenizer(dir)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			tok.close()
		}
	}()

	stage, err := stageModel(dir, weights)
	if err != nil {
		return nil, err
	}
	// The runtime holds everything in memory once loaded.
	defer os.RemoveAll(stage)
	return start(ctx, dir, stage, filepath.Base(weights), opt, cfg, tok)
}

// start runs the staged model (the directory stage, weights file onnx) on
// the runtime and scores once. A failure or a panic in the runtime comes
// back as an error naming dir, with the session destroyed.
func start(ctx context.Context, dir, stage, onnx string, opt Options, cfg modelConfig, tok tokenizer) (c *Classifier, err error) {
	var session *hugot.Session
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("load model %s: runtime panic: %v", dir, r)
			if session != nil {
				err = errors.Join(err, session.Destroy())
			}
		}
	}()
	session, runtime, err := newSession(opt.MaxTokens, batchWindows)
	if err != nil {
		return nil, fmt.Errorf("load model %s: start runtime: %w", dir, err)
	}
	pipeline, err := hugot.NewPipeline(session, hugot.TextClassificationConfig{
		ModelPath:    stage,
		Name:         "guard",
		OnnxFilename: onnx,
	})
	if err != nil {
		return nil, errors.Join(fmt.Errorf("load model %s: %w", dir, err), session.Destroy())
	}
	c, err = classifier(dir, opt, cfg, tok, pipeline)
	if err != nil {
		return nil, errors.Join(err, session.Destroy())
	}
	c.session, c.runtime = session, runtime
	// The runtime builds the graph on first use: an operation it lacks or
	// an output of the wrong shape shows here, at load, not on every request.
	if _, err := c.Score(ctx, "warm-up"); err != nil {
		return nil, errors.Join(fmt.Errorf("load model %s: first run: %w", dir, err), session.Destroy())
	}
	return c, nil
}

// classifier fits the options to the loaded graph (its labels, its
// longest input) and builds the Classifier around it, without a session;
// the caller destroys the session when it fails.
func classifier(dir string, opt Options, cfg modelConfig, tok tokenizer, pipeline *pipelines.TextClassificationPipeline) (*Classifier, error) {
	if err := prepareRuntime(pipeline.Model); err != nil {
		return nil, fmt.Errorf("load model %s: prepare runtime: %w", dir, err)
	}
	id2label := pipeline.Model.IDLabelMap
	if len(id2label) == 0 {
		var err error
		if id2label, err = cfg.labels(); err != nil {
			return nil, fmt.Errorf("load model %s: %w", dir, err)
		}
	}
	if mpe := pipeline.Model.MaxPositionEmbeddings; mpe > 0 && opt.MaxTokens > mpe {
		opt.MaxTokens = mpe
	}
	if opt.MaxTokens-tok.specials() <= opt.Overlap {
		return nil, fmt.Errorf("load model %s: window of %d tokens leaves no room past the %d-token overlap", dir, opt.MaxTokens, opt.Overlap)
	}
	id := cfg.NameOrPath
	if id == "" {
		id = filepath.Base(filepath.Clean(dir))
	}
	return &Classifier{
		pipeline:  pipeline,
		tok:       tok,
		id:        id,
		malicious: MaliciousIndex(id2label),
		maxTokens: opt.MaxTokens,
		overlap:   opt.Overlap,
	}, nil
}

func (o Options) withDefaults() (Options, error) {
	if o.MaxTokens == 0 {
		o.MaxTokens = DefaultMaxTokens
	}
	if o.Overlap == 0 {
		o.Overlap = DefaultOverlap
	}
	if o.MaxTokens < 0 || o.Overlap < 0 || o.Overlap >= o.MaxTokens {
		return o, fmt.Errorf("model options: need 0 <= overlap (%d) < max tokens (%d)", o.Overlap, o.MaxTokens)
	}
	return o, nil
}

// ModelID names the model: config.json's _name_or_path, or the directory.
func (c *Classifier) ModelID() string { return c.id }

// MaliciousColumn is the output column read as the malicious class.
func (c *Classifier) MaliciousColumn() int { return c.malicious }

// Close releases the runtime. Scores after Close fail.
func (c *Classifier) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil
	}
	c.closed = true
	c.tok.close()
	return c.session.Destroy()
}

// Score returns the highest malicious probability across the text's token
// windows. A panic in the tokenizer or the runtime comes back as an error.
func (c *Classifier) Score(ctx context.Context, text string) (res Result, err error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.closed {
		return Result{}, errors.New("score: classifier is closed")
	}
	if n := utf8.RuneCountInString(text); n > MaxTextChars {
		return Result{}, fmt.Errorf("score %d characters: %w (limit %d)", n, ErrTooLong, MaxTextChars)
	}
	defer func() {
		if r := recover(); r != nil {
			res, err = Result{}, fmt.Errorf("score: model backend panic: %v", r)
		}
	}()

	windows, err := c.windows(ctx, sanitize(text))
	if err != nil {
		return Result{}, err
	}
	scores := make([]float64, 0, len(windows))
	for start := 0; start < len(windows); start += batchWindows {
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		batch := windows[start:min(start+batchWindows, len(windows))]
		logits, err := c.forward(batch)
		if err != nil {
			return Result{}, err
		}
		for _, row := range logits {
			scores = append(scores, Probability(row, c.malicious))
		}
	}
	return Result{Score: MaxScore(scores), Windows: len(windows)}, nil
}

// windows tokenizes text chunk by chunk and cuts each chunk's tokens into
// model-sized windows, each wrapped in the special tokens the tokenizer adds
// around a sequence (for BERT, [CLS] ... [SEP]).
func (c *Classifier) windows(ctx context.Context, text string) ([]backends.TokenizedInput, error) {
	var out []backends.TokenizedInput
	for _, chunk := range chunkText(text, chunkChars, chunkOverlap) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		enc, err := c.tok.encode(chunk)
		if err != nil {
			return nil, fmt.Errorf("tokenize: %w", err)
		}
		head, tail := enc.specialEnds(c.tok.head, c.tok.tail)
		content := enc.slice(head, len(enc.ids)-tail)
		size := c.maxTokens - head - tail
		for _, sp := range Windows(len(content.ids), size, c.overlap) {
			w := enc.slice(0, head).
				concat(content.slice(sp.Start, sp.End)).
				concat(enc.slice(len(enc.ids)-tail, len(enc.ids)))
			out = append(out, w.input())
		}
	}
	return out, nil
}

// forward runs one batch of windows through the graph and returns a row of
// logits per window.
func (c *Classifier) forward(windows []backends.TokenizedInput) ([][]float32, error) {
	batch := backends.NewBatch(len(windows))
	batch.Input = windows
	for _, w := range windows {
		batch.MaxSequenceLength = max(batch.MaxSequenceLength, len(w.TokenIDs))
	}
	model := c.pipeline.Model
	c.run.Lock()
	defer c.run.Unlock()
	if err := backends.CreateInputTensors(batch, model, c.runtime); err != nil {
		return nil, fmt.Errorf("model inputs: %w", err)
	}
	defer func() { _ = batch.Destroy() }()
	if err := backends.RunSessionOnBatch(batch, c.pipeline.BasePipeline); err != nil {
		return nil, fmt.Errorf("run model: %w", err)
	}
	if len(batch.OutputValues) == 0 {
		return nil, errors.New("run model: no output")
	}
	logits, ok := batch.OutputValues[0].([][]float32)
	if !ok || len(logits) != len(windows) {
		return nil, fmt.Errorf("run model: output is %T, want one row of logits per window", batch.OutputValues[0])
	}
	return logits, nil
}

func readConfig(dir string) (modelConfig, error) {
	path := filepath.Join(dir, "config.json")
	b, err := os.ReadFile(path)
	if err != nil {
		return modelConfig{}, fmt.Errorf("load model: %w", err)
	}
	var cfg modelConfig
	if err := json.Unmarshal(b, &cfg); err != nil {
		return modelConfig{}, fmt.Errorf("load model: parse %s: %w", path, err)
	}
	return cfg, nil
}

func (cfg modelConfig) labels() (map[int]string, error) {
	if len(cfg.ID2Label) == 0 {
		return nil, errors.New("config.json has no id2label")
	}
	out := make(map[int]string, len(cfg.ID2Label))
	for k, v := range cfg.ID2Label {
		id, err := strconv.Atoi(k)
		if err != nil {
			return nil, fmt.Errorf("config.json id2label key %q is not a number", k)
		}
		out[id] = v
	}
	return out, nil
}

// stageModel makes a temporary directory of symbolic links that holds
// exactly what the runtime should load: the chosen ONNX file and the files
// beside it (external weight data), but no other ONNX file, plus the
// model's JSON files from dir. The runtime's loader searches subdirectories
// for any .onnx file and resolves one found there against the working
// directory, so it is never pointed at dir itself.
func stageModel(dir, weights string) (string, error) {
	stage, err := os.MkdirTemp("", "guard-model-")
	if err != nil {
		return "", fmt.Errorf("load model %s: %w", dir, err)
	}
	link := func(src string) error {
		a, err := filepath.Abs(src)
		if err != nil {
			return err
		}
		return os.Symlink(a, filepath.Join(stage, filepath.Base(src)))
	}
	fail := func(err error) (string, error) {
		os.RemoveAll(stage)
		return "", fmt.Errorf("load model %s: stage files: %w", dir, err)
	}
	beside, err := os.ReadDir(filepath.Dir(weights))
	if err != nil {
		return fail(err)
	}
	for _, e := range beside {
		name := e.Name()
		if !e.Type().IsRegular() || (filepath.Ext(name) == ".onnx" && name != filepath.Base(weights)) || filepath.Ext(name) == ".json" {
			continue
		}
		if err := link(filepath.Join(filepath.Dir(weights), name)); err != nil {
			return fail(err)
		}
	}
	tops, err := os.ReadDir(dir)
	if err != nil {
		return fail(err)
	}
	for _, e := range tops {
		if e.Type().IsRegular() && filepath.Ext(e.Name()) == ".json" {
			if err := link(filepath.Join(dir, e.Name())); err != nil {
				return fail(err)
			}
		}
	}
	return stage, nil
}

// findWeights returns the ONNX file of a model directory: model.onnx at the
// top, else onnx/model.onnx, else the only .onnx file in either place.
func findWeights(dir string) (string, error) {
	for _, p := range []string{"model.onnx", filepath.Join("onnx", "model.onnx")} {
		path := filepath.Join(dir, p)
		if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
			return path, nil
		}
	}
	var found []string
	for _, sub := range []string{dir, filepath.Join(dir, "onnx")} {
		matches, _ := filepath.Glob(filepath.Join(sub, "*.onnx"))
		found = append(found, matches...)
	}
	sort.Strings(found)
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return "", fmt.Errorf("no ONNX weights (model.onnx) in %s", dir)
	}
	return "", fmt.Errorf("several ONNX files in %s and none named model.onnx: %v", dir, found)
}
