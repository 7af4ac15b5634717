package backup

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// Callers that find the same stale lock at once must not both end up
// holding it: one reclaiming must never remove the lock another has just
// taken.
func TestStaleLockReclaimedByOneCaller(t *testing.T) {
	s := Settings{DataDir: t.TempDir()}
	for round := range 200 {
		if err := os.WriteFile(s.lockPath(), []byte("pid 1\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		old := time.Now().Add(-StaleAfter - time.Second)
		if err := os.Chtimes(s.lockPath(), old, old); err != nil {
			t.Fatal(err)
		}
		const callers = 6
		var (
			start    sync.WaitGroup
			done     sync.WaitGroup
			mu       sync.Mutex
			releases []func()
		)
		start.Add(1)
		for range callers {
			done.Add(1)
			go func() {
				defer done.Done()
				start.Wait()
				release, err := lock(s)
				if err != nil && !errors.Is(err, errLocked) {
					t.Error(err)
					return
				}
				if err == nil {
					mu.Lock()
					releases = append(releases, release)
					mu.Unlock()
				}
			}()
		}
		start.Done()
		done.Wait()
		for _, r := range releases {
			r()
		}
		if len(releases) != 1 {
			t.Fatalf("round %d: %d of %d callers hold the lock at once", round, len(releases), callers)
		}
		if _, err := os.Stat(filepath.Join(s.DataDir, LockName)); !os.IsNotExist(err) {
			t.Fatalf("round %d: the lock is left behind: %v", round, err)
		}
	}
}

// Restore and verify work in the local copy of the repository, as a run
// does: while a run holds the lock they refuse, rather than fetch and merge
// under the run's commit and make it fail.
func TestRestoreAndVerifyWaitForNoRun(t *testing.T) {
	f := newFixture(t, nil)
	f.mustRun()
	writeFile(t, f.s.lockPath(), "pid 1\n")
	if _, _, err := f.restore("", false); !errors.Is(err, errLocked) {
		t.Errorf("restore while a run holds the lock: %v", err)
	}
	if _, err := Verify(context.Background(), f.s, nil); !errors.Is(err, errLocked) {
		t.Errorf("verify while a run holds the lock: %v", err)
	}
	if err := os.Remove(f.s.lockPath()); err != nil {
		t.Fatal(err)
	}
	if _, out, err := f.restore("", false); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if _, err := os.Stat(f.s.lockPath()); !os.IsNotExist(err) {
		t.Errorf("restore left the lock behind: %v", err)
	}
}

// A run whose lock was reclaimed while it stood still (a laptop asleep
// mid-run) must not remove, on its way out, the lock the next run holds.
func TestReleaseLeavesAReclaimedLockAlone(t *testing.T) {
	s := Settings{DataDir: t.TempDir()}
	first, err := lock(s)
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-StaleAfter - time.Second)
	if err := os.Chtimes(s.lockPath(), old, old); err != nil {
		t.Fatal(err)
	}
	second, err := lock(s)
	if err != nil {
		t.Fatalf("a stale lock was not reclaimed: %v", err)
	}
	first()
	if !LockHeld(s) {
		t.Error("the first run's release removed the second run's lock")
	}
	second()
	if _, err := os.Stat(s.lockPath()); !os.IsNotExist(err) {
		t.Errorf("the lock is left behind: %v", err)
	}
}
