package backup

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"syscall"
	"testing"
	"time"

	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/board/internal/testkit"
	"github.com/opsboard/opsboard/shared/wire"
)

// BenchmarkRun is one whole run (seal, commit, push to a local bare
// repository) of a board of 100 and 1,000 cases with 10 linked messages
// each: about 2 and 20 MB of document. Besides wall time and allocation it
// reports the CPU time of the run and its git processes (cpu-ms/op, which
// a busy machine disturbs less than wall time), and the peak of live heap
// above what the run started with (live-peak-MB; the document itself is
// already in memory, as in the board). That peak is measured in one more
// run with the collector set to run almost continuously, so garbage not
// yet collected does not count: it stays flat as the store grows, because
// the pipeline streams.
func BenchmarkRun(b *testing.B) {
	for _, cases := range []int{100, 1000} {
		doc := testkit.BoardDoc(cases)
		var size countWriter
		if err := store.WriteDoc(&size, doc); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("cases=%d/doc=%.1fMB", cases, float64(size)/1e6), func(b *testing.B) {
			s := benchSettings(b)
			at := time.Date(2026, 11, 26, 3, 30, 0, 0, time.UTC)
			s.Now = func() time.Time { return at }
			src := func(context.Context) (*wire.Doc, error) { return doc, nil }
			var snapshot int64
			run := func() {
				at = at.Add(time.Hour)
				r := Run(context.Background(), s, src, nil)
				if r.Exit != ExitPushed {
					b.Fatalf("%s", fmtRun(r))
				}
				snapshot = r.Size
			}
			b.ReportAllocs()
			cpu0 := cpuTime()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				run()
			}
			b.StopTimer()
			b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
			old := debug.SetGCPercent(1)
			runtime.GC()
			stop := sampleHeap()
			run()
			peak := stop()
			debug.SetGCPercent(old)
			b.ReportMetric(float64(peak)/(1<<20), "live-peak-MB")
			b.ReportMetric(float64(snapshot)/1e6, "snapshot-MB")
		})
	}
}

// cpuTime is the user and system time of this process and its waited-for
// children (the git commands).
func cpuTime() time.Duration {
	var self, kids syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids)
	var total time.Duration
	for _, r := range []syscall.Rusage{self, kids} {
		total += time.Duration(r.Utime.Nano() + r.Stime.Nano())
	}
	return total
}

// sampleHeap samples the live heap every millisecond until stop, which
// returns the peak above the heap at the start.
func sampleHeap() (stop func() uint64) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 {
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	base := read()
	done := make(chan struct{})
	result := make(chan uint64, 1)
	go func() {
		var peak uint64
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			peak = max(peak, read())
			select {
			case <-done:
				result <- peak
				return
			case <-t.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		p := <-result
		if p < base {
			return 0
		}
		return p - base
	}
}

// BenchmarkRestoreDryRun is `board backup restore` of a 20 MB store's
// snapshot: every gate (which reads and decodes the whole store) and the
// plan against an empty data directory, the local copy already fetched.
func BenchmarkRestoreDryRun(b *testing.B) {
	doc := testkit.BoardDoc(1000)
	s := benchSettings(b)
	if r := Run(context.Background(), s, func(context.Context) (*wire.Doc, error) { return doc, nil }, nil); r.Exit != ExitPushed {
		b.Fatal(fmtRun(r))
	}
	b.ReportAllocs()
	cpu0 := cpuTime()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Plan(context.Background(), s, "", nil); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
}

// benchSettings are the job's settings over a temporary data directory and
// a local bare repository, with the default (real) scrypt cost.
func benchSettings(b *testing.B) Settings {
	b.Helper()
	dir := b.TempDir()
	bare := filepath.Join(dir, "remote.git")
	if out, err := exec.Command("git", "init", "--bare", "--quiet", bare).CombinedOutput(); err != nil {
		b.Fatalf("%v %s", err, out)
	}
	env := map[string]string{"SVC_BACKUP_KEY": testPass, "SVC_BACKUP_REPO": bare, "SVC_BACKUP_ALLOW_NONDEFAULT": "1"}
	s, err := SettingsFrom(func(k string) string { return env[k] }, filepath.Join(dir, "data", "board.json"))
	if err != nil {
		b.Fatal(err)
	}
	return s
}
