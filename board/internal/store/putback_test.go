package store

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

func TestJournalEntriesNameTheActorAndTime(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board.json")
	at := time.Date(2026, 11, 26, 14, 0, 0, 0, time.UTC)
	s, err := Open(Config{Path: path, CompactIdle: time.Hour, CompactMaxDelay: time.Hour, Now: func() time.Time { return at }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Update(context.Background(), wire.ActorAgent, nil, func(tx *Tx) error {
		tx.Cases().Put(&wire.Case{ID: tx.NextID("CASE"), Title: "by the agent"})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	entries, _, err := storefile.ReadJournalFile(storefile.JournalPath(path))
	if err != nil {
		t.Fatal(err)
	}
	last := entries[len(entries)-1]
	if diff := cmp.Diff([2]string{string(wire.ActorAgent), "2026-11-26T14:00:00Z"}, [2]string{string(last.Actor), last.At}); diff != "" {
		t.Errorf("journal entry's actor and time (-want +got)\n%s", diff)
	}
}

// A write computed from the recent writes sees every write up to the state
// it starts from, and can put a removed record back with its id.
func TestRecentAndPutImage(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "board.json"))
	defer s.Close()
	id, _ := addCase(t, s, "kept")
	_, err := s.Update(context.Background(), wire.ActorHuman, nil, func(tx *Tx) error { tx.Cases().Delete(id); return nil })
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Update(context.Background(), wire.ActorHuman, nil, func(tx *Tx) error {
		recent, err := tx.Recent()
		if err != nil {
			return err
		}
		last := recent[len(recent)-1]
		if last.Version != tx.Doc().Version || len(last.Records) != 1 || !last.Records[0].Removed() {
			t.Fatalf("the newest recent write is %+v, want the removal at version %d", last, tx.Doc().Version)
		}
		return tx.PutImage(last.Records[0].Kind, last.Records[0].ID, last.Records[0].Before)
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{id + " kept"}, titles(s.Snapshot())); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if err := (&Tx{}).PutImage("nonsense", "X-1", nil); err == nil {
		t.Errorf("an unknown kind was put back")
	}
}

// A write that reads the recent writes while others are still on their way
// to the disk waits for them to land (the ring learns of a write once it is
// durable): it always sees every write up to the state it starts from, and
// never fails for being early.
func TestRecentWaitsForWritesInFlight(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "board.json"))
	defer s.Close()
	ctx := context.Background()
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 25 {
				if _, err := s.Update(ctx, wire.ActorHuman, nil, func(tx *Tx) error {
					tx.Cases().Put(&wire.Case{ID: tx.NextID("CASE"), Title: fmt.Sprintf("writer %d case %d", w, i)})
					return nil
				}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	for range 25 {
		if _, err := s.Update(ctx, wire.ActorHuman, nil, func(tx *Tx) error {
			recent, err := tx.Recent()
			if err != nil {
				return err
			}
			if n := len(recent); n > 0 && recent[n-1].Version != tx.Doc().Version {
				return fmt.Errorf("the newest recent write is %d, the draft starts from %d", recent[n-1].Version, tx.Doc().Version)
			}
			tx.Cases().Put(&wire.Case{ID: tx.NextID("CASE"), Title: "reader"})
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
}
