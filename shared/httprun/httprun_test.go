package httprun

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"testing"
	"time"
)

func listen(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// TestServeStopsCleanlyWhenTheContextEnds: the server answers while it runs,
// and a context that ends is a clean stop (no error), with the port closed.
func TestServeStopsCleanlyWhenTheContextEnds(t *testing.T) {
	ln := listen(t)
	hs := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") })}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, quiet, "test", hs, ln, nil) }()
	resp, err := http.Get("http://" + ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "ok" {
		t.Fatalf("answer %q", body)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("a stop by context returned %v", err)
	}
	if _, err := http.Get("http://" + ln.Addr().String()); err == nil {
		t.Error("the server still answers after the stop")
	}
}

// TestServeReturnsTheBackgroundFailure: a failing background task stops the
// server and is what Serve returns.
func TestServeReturnsTheBackgroundFailure(t *testing.T) {
	boom := errors.New("index failed")
	hs := &http.Server{Handler: http.NotFoundHandler()}
	errc := make(chan error, 1)
	go func() {
		errc <- Serve(context.Background(), quiet, "test", hs, listen(t), func(context.Context) error { return boom })
	}()
	select {
	case err := <-errc:
		if !errors.Is(err, boom) {
			t.Fatalf("Serve returned %v, want %v", err, boom)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Serve did not return after its background task failed")
	}
}
