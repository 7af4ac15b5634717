package ingest_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/opsboard/opsboard/board/internal/testkit"
)

// fullHostileMailbox writes the hostile mailbox at full size into dir, one
// mail a file, without holding more than one big part in memory.
func fullHostileMailbox(b *testing.B, dir string) []string {
	b.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		b.Fatal(err)
	}
	write := func(name string, parts ...func(io.Writer)) {
		f, err := os.Create(filepath.Join(dir, name+".eml"))
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		for _, p := range parts {
			p(f)
		}
	}
	text := func(s string) func(io.Writer) { return func(w io.Writer) { io.WriteString(w, s) } }
	repeat := func(n int, f func(w io.Writer, i int)) func(io.Writer) {
		return func(w io.Writer) {
			for i := range n {
				f(w, i)
			}
		}
	}
	line := "a long line of body text that goes on and on\r\n"
	write("body", text(hostileHeader("body")+"\r\n"), repeat(40<<20/len(line), func(w io.Writer, _ int) { io.WriteString(w, line) }))
	write("headers", repeat(100000, func(w io.Writer, i int) { fmt.Fprintf(w, "X-Junk-%d: %d\r\n", i, i) }), text(hostileHeader("headers")+"\r\nsome text"))
	write("deep", text(hostileHeader("deep", "MIME-Version: 1.0")),
		repeat(5000, func(w io.Writer, i int) {
			fmt.Fprintf(w, "Content-Type: multipart/mixed; boundary=\"d%d\"\r\n\r\n--d%d\r\n", i, i)
		}), text("Content-Type: text/plain\r\n\r\nlost"),
		repeat(5000, func(w io.Writer, i int) { fmt.Fprintf(w, "\r\n--d%d--\r\n", 4999-i) }))
	write("parts", text(hostileHeader("parts", "MIME-Version: 1.0", `Content-Type: multipart/mixed; boundary="p"`)+"\r\n"),
		repeat(200000, func(w io.Writer, i int) {
			fmt.Fprintf(w, "--p\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename=\"f%d\"\r\n\r\nxx\r\n", i)
		}), text("--p--\r\n"))
	write("subject", text(strings.Replace(hostileHeader("subject"), "Subject: subject", "Subject: "+strings.Repeat("s", 1<<20), 1)+"\r\ntext"))
	write("html", text(hostileHeader("html", "Content-Type: text/html")+"\r\n"),
		repeat(200000, func(w io.Writer, _ int) { io.WriteString(w, "<div>") }), text("deep words"),
		repeat(200000, func(w io.Writer, _ int) { io.WriteString(w, "</div>") }))
	write("recipients", text(strings.Replace(hostileHeader("recipients"), "To: me@home.org", "To: ", 1)),
		repeat(20000, func(w io.Writer, i int) { fmt.Fprintf(w, "r%d@example.com,\r\n ", i) }), text("me@home.org\r\n\r\ntext"))
	write("base64", text(hostileHeader("base64", "MIME-Version: 1.0", `Content-Type: multipart/mixed; boundary="x"`)+
		"\r\n--x\r\nContent-Type: text/plain\r\n\r\nsee attached\r\n--x\r\nContent-Type: application/octet-stream\r\n"+
		"Content-Disposition: attachment; filename=\"big.bin\"\r\nContent-Transfer-Encoding: base64\r\n\r\n"),
		repeat(30<<20/57, func(w io.Writer, i int) {
			io.WriteString(w, base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{byte(i)}, 57))+"\r\n")
		}), text("--x--\r\n"))
	return []string{"body", "headers", "deep", "parts", "subject", "html", "recipients", "base64"}
}

// BenchmarkHostileMailbox ingests the full hostile mailbox with a real
// board and a real `board ingest` process: its time and the ingest
// process's peak memory (max RSS). Every mail must be on the board with
// its note afterwards.
func BenchmarkHostileMailbox(b *testing.B) {
	dir := b.TempDir()
	ids := fullHostileMailbox(b, filepath.Join(dir, "hostile"))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		data := filepath.Join(b.TempDir(), "board.json")
		addr := testkit.FreeAddr(b)
		env := append(os.Environ(), "SVC_BOARD_ADDR="+addr, "SVC_BOARD_DATA="+data, "SVC_GUARD_URL=", "SVC_INGEST_INTERVAL=")
		conf, _ := json.Marshal(map[string]any{"sources": []map[string]any{{"name": "hostile", "kind": "eml", "path": filepath.Join(dir, "hostile")}}})
		if err := os.WriteFile(filepath.Join(filepath.Dir(data), "ingest.json"), conf, 0o600); err != nil {
			b.Fatal(err)
		}
		board := exec.Command(boardBin)
		board.Env = env
		if err := board.Start(); err != nil {
			b.Fatal(err)
		}
		testkit.Eventually(b, "the board answers", func() bool {
			resp, err := http.Get("http://" + addr + "/api/health")
			if err == nil {
				resp.Body.Close()
			}
			return err == nil
		})
		run := exec.Command(boardBin, "ingest", "--json")
		run.Env = env
		var out bytes.Buffer
		run.Stdout = &out
		b.StartTimer()
		start := time.Now()
		err := run.Run()
		elapsed := time.Since(start)
		b.StopTimer()
		if err != nil {
			b.Fatalf("board ingest: %v\n%s", err, out.String())
		}
		rss := run.ProcessState.SysUsage().(*syscall.Rusage).Maxrss // KiB on Linux
		b.ReportMetric(float64(rss)/1024, "peak-MB")
		b.ReportMetric(elapsed.Seconds(), "run-s")
		checkHostileBoard(b, addr, ids)
		board.Process.Signal(syscall.SIGTERM)
		board.Wait()
		b.StartTimer()
	}
}

func checkHostileBoard(b *testing.B, addr string, ids []string) {
	b.Helper()
	resp, err := http.Get("http://" + addr + "/api/messages?limit=200")
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	noted := map[string]bool{}
	for _, m := range gjson.GetBytes(raw, "messages").Array() {
		if len(m.Get("truncated").Array()) > 0 {
			noted[strings.TrimSuffix(m.Get("messageId").String(), "@hostile.example")] = true
		}
	}
	for _, id := range ids {
		if !noted[id] {
			b.Errorf("%s is not on the board with a note", id)
		}
	}
}
