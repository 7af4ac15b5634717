package nameset

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRoundTrip(t *testing.T) {
	s, err := Decode("")
	if err != nil || len(s) != 0 {
		t.Fatalf(`Decode("") = %v, %v`, s, err)
	}
	s["b"], s["a"] = struct{}{}, struct{}{}
	a := s.Appender()
	a.Add(`q"uote`)
	wm := a.Add("0")
	if want := `{"taken":["a","b","q\"uote","0"]}`; wm != want {
		t.Errorf("watermark = %s, want %s", wm, want)
	}
	back, err := Decode(wm)
	if err != nil {
		t.Fatal(err)
	}
	back.Prune(map[string]string{"a": "", "0": "", "new": ""})
	if diff := cmp.Diff(Set{"a": {}, "0": {}}, back); diff != "" {
		t.Errorf("decoded and pruned (-want +got):\n%s", diff)
	}
	if got := back.Encode(); got != `{"taken":["0","a"]}` {
		t.Errorf("Encode = %s", got)
	}
	if got := (Set{}).Appender().Add("x"); got != `{"taken":["x"]}` {
		t.Errorf("first Add on an empty set = %s", got)
	}
	if _, err := Decode("[1]"); err == nil {
		t.Error("Decode of a list that is not ours succeeded")
	}
}
