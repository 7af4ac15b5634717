package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/opsboard/opsboard/board/internal/demo"
)

// demoCommand is `board demo [-dir DIR] [-addr ADDR]`: the board on its own
// data directory, never the person's, filled through its own API with a
// realistic board the first time (a board that has cases is left as it
// is). It runs without the search and guard sidecars and without scheduled
// mail ingest, so nothing of the demo reaches the person's real services.
func demoCommand(log *slog.Logger, args []string, stdout io.Writer) int {
	fs := flag.NewFlagSet("board demo", flag.ContinueOnError)
	dir := fs.String("dir", ".demo", "the demo's data directory")
	addr := fs.String("addr", "127.0.0.1:3001", "the demo board's listen address")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "board demo:", err)
		return 1
	}
	data := filepath.Join(*dir, "board.json")
	errc := make(chan error, 1)
	go func() {
		errc <- run(log, []string{"-addr", *addr, "-data", data, "-search-url=", "-guard-url=", "-ingest-interval="})
	}()
	url := "http://" + *addr
	hc := &http.Client{Timeout: 10 * time.Second}
	if err := waitHealthy(hc, url, errc); err != nil {
		fmt.Fprintln(os.Stderr, "board demo:", err)
		return 1
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	res, err := demo.Seed(ctx, hc, url, time.Now())
	cancel()
	switch {
	case err != nil:
		fmt.Fprintln(os.Stderr, "board demo:", err)
	case res.Seeded:
		fmt.Fprintf(stdout, "Demo board seeded with %d cases in %s\n", res.Cases, data)
	default:
		fmt.Fprintf(stdout, "Demo board already has %d cases (%s): nothing seeded\n", res.Cases, data)
	}
	fmt.Fprintf(stdout, "Open %s (Ctrl-C stops it; delete %s to start over)\n", url, *dir)
	if err := <-errc; err != nil {
		fmt.Fprintln(os.Stderr, "board demo:", err)
		return 1
	}
	return 0
}

// waitHealthy waits until the board answers /api/health, or it stopped.
func waitHealthy(hc *http.Client, url string, errc <-chan error) error {
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-errc:
			if err == nil {
				err = errors.New("stopped before it answered")
			}
			return fmt.Errorf("the board did not start: %w", err)
		default:
		}
		if resp, err := hc.Get(url + "/api/health"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("the board at %s did not answer within 30s", url)
}
