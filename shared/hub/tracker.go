package hub

import (
	"sync"

	"github.com/opsboard/opsboard/shared/wire"
)

// Tracker holds a download's state for the sidecar's health answers. The
// zero value is idle; a nil *Tracker ignores every report.
type Tracker struct {
	mu sync.Mutex
	s  wire.ModelDownload
}

// Status is the download as it stands.
func (t *Tracker) Status() wire.ModelDownload {
	if t == nil {
		return wire.ModelDownload{State: wire.DownloadIdle}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.s
	if s.State == "" {
		s.State = wire.DownloadIdle
	}
	return s
}

// Done records that the files arrived and the model loaded.
func (t *Tracker) Done() {
	t.set(func(s *wire.ModelDownload) { s.State, s.Error = wire.DownloadDone, "" })
}

// Fail records err as the reason the download stopped: offline when the hub
// could not be reached, failed otherwise. It returns err.
func (t *Tracker) Fail(err error) error { return t.fail(err) }

func (t *Tracker) fail(err error) error {
	t.set(func(s *wire.ModelDownload) {
		s.State, s.Error = wire.DownloadFailed, err.Error()
		if Offline(err) {
			s.State = wire.DownloadOffline
		}
	})
	return err
}

// Start records that file is about to be fetched, so a health answer
// given before the first byte already says a download is under way.
func (t *Tracker) Start(file string) { t.start(file) }

func (t *Tracker) start(file string) {
	t.set(func(s *wire.ModelDownload) { *s = wire.ModelDownload{State: wire.DownloadDownloading, File: file} })
}

func (t *Tracker) progress(n int64) { t.set(func(s *wire.ModelDownload) { s.Bytes = n }) }

func (t *Tracker) add(n int64) { t.set(func(s *wire.ModelDownload) { s.Bytes += n }) }

func (t *Tracker) set(f func(*wire.ModelDownload)) {
	if t == nil {
		return
	}
	t.mu.Lock()
	f(&t.s)
	t.mu.Unlock()
}
