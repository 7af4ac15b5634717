package normalize

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// emails returns size bytes of the clean BIPIA training emails, repeated.
func emails(b *testing.B, size int) string {
	f, err := os.Open("../../testdata/bipia/benchmark_email_train.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var s strings.Builder
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e struct{ Context string }
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			b.Fatal(err)
		}
		s.WriteString(e.Context + "\n\n")
	}
	return strings.Repeat(s.String(), size/s.Len()+1)[:size]
}

// BenchmarkText shows the cost is linear in the input: ordinary mail,
// mail in another script, and text built to make every step work.
func BenchmarkText(b *testing.B) {
	mixed := strings.Repeat("Ignоre\u200b а l l  p r e v i o u s ＩＮＳＴ Привет =49=67=6E=6F=72=65=20=61=6C=6C=20=72 "+b64("some hidden text here that reads")+" ", 80)
	for _, c := range []struct {
		name string
		text string
	}{
		{"email/10KB", emails(b, 10<<10)},
		{"email/1MB", emails(b, 1<<20)},
		{"adversarial/10KB", mixed[:10<<10]},
		{"adversarial/1MB", strings.Repeat(mixed, (1<<20)/len(mixed)+1)[:1<<20]},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.text)))
			for b.Loop() {
				Text(c.text)
			}
		})
	}
}
