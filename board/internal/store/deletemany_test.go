package store

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"testing"

	"github.com/opsboard/opsboard/shared/wire"
)

// DeleteMany removes exactly the named records (the first of each id, as
// Delete does), a record removed may be put back in the same write, and the
// result survives a restart.
func TestDeleteManyRemovesTheNamedRecords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board.json")
	open := func() *Store {
		s, err := Open(Config{Path: path, Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	ids := func(d *wire.Doc) []string {
		var out []string
		for _, m := range d.Messages.All() {
			out = append(out, m.ID)
		}
		return out
	}
	s := open()
	ctx := context.Background()
	if _, err := s.Update(ctx, wire.ActorHuman, nil, func(tx *Tx) error {
		for i := 1; i <= 6; i++ {
			tx.Messages().Put(&wire.Message{ID: fmt.Sprintf("M-%d", i), Subject: "s"})
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Update(ctx, wire.ActorHuman, nil, func(tx *Tx) error {
		tx.Messages().Put(&wire.Message{ID: "M-7", Subject: "new in this write"})
		tx.Messages().DeleteMany([]string{"M-2", "M-nope", "M-5", "M-7"})
		if tx.Messages().Has("M-2") || tx.Messages().Has("M-7") || !tx.Messages().Has("M-3") {
			t.Errorf("inside the write: %v", ids(tx.Doc()))
		}
		tx.Messages().Put(&wire.Message{ID: "M-5", Subject: "put back"})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	want := []string{"M-1", "M-3", "M-4", "M-5", "M-6"}
	if got := ids(s.Snapshot()); !slices.Equal(got, want) {
		t.Errorf("served %v, want %v", got, want)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = open()
	defer s.Close()
	if got := ids(s.Snapshot()); !slices.Equal(got, want) {
		t.Errorf("after a restart %v, want %v", got, want)
	}
}
