package store

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// Past maxIndent levels the indentation stops growing, so a deeply nested
// value costs a bounded number of bytes per token and the output is still
// the same JSON.
func TestAppendIndentIsLinearInDepth(t *testing.T) {
	deep := func(n int) []byte {
		return []byte(strings.Repeat(`{"f":`, n) + "1" + strings.Repeat("}", n))
	}
	small, large := appendIndent(nil, deep(1000), 0), appendIndent(nil, deep(10000), 0)
	perLevel := (maxIndent + 8) * 2 // a line in, a line out, each at most maxIndent spaces
	if len(large) > 10000*perLevel {
		t.Errorf("10,000 levels encode to %d bytes, more than %d", len(large), 10000*perLevel)
	}
	if len(large) > 11*len(small) {
		t.Errorf("10x the nesting gives %d bytes against %d: not linear", len(large), len(small))
	}
	var v any
	if err := json.Unmarshal(appendIndent(nil, deep(500), 0), &v); err != nil {
		t.Fatalf("the capped indentation is not JSON: %v", err)
	}
	// Up to maxIndent levels the bytes are json.Indent's.
	src := deep(maxIndent - 1)
	var want bytes.Buffer
	if err := json.Indent(&want, src, "", " "); err != nil {
		t.Fatal(err)
	}
	sameBytes(t, want.Bytes(), appendIndent(nil, src, 0))
}
