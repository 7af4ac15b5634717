//go:build !ORT

package model

import (
	"bytes"
	"fmt"
	"sync"

	gomlxbackends "github.com/gomlx/gomlx/backends"
	mlctx "github.com/gomlx/gomlx/pkg/ml/context"
	"github.com/knights-analytics/hugot"
	"github.com/knights-analytics/hugot/backends"
	"github.com/knights-analytics/hugot/options"
	"github.com/sugarme/tokenizer/pretrained"
)

// runtimeAvailable: the pure-Go backend is compiled in, so there is always
// a runtime.
func runtimeAvailable() bool { return true }

// newSession starts the pure-Go runtime. The graph is compiled once per
// input shape; padding batches and sequences up to a few bucket sizes keeps
// that cache small and bounded.
func newSession(maxTokens, maxBatch int) (*hugot.Session, string, error) {
	s, err := hugot.NewGoSession(
		options.WithGoMLXBatchBuckets(buckets(1, maxBatch)),
		options.WithGoMLXSequenceBuckets(buckets(32, maxTokens)),
	)
	return s, "GO", err
}

// prepareRuntime moves the loaded graph onto a pure-Go backend that runs
// the operations of one graph run in order. Its default schedules them on
// parallel goroutines, and that scheduler reads its use counts without the
// lock that guards their writes: a data race the race detector reports on
// every run. Runs are one at a time here anyway (Classifier.run), and the
// matrix products still use every core.
func prepareRuntime(model *backends.Model) error {
	gm := model.GoMLXModel
	if gm == nil {
		return nil
	}
	backend, err := gomlxbackends.NewWithConfig("go:ops_sequential")
	if err != nil {
		return err
	}
	exec, err := mlctx.NewExec(backend, gm.Ctx, gm.Call)
	if err != nil {
		backend.Finalize()
		return err
	}
	exec.SetMaxCache(gm.MaxCache)
	gm.Exec.Finalize()
	gm.Backend.Finalize()
	vars := gm.Ctx
	gm.Backend, gm.Exec = backend, exec
	gm.Destroy = func() {
		exec.Finalize()
		vars.Finalize()
		backend.Finalize()
	}
	return nil
}

// buckets returns the powers of two from lo up to hi, then hi itself.
func buckets(lo, hi int) []int {
	var out []int
	for b := lo; b < hi; b *= 2 {
		out = append(out, b)
	}
	return append(out, hi)
}

// loadTokenizer loads dir/tokenizer.json with the pure-Go tokenizer.
func loadTokenizer(dir string) (t tokenizer, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("load tokenizer %s: panic: %v", dir, r)
		}
	}()
	b, err := readTokenizerJSON(dir)
	if err != nil {
		return tokenizer{}, err
	}
	tk, err := pretrained.FromReader(bytes.NewReader(b))
	if err != nil {
		return tokenizer{}, fmt.Errorf("load tokenizer %s: %w", dir, err)
	}
	// The library keeps caches that are not documented as safe for
	// concurrent use; tokenizing is a small share of a score.
	var mu sync.Mutex
	t = tokenizer{
		close: func() {},
		encode: func(text string) (enc encoding, err error) {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("tokenizer panic: %v", r)
				}
			}()
			mu.Lock()
			defer mu.Unlock()
			e, err := tk.EncodeSingle(text, true)
			if err != nil {
				return encoding{}, err
			}
			return encoding{
				ids:     toUint32(e.Ids),
				typeIDs: toUint32(e.TypeIds),
				mask:    toUint32(e.AttentionMask),
				special: toUint32(e.SpecialTokenMask),
			}.fill(), nil
		},
	}
	return t.withEnds()
}

func toUint32(s []int) []uint32 {
	out := make([]uint32, len(s))
	for i, v := range s {
		out[i] = uint32(max(v, 0))
	}
	return out
}
