package httpjson

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/opsboard/opsboard/shared/wire"
)

func TestProblem(t *testing.T) {
	type body struct {
		Title    string           `json:"title"`
		Position float64          `json:"position"`
		Days     *int             `json:"days"`
		Tags     []string         `json:"tags"`
		Due      wire.Opt[string] `json:"due,omitzero"`
		Nested   []map[string]any `json:"nested"`
	}
	for _, tc := range []struct{ in, want string }{
		{`{"title": 1}`, "field 'title' must be a string, not number"},
		{`{"position": "1"}`, "field 'position' must be a number, not string"},
		{`{"days": 1.5}`, "field 'days' must be a whole number, not number 1.5"},
		{`{"tags": "a"}`, "field 'tags' must be an array of strings, not string"},
		{`{"due": 3}`, "field 'due' must be a string, not number"},
		{`{"nested": [1]}`, "field 'nested' must be an object, not number"},
		{`[1]`, "the request body must be a JSON object"},
		{`{"title": }`, "malformed JSON at byte 11: invalid character '}' looking for beginning of value"},
		{`{"title": "x"`, "malformed JSON: the body ends too soon"},
	} {
		var v body
		err := json.NewDecoder(strings.NewReader(tc.in)).Decode(&v)
		if err == nil {
			t.Fatalf("%s decoded", tc.in)
		}
		if got := Problem(err); got != tc.want {
			t.Errorf("Problem(%s) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
