package store

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sync"
	"testing"
	"time"

	"github.com/opsboard/opsboard/board/internal/testkit"
	"github.com/opsboard/opsboard/shared/wire"
)

var profileDir = flag.String("store.profiles", "", "write CPU profiles of a 10x start-up, write load and compaction to this directory")

// BenchmarkProfile10x writes one CPU profile for each costly moment of a
// 10x board (10,000 cases, 100,000 messages): the start-up, 8 writers for
// five seconds with the compactor on its default schedule, the first
// compaction after a start and a later one. Each profile covers that
// moment only, not the building of the board.
//
//	go test -run '^$' -bench Profile10x -benchtime 1x ./board/internal/store/ -args -store.profiles=/tmp/prof
func BenchmarkProfile10x(b *testing.B) {
	if *profileDir == "" {
		b.Skip("set -store.profiles to a directory to write the profiles")
	}
	if err := os.MkdirAll(*profileDir, 0o700); err != nil {
		b.Fatal(err)
	}
	path, _ := writeFixture(b, testkit.BoardDoc(10000))
	var s *Store
	profileTo(b, "startup", func() {
		var err error
		cfg := quietConfig(path)
		cfg.MessageKey = bodyKey
		if s, err = Open(cfg); err != nil {
			b.Fatal(err)
		}
	})
	defer s.Close()
	profileTo(b, "compact-first", func() {
		if err := patchTitle(s, "CASE-1", -1); err != nil {
			b.Fatal(err)
		}
		if err := s.compact(); err != nil {
			b.Fatal(err)
		}
	})
	profileTo(b, "write-load", func() {
		var wg sync.WaitGroup
		start := time.Now()
		for w := 0; w < 8; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for n := 0; time.Since(start) < 5*time.Second; n++ {
					if err := patchTitle(s, fmt.Sprintf("CASE-%d", 1+(n*8+w)%10000), n); err != nil {
						b.Error(err)
						return
					}
				}
			}()
		}
		wg.Wait()
	})
	profileTo(b, "compact", func() {
		if err := patchTitle(s, "CASE-2", -1); err != nil {
			b.Fatal(err)
		}
		if err := s.compact(); err != nil {
			b.Fatal(err)
		}
	})
}

// bodyKey stands in for the mail dedupe key the daemon uses: a hash of the
// body, which is what it costs for mail without a Message-ID.
func bodyKey(m *wire.Message) string {
	sum := sha256.Sum256([]byte(m.From + "\x00" + m.ReceivedAt + "\x00" + m.Body))
	return "h:" + hex.EncodeToString(sum[:])
}

// profileTo runs f under the CPU profiler, into name.pprof.
func profileTo(b *testing.B, name string, f func()) {
	b.Helper()
	out, err := os.Create(filepath.Join(*profileDir, name+".pprof"))
	if err != nil {
		b.Fatal(err)
	}
	defer out.Close()
	if err := pprof.StartCPUProfile(out); err != nil {
		b.Fatal(err)
	}
	t0 := time.Now()
	f()
	pprof.StopCPUProfile()
	b.ReportMetric(time.Since(t0).Seconds(), name+"-s")
}
