package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/opsboard/opsboard/board/internal/testkit"
	"github.com/opsboard/opsboard/shared/storefile"
)

// scaleSizes are the boards the store is held to: 1x is 1,000 cases with
// 10,000 messages, 10x ten times that (each message has its own body).
var scaleSizes = []struct {
	name  string
	cases int
}{{"1x", 1000}, {"10x", 10000}}

// scaleWriters and scaleWriteFor are the write load: 8 clients patching
// case titles flat out.
const (
	scaleWriters  = 8
	scaleWriteFor = 5 * time.Second
	// scaleSettle is how long after the load the data directory is weighed:
	// compaction and the reserve have had their chance to catch up.
	scaleSettle = 3 * time.Second
)

// BenchmarkScale runs the real board on a seeded document and reports what
// a person meets: the restart to the first complete case list, the
// daemon's resident memory (VmRSS), 8 writers' throughput and p99, the
// summary list, one message read, and the whole data directory as a
// multiple of the seeded document after the load.
//
//	go test -run '^$' -bench Scale -benchtime 1x ./board/cmd/board/
//
// prints the table; -short leaves out 10x.
func BenchmarkScale(b *testing.B) {
	bin := boardBin
	if bin == "" { // TestMain builds the board only without -short
		bin = testkit.GoBuild(b, b.TempDir(), "github.com/opsboard/opsboard/board/cmd/board")
	}
	for _, sz := range scaleSizes {
		b.Run(sz.name, func(b *testing.B) {
			if sz.cases >= 10000 && testing.Short() {
				b.Skip("the 10x board (about 300 MB) is skipped under -short")
			}
			data := filepath.Join(b.TempDir(), "board.json")
			seedDoc := seedScaleDoc(b, sz.cases)
			for i := 0; i < b.N; i++ {
				if err := os.RemoveAll(filepath.Dir(data)); err != nil {
					b.Fatal(err)
				}
				if err := os.MkdirAll(filepath.Dir(data), 0o700); err != nil {
					b.Fatal(err)
				}
				if err := os.WriteFile(data, seedDoc, 0o600); err != nil {
					b.Fatal(err)
				}
				runScale(b, bin, data, int64(len(seedDoc)), sz.cases)
			}
		})
	}
}

// seedScaleDoc is the board document, encoded as a person's file would be.
func seedScaleDoc(b *testing.B, cases int) []byte {
	b.Helper()
	raw, err := json.Marshal(testkit.BoardDoc(cases))
	if err != nil {
		b.Fatal(err)
	}
	return raw
}

// runScale measures one board from its first start to the weighing of its
// data directory, and reports the figures.
func runScale(b *testing.B, bin, data string, seeded int64, cases int) {
	b.Helper()
	first, took := startScale(b, bin, data)
	first.stopGracefully(b)
	d, restart := startScale(b, bin, data)
	rss := d.rssMB(b)
	list := d.median(b, 5, func(int) string { return "/api/cases" })
	summary := d.median(b, 21, func(int) string { return "/api/cases?view=summary" })
	rng := rand.New(rand.NewPCG(uint64(cases), 2))
	body := d.median(b, 201, func(int) string { return fmt.Sprintf("/api/messages/M-%d", 1+rng.IntN(cases*10)) })
	// A word in no record: the keyword search reads every field of every
	// record, mail bodies included; a new word each time, past any cache.
	search := d.median(b, 5, func(i int) string { return fmt.Sprintf("/api/search?q=zqxj%d", i) })
	rate, p99 := d.writeLoad(b, cases)
	rssAfter := d.rssMB(b)
	time.Sleep(scaleSettle)
	disk := dirBytes(b, filepath.Dir(data))
	b.Logf("load average %s; data directory:\n%s", loadAverage(), listDir(filepath.Dir(data)))

	b.ReportMetric(float64(seeded)/1e6, "doc-MB")
	b.ReportMetric(took.Seconds(), "first-start-s")
	b.ReportMetric(restart.Seconds(), "restart-s")
	b.ReportMetric(rss, "rss-MB")
	b.ReportMetric(rssAfter, "rss-after-writes-MB")
	b.ReportMetric(rate, "writes/s")
	b.ReportMetric(p99, "write-p99-ms")
	b.ReportMetric(list, "list-ms")
	b.ReportMetric(summary, "summary-ms")
	b.ReportMetric(body, "message-ms")
	b.ReportMetric(search, "search-ms")
	b.ReportMetric(float64(disk)/float64(seeded), "disk-x")

	// A crash leaves the journal unfolded: the next start replays it.
	journal := fileBytes(storefile.JournalPath(data))
	d.kill()
	d, afterKill := startScale(b, bin, data)
	d.stopGracefully(b)
	b.ReportMetric(afterKill.Seconds(), "restart-after-kill-s")
	b.ReportMetric(float64(journal)/1e6, "journal-at-kill-MB")
}

// scaleDaemon is a board process started by the benchmark.
type scaleDaemon struct {
	cmd    *exec.Cmd
	url    string
	stderr *testkit.SyncBuffer
	exited chan struct{}
}

