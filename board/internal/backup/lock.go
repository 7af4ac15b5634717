package backup

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// StaleAfter is when a lock nobody refreshed is taken to be left behind by
// a run that died, and reclaimed.
const StaleAfter = 120 * time.Second

// errLocked is a lock held by another run.
var errLocked = errors.New("another backup run holds the lock")

func (s Settings) lockPath() string { return filepath.Join(s.DataDir, LockName) }

// LockHeld reports whether a run holds the lock now (a lock file younger
// than StaleAfter), so a caller can refuse before it starts one. Ages are
// measured on the wall clock, as the file system stamps them.
func LockHeld(s Settings) bool {
	fi, err := os.Stat(s.lockPath())
	return err == nil && time.Since(fi.ModTime()) < StaleAfter
}

// lock takes the job's lock by creating its file exclusively. A stale file
// is removed and the create tried once more, so of two callers reclaiming
// at once only one wins. While held, a goroutine refreshes the
// file's time so a long run is never taken for a dead one.
func lock(s Settings) (release func(), err error) {
	p := s.lockPath()
	if err := os.MkdirAll(s.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("create %s: %w", s.DataDir, err)
	}
	for attempt := 0; ; attempt++ {
		f, err := os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err == nil {
			fmt.Fprintf(f, "pid %d since %s\n", os.Getpid(), s.now().Format(time.RFC3339))
			f.Close()
			break
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("create lock %s: %w", p, err)
		}
		fi, serr := os.Stat(p)
		if serr != nil && !errors.Is(serr, fs.ErrNotExist) {
			return nil, fmt.Errorf("lock %s: %w", p, serr)
		}
		if attempt > 0 || (serr == nil && time.Since(fi.ModTime()) < StaleAfter) {
			return nil, errLocked
		}
		if serr == nil {
			if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("reclaim stale lock %s: %w", p, err)
			}
		}
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(StaleAfter / 4)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				now := time.Now()
				os.Chtimes(p, now, now)
			}
		}
	}()
	return func() {
		close(stop)
		<-done
		os.Remove(p)
	}, nil
}
