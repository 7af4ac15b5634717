// Package httprun runs a sidecar's HTTP server until it fails or its context
// ends, then shuts it down: the part every daemon's main would otherwise
// write again.
package httprun

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// ShutdownGrace is how long requests in flight get to finish on shutdown.
const ShutdownGrace = 5 * time.Second

// Serve serves hs on ln and runs background (when not nil) beside it, until
// ctx ends or either fails; then it shuts hs down, giving requests in flight
// ShutdownGrace. name prefixes the log keys ("guard" logs guard.shutdown).
// A server closed by the shutdown is no error.
func Serve(ctx context.Context, log *slog.Logger, name string, hs *http.Server, ln net.Listener, background func(context.Context) error) error {
	errc := make(chan error, 2)
	go func() { errc <- hs.Serve(ln) }()
	if background != nil {
		go func() {
			if err := background(ctx); err != nil {
				errc <- err
			}
		}()
	}
	var runErr error
	select {
	case runErr = <-errc:
	case <-ctx.Done():
	}
	log.Info(name + ".shutdown")
	sctx, cancel := context.WithTimeout(context.Background(), ShutdownGrace)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Warn(name+".shutdown", "err", err)
	}
	if errors.Is(runErr, http.ErrServerClosed) {
		runErr = nil
	}
	return runErr
}
