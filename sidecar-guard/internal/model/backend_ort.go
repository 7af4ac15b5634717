//go:build ORT

package model

import (
	"fmt"
	"os"

	"github.com/daulet/tokenizers"
	"github.com/knights-analytics/hugot"
	"github.com/knights-analytics/hugot/backends"
	"github.com/knights-analytics/hugot/options"
)

// ortLibraryEnv names the variable that points at libonnxruntime when it is
// not at the default path.
const ortLibraryEnv = "SVC_GUARD_ORT_LIB"

func ortLibraryPath() string {
	if p := os.Getenv(ortLibraryEnv); p != "" {
		return p
	}
	return "/usr/lib/libonnxruntime.so"
}

// runtimeAvailable reports whether the ONNX Runtime library is where the
// session will look for it.
func runtimeAvailable() bool {
	st, err := os.Stat(ortLibraryPath())
	return err == nil && st.Mode().IsRegular()
}

// newSession starts ONNX Runtime. It allows one session per process, so a
// model must be closed before another is loaded.
func newSession(_, _ int) (*hugot.Session, string, error) {
	s, err := hugot.NewORTSession(options.WithOnnxLibraryPath(ortLibraryPath()))
	return s, "ORT", err
}

// prepareRuntime has nothing to adjust for ONNX Runtime.
func prepareRuntime(*backends.Model) error { return nil }

// loadTokenizer loads dir/tokenizer.json with the Rust tokenizers library.
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
	tk, err := tokenizers.FromBytes(b)
	if err != nil {
		return tokenizer{}, fmt.Errorf("load tokenizer %s: %w", dir, err)
	}
	t = tokenizer{
		close: func() { _ = tk.Close() },
		encode: func(text string) (enc encoding, err error) {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("tokenizer panic: %v", r)
				}
			}()
			e := tk.EncodeWithOptions(text, true,
				tokenizers.WithReturnTypeIDs(),
				tokenizers.WithReturnAttentionMask(),
				tokenizers.WithReturnSpecialTokensMask(),
			)
			return encoding{ids: e.IDs, typeIDs: e.TypeIDs, mask: e.AttentionMask, special: e.SpecialTokensMask}.fill(), nil
		},
	}
	t, err = t.withEnds()
	if err != nil {
		tk.Close()
	}
	return t, err
}
