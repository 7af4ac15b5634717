package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/opsboard/opsboard/board/internal/testkit"
	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

// BenchmarkJournalBounded adds 1,500 notes to one case, one write each, with
// the compactor on its default schedule. Every entry holds the whole case,
// so the entries grow with the notes (about 170 MB in all): the journal
// must stay bounded by compaction on size, not grow until a timer fires.
func BenchmarkJournalBounded(b *testing.B) {
	const notes = 1500
	text := strings.Repeat("a note of typical length about the case ", 4)
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		path := filepath.Join(b.TempDir(), "board.json")
		s, err := Open(quietConfig(path))
		if err != nil {
			b.Fatal(err)
		}
		id, _ := create(b, s, "one busy case")
		b.StartTimer()
		var maxJournal int64
		for n := range notes {
			_, err := s.Update(context.Background(), wire.ActorHuman, nil, func(tx *Tx) error {
				c, _ := tx.Cases().Get(id)
				c.Notes = append(c.Notes, wire.Note{ID: fmt.Sprintf("N%d", n), Text: text, Actor: wire.ActorHuman, CreatedAt: tx.Stamp()})
				tx.Cases().Put(c)
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
			maxJournal = max(maxJournal, fileSize(storefile.JournalPath(path)))
		}
		b.StopTimer()
		doc := fileSize(path)
		s.Close()
		b.ReportMetric(float64(maxJournal)/1e6, "journal-max-MB")
		b.ReportMetric(float64(doc)/1e6, "doc-MB")
		b.StartTimer()
	}
}

// BenchmarkColdStartNothingToReplay opens a 1k-case board whose journal is
// 32 MB of entries the document already holds (a board killed right after
// a compaction that could not trim, for instance): a start reads their
// versions, not their bodies.
func BenchmarkColdStartNothingToReplay(b *testing.B) {
	d := testkit.BoardDoc(1000)
	var journal []byte
	for v := int64(1); len(journal) < 32<<20; v++ {
		var err error
		journal, err = storefile.AppendEntry(journal, &storefile.Entry{Version: v, Cases: []*wire.Case{d.Cases.At(int(v) % d.Cases.Len())}})
		if err != nil {
			b.Fatal(err)
		}
		d.Version = v
	}
	path, _ := writeFixture(b, d)
	doc, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	d = nil
	b.ResetTimer()
	var took time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		if err := os.WriteFile(path, doc, 0o600); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(storefile.JournalPath(path), journal, 0o600); err != nil {
			b.Fatal(err)
		}
		syscall.Sync() // the files' write-back is not the start's cost
		b.StartTimer()
		started := time.Now()
		s, err := Open(manualConfig(path))
		if err != nil {
			b.Fatal(err)
		}
		took = time.Since(started)
		b.StopTimer()
		crash(s)
		b.StartTimer()
	}
	b.ReportMetric(float64(len(journal))/1e6, "journal-MB")
	b.ReportMetric(took.Seconds(), "open-s")
}
