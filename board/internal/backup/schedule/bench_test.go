package schedule_test

import (
	"testing"

	"github.com/opsboard/opsboard/board/internal/backup/schedule"
	"github.com/opsboard/opsboard/board/internal/testkit"
)

// BenchmarkTopUpNotDue is what the top-up adds to every GET /api/cases
// once a check said the newest snapshot is fresh: a clock read and an
// atomic load.
func BenchmarkTopUpNotDue(b *testing.B) {
	s := liveSettings(b, nil)
	tr := schedule.New(schedule.Config{Settings: s, Source: source, Log: quiet})
	defer tr.Close()
	if ans, err := tr.Start(true); err != nil || !ans.Started {
		b.Fatal(ans, err)
	}
	testkit.Eventually(b, "the run ends", func() bool { st := tr.Status(); return st.LastRun != nil && !st.Running })
	tr.TopUp() // the check that finds the snapshot fresh
	testkit.Eventually(b, "the check ends", func() bool { return !tr.Status().Running })
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tr.TopUp()
	}
}

// BenchmarkStatus is GET /api/backups' work: the state, manifest and log
// files, the readiness checks (git on the PATH, the key's presence) and
// the identity check.
func BenchmarkStatus(b *testing.B) {
	s := liveSettings(b, nil)
	tr := schedule.New(schedule.Config{Settings: s, Source: source, Log: quiet})
	defer tr.Close()
	tr.Start(true)
	testkit.Eventually(b, "the run ends", func() bool { st := tr.Status(); return st.LastRun != nil && !st.Running })
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tr.Status()
	}
}
