package main

import (
	"bufio"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/opsboard/opsboard/shared/wire"
)

var listening = regexp.MustCompile(`msg=search.listening url=(http://\S+)`)

// startBinary builds and runs the real sidecar with only the environment
// the test names, and returns its address once it logs that it listens.
func startBinary(t *testing.T, env ...string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "sidecar-search")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	data := t.TempDir()
	cmd := exec.Command(bin, "-addr", "127.0.0.1:0", "-data", filepath.Join(data, "board.json"))
	cmd.Env = append([]string{"HOME=" + data, "PATH=" + os.Getenv("PATH"), "XDG_DATA_HOME=" + data}, env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if m := listening.FindStringSubmatch(sc.Text()); m != nil {
			go func() {
				for sc.Scan() {
				}
			}()
			return m[1]
		}
	}
	t.Fatal("the sidecar exited without listening")
	return ""
}

// health polls /healthz until the index is warm and the download has
// left downloading, and returns the answer.
func health(t *testing.T, url string) (embedder string, d wire.ModelDownload) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		resp, err := http.Get(url + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		var h struct {
			OK       bool               `json:"ok"`
			Embedder string             `json:"embedder"`
			Download wire.ModelDownload `json:"download"`
		}
		json.NewDecoder(resp.Body).Decode(&h)
		resp.Body.Close()
		if h.OK && h.Download.State != wire.DownloadDownloading {
			return h.Embedder, h.Download
		}
	}
	t.Fatal("the sidecar did not settle")
	return "", wire.ModelDownload{}
}

func TestStartWithTheNetworkGoneServesTheHashEmbedder(t *testing.T) {
	url := startBinary(t, "SVC_MODEL_HUB=http://127.0.0.1:1")
	if e, d := health(t, url); e != "hash" || d.State != wire.DownloadOffline || d.File != "model.safetensors" || d.Error == "" {
		t.Errorf("network gone: embedder %s, download %+v", e, d)
	}
}

func TestHubOffNeverDownloads(t *testing.T) {
	url := startBinary(t, "SVC_MODEL_HUB=off")
	if e, d := health(t, url); e != "hash" || d.State != wire.DownloadIdle {
		t.Errorf("hub off: embedder %s, download %+v", e, d)
	}
}
