package activity

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The page's verbs.js is generated from wire.Verbs; a verb added to the
// table without regenerating it would read as raw words on the page.
func TestVerbsJSIsGenerated(t *testing.T) {
	got, err := os.ReadFile("../../web/static/js/verbs.js")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(VerbsJS()), string(got)); diff != "" {
		t.Errorf("verbs.js is stale: run go generate ./board/internal/rules/activity (-want +got)\n%s", diff)
	}
}
