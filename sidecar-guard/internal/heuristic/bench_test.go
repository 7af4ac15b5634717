package heuristic

import (
	"strings"
	"testing"
)

// email10KB builds a 10 KB email from the clean BIPIA training emails, the
// length of a long real message.
func email10KB(b *testing.B) string {
	var s strings.Builder
	for _, e := range loadEmails(b, "train") {
		s.WriteString(e)
		s.WriteString("\n\n")
		if s.Len() >= 10*1024 {
			break
		}
	}
	return s.String()[:10*1024]
}

func BenchmarkScan10KBEmail(b *testing.B) {
	text := email10KB(b)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Scan(text)
	}
}
