package storefile

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/shared/wire"
)

// oddDoc is a document with what a hand edit or a long life leaves in it:
// escapes, invalid UTF-8, names in another case, null records, unknown
// fields, records before and after the rest of the members.
func oddDoc(n int) string {
	var cases, messages []string
	for i := 1; i <= n; i++ {
		cases = append(cases, fmt.Sprintf(`{"id":"CASE-%d","title":"caf\u00e9 \"%d\"\n\ud83d\ude00","TITLE":"upper wins last","status":"doing","tags":["a","b"],"unknown":{"x":[1,2]},"tasks":[{"id":"CASE-%d-T1","title":"t","done":true}]}`, i, i, i))
		messages = append(messages, fmt.Sprintf(`{"id":"M-%d","to":"one@example.com","cc":["a@example.com","b@example.com"],"body":"bad BADUTF8 utf-8 %d","read":%v,"caseId":"CASE-%d"}`, i, i, i%2 == 0, i))
		if i%50 == 0 {
			messages = append(messages, "null")
		}
	}
	doc := fmt.Sprintf("{ \"schemaVersion\": 7,\n \"cases\" : [\n%s\n],\t\"version\":%d,\"labels\":[{\"id\":\"finance\",\"title\":\"Finance\"}],\n\"messages\":[%s], \"counters\": {\"CASE\": 3}, \"Version\": %d }\n",
		strings.Join(cases, ",\n  "), n, strings.Join(messages, " , "), n+1)
	return strings.ReplaceAll(doc, "BADUTF8", "\xff\xfe")
}

func TestSplitDecodeMeansWhatEncodingJSONReads(t *testing.T) {
	docs := map[string]string{"odd": oddDoc(700), "empty arrays": `{"cases":[],"messages":[ ],"version":3}`, "null arrays": `{"cases":null,"messages":null}`}
	files, _ := filepath.Glob("testdata/*.json")
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs[f] = string(raw)
	}
	for name, doc := range docs {
		t.Run(name, func(t *testing.T) {
			var want, got wire.Doc
			if err := json.Unmarshal([]byte(doc), &want); err != nil {
				t.Fatal(err)
			}
			if err := decodeSplit([]byte(doc), &got); err != nil {
				t.Fatalf("split decode: %v", err)
			}
			if diff := cmp.Diff(&want, &got); diff != "" {
				t.Errorf("(-encoding/json +split)\n%s", diff)
			}
		})
	}
}

func TestSplitDecodeLeavesTheDoubtfulToEncodingJSON(t *testing.T) {
	was := splitFrom
	splitFrom = 0
	t.Cleanup(func() { splitFrom = was })
	big := oddDoc(700)
	for name, doc := range map[string]string{
		"as written":           big,
		"a name in other case": strings.Replace(big, `"messages":[`, `"Messages":[`, 1),
		"a repeated name":      strings.Replace(big, `"counters"`, `"cases":[{"id":"CASE-9"}],"counters"`, 1),
		"more after the end":   big + `{}`,
		"cut short":            big[:len(big)/2],
		"a bad record":         strings.Replace(big, `"read":true`, `"read":"yes"`, 1),
	} {
		t.Run(name, func(t *testing.T) {
			var want, got wire.Doc
			wantErr := json.Unmarshal([]byte(doc), &want)
			gotErr := unmarshalDoc([]byte(doc), &got)
			if fmt.Sprint(wantErr) != fmt.Sprint(gotErr) {
				t.Fatalf("error %v, want %v", gotErr, wantErr)
			}
			if diff := cmp.Diff(&want, &got); diff != "" {
				t.Errorf("(-encoding/json +unmarshalDoc)\n%s", diff)
			}
		})
	}
}