// startScale starts the board on data and returns once a whole
// GET /api/cases has been read, with the time that took from the start of
// the process. The board binds before it loads, so the request waits in
// the listen queue rather than being refused.
func startScale(b *testing.B, bin, data string) (*scaleDaemon, time.Duration) {
	b.Helper()
	addr := testkit.FreeAddr(b)
	d := &scaleDaemon{cmd: exec.Command(bin), url: "http://" + addr, stderr: &testkit.SyncBuffer{}, exited: make(chan struct{})}
	d.cmd.Env = append(os.Environ(), "SVC_BOARD_ADDR="+addr, "SVC_BOARD_DATA="+data, "SVC_SEARCH_URL=http://127.0.0.1:1")
	d.cmd.Stderr = d.stderr
	t0 := time.Now()
	if err := d.cmd.Start(); err != nil {
		b.Fatal(err)
	}
	go func() { d.cmd.Wait(); close(d.exited) }()
	b.Cleanup(d.kill)
	client := &http.Client{Timeout: 2 * time.Minute}
	for {
		select {
		case <-d.exited:
			b.Fatalf("the board exited:\n%s", d.stderr)
		default:
		}
		var out struct {
			Cases []json.RawMessage `json:"cases"`
		}
		resp, err := client.Get(d.url + "/api/cases")
		if err == nil {
			err = json.NewDecoder(resp.Body).Decode(&out)
			resp.Body.Close()
			if err == nil && resp.StatusCode == http.StatusOK && len(out.Cases) > 0 {
				return d, time.Since(t0)
			}
		}
		if time.Since(t0) > 5*time.Minute {
			b.Fatalf("no case list after 5 minutes (%v):\n%s", err, d.stderr)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (d *scaleDaemon) kill() {
	d.cmd.Process.Signal(syscall.SIGKILL)
	<-d.exited
}

// stopGracefully ends the board as a person does, which compacts.
func (d *scaleDaemon) stopGracefully(b *testing.B) {
	d.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-d.exited:
	case <-time.After(3 * time.Minute):
		b.Fatalf("the board did not stop:\n%s", d.stderr)
	}
}

// rssMB is the daemon's resident memory, VmRSS of its process.
func (d *scaleDaemon) rssMB(b *testing.B) float64 {
	b.Helper()
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", d.cmd.Process.Pid))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 64)
			if err != nil {
				b.Fatal(err)
			}
			return kb / 1024
		}
	}
	b.Fatal("no VmRSS in the process status")
	return 0
}

// median reads n answers whole, one after another, and returns the median
// time in milliseconds.
func (d *scaleDaemon) median(b *testing.B, n int, path func(i int) string) float64 {
	b.Helper()
	took := make([]time.Duration, n)
	for i := range took {
		t0 := time.Now()
		resp, err := http.Get(d.url + path(i))
		if err != nil {
			b.Fatal(err)
		}
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			b.Fatalf("GET %s: %d %v", path(i), resp.StatusCode, err)
		}
		took[i] = time.Since(t0)
	}
	slices.Sort(took)
	return ms(took[n/2])
}

// writeLoad has scaleWriters clients patch case titles for scaleWriteFor
// and returns the acknowledged writes per second and the p99 in
// milliseconds.
func (d *scaleDaemon) writeLoad(b *testing.B, cases int) (float64, float64) {
	b.Helper()
	var mu sync.Mutex
	var all []time.Duration
	var failed []string
	var wg sync.WaitGroup
	start := time.Now()
	for w := 0; w < scaleWriters; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			client := &http.Client{Timeout: time.Minute}
			var own []time.Duration
			for n := 0; time.Since(start) < scaleWriteFor; n++ {
				id := fmt.Sprintf("CASE-%d", 1+(n*scaleWriters+w)%cases)
				body, _ := json.Marshal(map[string]string{"title": fmt.Sprintf("Renew the vendor contract, round %d.%d", w, n)})
				req, _ := http.NewRequest(http.MethodPatch, d.url+"/api/cases/"+id, bytes.NewReader(body))
				req.Header.Set("content-type", "application/json")
				t0 := time.Now()
				resp, err := client.Do(req)
				if err == nil {
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
				own = append(own, time.Since(t0))
				if err != nil || resp.StatusCode != http.StatusOK {
					mu.Lock()
					failed = append(failed, fmt.Sprintf("PATCH %s: %v %v", id, err, resp))
					mu.Unlock()
					return
				}
			}
			mu.Lock()
			all = append(all, own...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	if len(failed) > 0 {
		b.Fatalf("writes failed: %v\n%s", failed, d.stderr)
	}
	slices.Sort(all)
	return float64(len(all)) / elapsed.Seconds(), ms(all[len(all)*99/100])
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// dirBytes is the space everything under dir takes: document, journal,
// reserve, snapshots, temporaries and the vault, a file with several names
// counted once.
func dirBytes(b *testing.B, dir string) int64 {
	b.Helper()
	seen := map[uint64]bool{}
	var total int64
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		fi, err := e.Info()
		if err != nil {
			return err
		}
		if st, ok := fi.Sys().(*syscall.Stat_t); ok {
			if seen[st.Ino] {
				return nil
			}
			seen[st.Ino] = true
		}
		total += fi.Size()
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return total
}

func fileBytes(p string) int64 {
	fi, err := os.Stat(p)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// loadAverage is the machine's load, to read the figures against.
func loadAverage() string {
	raw, _ := os.ReadFile("/proc/loadavg")
	return strings.TrimSpace(string(raw))
}

// listDir names every file under dir with its size, for the log.
func listDir(dir string) string {
	var sb strings.Builder
	filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			if fi, err := e.Info(); err == nil {
				rel, _ := filepath.Rel(dir, p)
				fmt.Fprintf(&sb, "  %-40s %10.1f MB\n", rel, float64(fi.Size())/1e6)
			}
		}
		return nil
	})
	return sb.String()
}
