package saved

import (
	"encoding/json"
	"testing"
)

func TestMergePatch(t *testing.T) {
	for _, tc := range []struct{ target, patch, want string }{
		{`{"a":"b"}`, `{"a":"c"}`, `{"a":"c"}`},
		{`{"a":"b"}`, `{"b":"c"}`, `{"a":"b","b":"c"}`},
		{`{"a":"b"}`, `{"a":null}`, `{}`},
		{`{"a":{"b":1,"c":2}}`, `{"a":{"b":null,"d":3}}`, `{"a":{"c":2,"d":3}}`},
		{`{"a":[1,2]}`, `{"a":[3]}`, `{"a":[3]}`},
		{`{"a":"x"}`, `{"a":{"b":1}}`, `{"a":{"b":1}}`},
		{`{}`, `{"a":{"b":null}}`, `{"a":{}}`},
	} {
		var target, patch any
		if err := json.Unmarshal([]byte(tc.target), &target); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(tc.patch), &patch); err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(mergePatch(target, patch))
		if string(got) != tc.want {
			t.Errorf("merge %s with %s = %s, want %s", tc.target, tc.patch, got, tc.want)
		}
	}
}
