package backup

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/opsboard/opsboard/shared/wire"
)

// StaleAfter is when a lock nobody refreshed is taken to be left behind by
// a run that died, and reclaimed.
const StaleAfter = wire.BackupLockStaleAfter

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
// is reclaimed and the create tried once more, so of two callers reclaiming
// at once only one wins. While held, a goroutine refreshes the
// file's time so a long run is never taken for a dead one.
func lock(s Settings) (release func(), err error) {
	p := s.lockPath()
	if err := os.MkdirAll(s.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("create %s: %w", s.DataDir, err)
	}
	// The content names this holder, so its release removes its own lock
	// only, never one a later run took after reclaiming it.
	rnd := s.Rand
	if rnd == nil {
		rnd = rand.Reader
	}
	var token [8]byte
	if _, err := io.ReadFull(rnd, token[:]); err != nil {
		return nil, fmt.Errorf("lock %s: %w", p, err)
	}
	mine := fmt.Sprintf("pid %d since %s token %x\n", os.Getpid(), s.now().Format(time.RFC3339), token)
	for attempt := 0; ; attempt++ {
		f, err := os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err == nil {
			_, err = f.WriteString(mine)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				os.Remove(p)
				return nil, fmt.Errorf("write lock %s: %w", p, err)
			}
			break
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("create lock %s: %w", p, err)
		}
		if attempt > 0 || LockHeld(s) {
			return nil, errLocked
		}
		if err := reclaim(s.DataDir, p); err != nil {
			return nil, err
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
		if data, err := os.ReadFile(p); err == nil && string(data) == mine {
			os.Remove(p)
		}
	}, nil
}

// reclaim removes the lock file at p if it is still stale. Callers that
// found it stale at once take turns (a flock on the lock's directory,
// which the kernel drops if the process dies), and each looks again
// before removing: one that looked before another reclaimed and created
// the lock anew would otherwise remove the new lock, and both would run.
func reclaim(dir, p string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("reclaim stale lock %s: %w", p, err)
	}
	defer d.Close()
	if err := syscall.Flock(int(d.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("reclaim stale lock %s: %w", p, err)
	}
	defer syscall.Flock(int(d.Fd()), syscall.LOCK_UN)
	fi, err := os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("lock %s: %w", p, err)
	}
	if time.Since(fi.ModTime()) < StaleAfter {
		return nil // taken anew meanwhile: the create that follows says so
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("reclaim stale lock %s: %w", p, err)
	}
	return nil
}
