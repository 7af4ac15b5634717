package store

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/testkit"
	"github.com/opsboard/opsboard/shared/wire"
)

// image names a ring record's before and after image by title ("" for none),
// so a table can say what each write should have kept.
type image struct {
	Kind, ID, Before, After string
}

func imagesOf(c *Change) []image {
	title := func(r any) string {
		switch v := r.(type) {
		case nil:
			return ""
		case *wire.Case:
			return v.Title
		case *wire.Message:
			return v.Subject
		case json.RawMessage:
			return string(v)
		}
		return "?"
	}
	var out []image
	for _, r := range c.Records {
		out = append(out, image{r.Kind, r.ID, title(r.Before), title(r.After)})
	}
	return out
}

func TestRingKeepsBeforeAndAfterImages(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "board.json"))
	defer s.Close()
	ctx := context.Background()
	put := func(id, title string) func(tx *Tx) error {
		return func(tx *Tx) error {
			tx.Cases().Put(&wire.Case{ID: id, Title: title, Status: "todo", Domain: "work", Kind: "case"})
			return nil
		}
	}
	for _, tc := range []struct {
		name  string
		write func(tx *Tx) error
		want  []image
	}{
		{"a create has no before-image", put("CASE-1", "first"), []image{{"case", "CASE-1", "", "first"}}},
		{"a change keeps the record it replaced", put("CASE-1", "renamed"), []image{{"case", "CASE-1", "first", "renamed"}}},
		{"one write over two collections lists both", func(tx *Tx) error {
			tx.Cases().Put(&wire.Case{ID: "CASE-2", Title: "second", Status: "todo", Domain: "work", Kind: "case"})
			tx.Messages().Put(&wire.Message{ID: "M-1", Subject: "hello", CaseID: "CASE-2"})
			return nil
		}, []image{{"case", "CASE-2", "", "second"}, {"message", "M-1", "", "hello"}}},
		{"a removal keeps the last image and no after", func(tx *Tx) error {
			tx.Cases().Delete("CASE-1")
			return nil
		}, []image{{"case", "CASE-1", "renamed", ""}}},
		{"a record made and removed in one write is not listed", func(tx *Tx) error {
			tx.Cases().Put(&wire.Case{ID: "CASE-9", Title: "brief", Kind: "case"})
			tx.Cases().Delete("CASE-9")
			tx.Messages().Put(&wire.Message{ID: "M-1", Subject: "hello again", CaseID: "CASE-2"})
			return nil
		}, []image{{"message", "M-1", "hello", "hello again"}}},
		{"prefs are one record", func(tx *Tx) error {
			tx.SetPrefs(json.RawMessage(`{"view":"strategy"}`))
			return nil
		}, []image{{"prefs", "prefs", "", `{"view":"strategy"}`}}},
		{"prefs again keep the earlier prefs", func(tx *Tx) error {
			tx.SetPrefs(json.RawMessage(`{"view":"operational"}`))
			return nil
		}, []image{{"prefs", "prefs", `{"view":"strategy"}`, `{"view":"operational"}`}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := s.Update(ctx, wire.ActorAgent, nil, tc.write)
			if err != nil {
				t.Fatal(err)
			}
			c, ok := changeAt(s, v)
			if !ok {
				t.Fatalf("the ring has no write %d", v)
			}
			if c.Version != v || c.Actor != wire.ActorAgent {
				t.Errorf("write %d by %s, want %d by agent", c.Version, c.Actor, v)
			}
			if diff := cmp.Diff(tc.want, imagesOf(c)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestRingAnswersSinceAVersion(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "board.json"))
	defer s.Close()
	_, v1 := addCase(t, s, "one")
	_, v2 := addCase(t, s, "two")
	_, v3 := addCase(t, s, "three")
	// A refused write reaches neither the board nor the ring.
	if _, err := s.Update(context.Background(), "", nil, func(tx *Tx) error { return errors.New("no") }); err == nil {
		t.Fatal("the refused write went through")
	}
	for _, tc := range []struct {
		name  string
		since int64
		want  []int64
		ok    bool
	}{
		{"from the start", 0, []int64{v1, v2, v3}, true},
		{"from the middle", v1, []int64{v2, v3}, true},
		{"up to date", v3, nil, true},
		{"ahead of the board", v3 + 1, nil, false},
		{"below zero", -1, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, version, ok := s.ChangesSince(tc.since)
			if ok != tc.ok || version != v3 {
				t.Fatalf("ok %v at %d, want %v at %d", ok, version, tc.ok, v3)
			}
			var vs []int64
			for _, c := range got {
				vs = append(vs, c.Version)
			}
			if diff := cmp.Diff(tc.want, vs); diff != "" {
				t.Errorf("versions (-want +got)\n%s", diff)
			}
		})
	}
}

func TestRingIsBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board.json")
	s, err := Open(Config{Path: path, CompactIdle: 20 * time.Millisecond, RingSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	var vs []int64
	for _, title := range []string{"a", "b", "c", "d", "e", "f"} {
		_, v := addCase(t, s, title)
		vs = append(vs, v)
	}
	got, _, ok := s.ChangesSince(vs[1])
	if !ok || len(got) != 4 || got[0].Version != vs[2] {
		t.Errorf("since %d: ok %v, %d writes: want the last four", vs[1], ok, len(got))
	}
	if _, _, ok := s.ChangesSince(vs[0]); ok {
		t.Errorf("since %d answered: that write's successor is no longer held", vs[0])
	}
	if _, ok := changeAt(s, vs[1]); ok {
		t.Errorf("write %d still held in a ring of four", vs[1])
	}
	if c, ok := changeAt(s, vs[5]); !ok || imagesOf(c)[0].After != "f" {
		t.Errorf("newest write: %v %+v", ok, c)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	// A reopened board remembers no write: only the current version answers.
	s = open(t, path)
	defer s.Close()
	if _, _, ok := s.ChangesSince(vs[4]); ok {
		t.Error("after a restart the ring answered for an older version")
	}
	got, v, ok := s.ChangesSince(vs[5])
	if !ok || len(got) != 0 || v != vs[5] {
		t.Errorf("after a restart, since the current version: ok %v, %d writes, version %d", ok, len(got), v)
	}
}

func TestRingStartsOverOnAHandEdit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board.json")
	s := mustOpen(t, manualConfig(path))
	defer s.Close()
	create(t, s, "one")
	compactNow(t, s)
	before := s.Version()
	editDocument(t, path, func(d *wire.Doc) { d.Cases.At(0).Title = "one, edited by hand" })
	testkit.Eventually(t, "the hand edit to show", func() bool { return s.Snapshot().Cases.At(0).Title == "one, edited by hand" })

	// The edit came from no write the ring saw: a client from before it
	// must reload, one at the edit's version is current.
	if _, _, ok := s.ChangesSince(before); ok {
		t.Errorf("since %d answered across a hand edit", before)
	}
	edited := s.Version()
	if got, _, ok := s.ChangesSince(edited); !ok || len(got) != 0 {
		t.Errorf("since the edit's version %d: ok %v, %d writes", edited, ok, len(got))
	}
	create(t, s, "two")
	if got, _, ok := s.ChangesSince(edited); !ok || len(got) != 1 {
		t.Errorf("a write after the edit: ok %v, %d writes, want it alone", ok, len(got))
	}
}

// changeAt returns the write that made version v, while the ring holds it.
func changeAt(s *Store, v int64) (*Change, bool) {
	r := s.ring
	r.mu.Lock()
	defer r.mu.Unlock()
	if v <= r.floor || v > r.version {
		return nil, false
	}
	return r.entries[(r.start+int(v-r.floor-1))%r.size], true
}
