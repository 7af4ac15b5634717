package store

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/opsboard/opsboard/shared/wire"
)

// addMail adds a message with a preview (when preview is set) and a body.
func addMail(t testing.TB, s *Store, preview, body string) string {
	t.Helper()
	var id string
	_, err := s.Update(context.Background(), wire.ActorHuman, nil, func(tx *Tx) error {
		id = tx.NextID("MSG")
		tx.Messages().Put(&wire.Message{ID: id, Subject: "s " + id, Preview: preview, Body: body})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TestBodiesThatArriveByWritesLeaveMemoryAtCompaction: a body that came in
// by a write travels inline in the journal; once a compaction has put it in
// the body file, the state keeps only its reference, and every reader still
// gets the body. A message without a preview keeps its body, which a summary
// shows in the preview's place.
func TestBodiesThatArriveByWritesLeaveMemoryAtCompaction(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board.json")
	cfg := manualConfig(path)
	s := mustOpen(t, cfg)
	want := map[string]string{}
	light := addMail(t, s, "Lease", "The lease ends in March.")
	want[light] = "The lease ends in March."
	bare := addMail(t, s, "", "No preview, so the body stays.")
	want[bare] = "No preview, so the body stays."
	if err := s.compact(); err != nil {
		t.Fatal(err)
	}
	later := addMail(t, s, "Later", "Came after the compaction.")
	want[later] = "Came after the compaction."

	check := func(when string, released map[string]bool) {
		t.Helper()
		for _, m := range s.Snapshot().Messages.All() {
			if got := s.Body(m); got != want[m.ID] {
				t.Errorf("%s: Body(%s) = %q, want %q", when, m.ID, got, want[m.ID])
			}
			if a := s.WithBody(m); a.Body != want[m.ID] || a.BodyRef != nil {
				t.Errorf("%s: WithBody(%s) = %q, %v", when, m.ID, a.Body, a.BodyRef)
			}
			if inMemory := m.Body != ""; inMemory == released[m.ID] {
				t.Errorf("%s: %s holds its body in memory: %v, want %v", when, m.ID, inMemory, !released[m.ID])
			}
		}
	}
	check("after the first compaction", map[string]bool{light: true})
	if err := s.compact(); err != nil {
		t.Fatal(err)
	}
	check("after the second compaction", map[string]bool{light: true, later: true})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = mustOpen(t, cfg)
	defer s.Close()
	check("after a restart", map[string]bool{light: true, later: true})
}

// BenchmarkHeapAfterIngest adds 20,000 mails of 4 KB in batches of 100, as
// a first ingest does, compacts, and reports the live heap after a
// collection: with the bodies let go of it is the messages' metadata.
func BenchmarkHeapAfterIngest(b *testing.B) {
	for b.Loop() {
		b.StopTimer()
		s := mustOpen(b, manualConfig(filepath.Join(b.TempDir(), "board.json")))
		b.StartTimer()
		body := strings.Repeat("The quarterly figures are in the usual place. ", 90) // about 4 KB
		for batch := range 200 {
			_, err := s.Update(context.Background(), wire.ActorSystem, nil, func(tx *Tx) error {
				for i := range 100 {
					id := tx.NextID("MSG")
					tx.Messages().Put(&wire.Message{ID: id, Subject: "Report", Preview: "The quarterly figures", Body: fmt.Sprintf("%d.%d %s", batch, i, body)})
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
		}
		if err := s.compact(); err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "heap-MB")
		s.Close()
	}
}
