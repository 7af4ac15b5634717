package pages_test

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"testing"

	"github.com/opsboard/opsboard/board/internal/rules/pages"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

func TestBoardWritesOnlyWhatChanges(t *testing.T) {
	st, err := store.Open(store.Config{Path: filepath.Join(t.TempDir(), "board.json"), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx, b := context.Background(), pages.Board{Store: st}
	if _, err := st.Update(ctx, wire.ActorHuman, nil, func(tx *store.Tx) error {
		tx.Cases().Put(&wire.Case{ID: "CASE-1", Title: "Lease", VaultLinks: []string{"V-9"}})
		tx.Messages().Put(&wire.Message{ID: "M-1", From: "Ann <ann@acme.com>", Subject: "hi"})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	first, _ := b.Mint(ctx)
	second, _ := b.Mint(ctx)
	if first != "V-1" || second != "V-2" {
		t.Errorf("minted %s, %s", first, second)
	}
	v := st.Version()
	if err := b.Relink(ctx, "V-5", "V-1"); err != nil || st.Version() != v {
		t.Errorf("a relink of a page nothing names writes nothing: %v, version %d -> %d", err, v, st.Version())
	}
	if err := b.Resolve(ctx, "V-1", []string{"bob@acme.com"}, nil); err != nil || st.Version() != v {
		t.Errorf("a resolve that names no mail writes nothing: %v, version %d -> %d", err, v, st.Version())
	}
	if err := b.Resolve(ctx, "V-1", []string{"ann@acme.com"}, nil); err != nil {
		t.Fatal(err)
	}
	if err := b.Relink(ctx, "V-9", "V-1"); err != nil {
		t.Fatal(err)
	}
	d := b.Snapshot()
	if !slices.Equal(d.Messages.At(0).Entities, []string{"V-1"}) || !slices.Equal(d.Cases.At(0).VaultLinks, []string{"V-1"}) || d.Version != v+2 {
		t.Errorf("entities %v, links %v, version %d (want %d)", d.Messages.At(0).Entities, d.Cases.At(0).VaultLinks, d.Version, v+2)
	}
}
