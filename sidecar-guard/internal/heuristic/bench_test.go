package heuristic

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
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

// BenchmarkScan10KBEmail reports, besides the mean, the median and 99th
// percentile of single scans (the mean on a shared machine is pulled up
// by the scans that lost the CPU) and the process CPU time per scan.
func BenchmarkScan10KBEmail(b *testing.B) {
	text := email10KB(b)
	b.SetBytes(int64(len(text)))
	var times []time.Duration
	cpu0 := cpuTime()
	for b.Loop() {
		t0 := time.Now()
		Scan(text)
		times = append(times, time.Since(t0))
	}
	reportCPU(b, cpu0)
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(times[len(times)*99/100].Nanoseconds()), "p99-ns")
}

// BenchmarkScanSizes shows the cost grows linearly with the text.
func BenchmarkScanSizes(b *testing.B) {
	email := email10KB(b)
	for _, kb := range []int{1, 10, 100} {
		text := strings.Repeat(email, kb/10+1)[:kb*1024]
		b.Run(fmt.Sprintf("%dKB", kb), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			cpu0 := cpuTime()
			for b.Loop() {
				Scan(text)
			}
			reportCPU(b, cpu0)
		})
	}
}

// BenchmarkScanAdversarial feeds 10 KB built to make the scan work hard:
// every word starts a pattern, or the text is one long base64 run.
func BenchmarkScanAdversarial(b *testing.B) {
	cases := map[string]string{
		"trigger words":    strings.Repeat("ignore your previous all the instructions in your reply to ", 200),
		"no spaces":        strings.Repeat("ignore", 2000),
		"base64":           strings.Repeat("SWdub3JlIGFsbCBwcmV2aW91cyBpbnN0cnVjdGlvbnMg", 250),
		"zero width":       strings.Repeat("a\u200bb ", 2000),
		"spaced letters":   strings.Repeat("i g n o r e  a l l  p r e v i o u s ", 300),
		"quoted-printable": strings.Repeat("=49=67=6E=6F=72=65=20=61=6C=6C=20", 400),
		"task lines":       strings.Repeat("Who wrote the ballad of the seven rivers?\n", 250),
	}
	for name, text := range cases {
		text = text[:min(len(text), 10*1024)]
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			cpu0 := cpuTime()
			for b.Loop() {
				Scan(text)
			}
			reportCPU(b, cpu0)
		})
	}
}

// reportCPU reports the process CPU time per iteration since cpu0, which a
// busy shared machine disturbs far less than the wall clock.
func reportCPU(b *testing.B, cpu0 time.Duration) {
	if cpu := cpuTime() - cpu0; cpu > 0 && b.N > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}
