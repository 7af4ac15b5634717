package main

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opsboard/opsboard/board/internal/testkit"
)

// Under a 1,024 open-file limit, 2,000 idle keep-alive connections and 300
// POSTs whose bodies never finish do not make the board unreachable: idle
// and slow connections are closed after their timeouts, the connection cap
// keeps descriptors free for the store, and a write still lands in a
// compacted document.
//
// It runs with the cap the limit gives (512), and with a cap of 250, which
// the slow bodies alone would fill for good without the body timeout.
func TestIdleAndSlowConnectionsDoNotStarveTheBoard(t *testing.T) {
	for _, conns := range []string{"", "SVC_BOARD_MAX_CONNS=250"} {
		t.Run("cap "+strings.TrimPrefix(conns, "SVC_BOARD_MAX_CONNS="), func(t *testing.T) { starve(t, conns) })
	}
}

func starve(t *testing.T, conns string) {
	data := filepath.Join(t.TempDir(), "board.json")
	d := start(t, data, 1024,
		"SVC_BOARD_IDLE_TIMEOUT=1s", "SVC_BOARD_BODY_TIMEOUT=1s", "SVC_BOARD_READ_HEADER_TIMEOUT=1s", conns)

	var (
		mu   sync.Mutex
		held []net.Conn
	)
	hold := func(c net.Conn) {
		mu.Lock()
		held = append(held, c)
		mu.Unlock()
	}
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range held {
			c.Close()
		}
	})
	var wg sync.WaitGroup
	// Idle keep-alive: one request answered, then the connection is held
	// open and silent.
	for i := 0; i < 2000; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := net.DialTimeout("tcp", d.addr, 5*time.Second)
			if err != nil {
				return
			}
			hold(c)
			fmt.Fprintf(c, "GET /api/health HTTP/1.1\r\nHost: %s\r\n\r\n", d.addr)
			c.SetReadDeadline(time.Now().Add(5 * time.Second))
			if resp, err := http.ReadResponse(bufio.NewReader(c), nil); err == nil {
				resp.Body.Close()
			}
		}()
	}
	// Slow bodies: the headers promise 1 MB and one byte trickles in.
	for i := 0; i < 300; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := net.DialTimeout("tcp", d.addr, 5*time.Second)
			if err != nil {
				return
			}
			hold(c)
			fmt.Fprintf(c, "POST /api/cases HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{", d.addr)
		}()
	}
	wg.Wait()

	title := "written past 2300 held connections"
	testkit.Eventually(t, "the board answers a write while the connections are held", func() bool {
		code, _, err := d.do("POST", "/api/cases", jsonBody(t, map[string]string{"title": title}))
		return err == nil && code == http.StatusCreated
	})
	d.compacted(t, title)
	raw := d.must(t, http.StatusOK, "GET", "/api/health", "")
	if strings.Contains(string(raw), "too many open files") {
		t.Errorf("health: %s", raw)
	}
	if strings.Contains(d.stderr.String(), "too many open files") {
		t.Errorf("the board ran out of descriptors:\n%.2000s", d.stderr)
	}
}

// The write timeout bounds ordinary answers, not the live stream: a page
// subscribed longer than the timeout still hears of a write.
func TestLiveStreamOutlivesTheWriteTimeout(t *testing.T) {
	d := start(t, filepath.Join(t.TempDir(), "board.json"), 0, "SVC_BOARD_WRITE_TIMEOUT=500ms")
	c, err := net.DialTimeout("tcp", d.addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "GET /api/stream HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\n\r\n", d.addr)
	lines := make(chan string, 100)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(c)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	time.Sleep(2 * time.Second) // four write timeouts
	raw := d.must(t, http.StatusCreated, "POST", "/api/cases", `{"title":"heard"}`)
	var created struct {
		Version int64 `json:"version"`
	}
	if err := jsonDecode(raw, &created); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf(`data: {"version":%d}`, created.Version)
	deadline := time.After(30 * time.Second)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("the stream ended before it carried %s", want)
			}
			if l == want {
				return
			}
		case <-deadline:
			t.Fatalf("the stream never carried %s", want)
		}
	}
}
