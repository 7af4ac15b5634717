package store

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/testkit"
	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

// encodeCached runs the compaction encoder into memory.
func encodeCached(t testing.TB, e *docEncoder, d *wire.Doc) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := e.write(&buf, d); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func sameBytes(t testing.TB, want, got []byte) {
	t.Helper()
	if bytes.Equal(want, got) {
		return
	}
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	lo := max(i-60, 0)
	t.Fatalf("differ at byte %d:\nwant %q\ngot  %q", i, want[lo:min(i+60, len(want))], got[lo:min(i+60, len(got))])
}

// TestCompactionEncoderMatchesPlainEncoding checks the cached encoder writes
// exactly what a plain indented encoding of the document would, also after
// records change, appear and disappear between calls.
func TestCompactionEncoderMatchesPlainEncoding(t *testing.T) {
	d := testkit.BoardDoc(30)
	d.Cases.At(2).Summary = "quotes \" backslash \\ html <b>&</b> line\nbreak tab\t unicode é \u2028 {\"looks\": [\"like\", \"json\"]}, ]"
	d.Cases.At(3).Tasks = []wire.Task{}
	d.Cases.At(4).Position = new(float64)
	d.Events = wire.ListOf([]*wire.Event{{ID: "EVT-1", Title: "standup", Date: "2025-03-01", CreatedAt: "x", UpdatedAt: "y"}}...)
	d.Reminders = wire.ListOf([]*wire.Reminder{{ID: "REM-1", Title: "r", Status: "open", Tasks: []wire.ReminderTask{{ID: "REM-1-T1", Title: "t"}}}}...)
	d.Priorities = wire.List[*wire.Priority]{} // a collection an old file lacked encodes as null, like the plain encoder
	d.Prefs = json.RawMessage(`{"theme":"dark","cols":[1,2]}`)
	d.Views = wire.ListOf([]*wire.View{{ID: "VIEW-1", Name: "mine", Filters: json.RawMessage(`{"status":["todo"]}`)}}...)
	d.LabelSources = &wire.LabelSources{Bundles: map[string][]string{"b": {"x", "y"}}, Custom: []string{}}
	var e docEncoder
	for round := 0; round < 4; round++ {
		want, err := encodeDoc(d)
		if err != nil {
			t.Fatal(err)
		}
		sameBytes(t, want, encodeCached(t, &e, d))
		// Change the document the way writes do: new pointers for changed
		// records, new lists for changed collections.
		next := *d
		next.Version++
		c := cloneCase(d.Cases.At(round))
		c.Title = fmt.Sprintf("changed in round %d", round)
		next.Cases = d.Cases.Set(round, c).Delete(5)
		next.Messages = next.Messages.Append(&wire.Message{ID: fmt.Sprintf("M-%d", 1000+round), Subject: "new"})
		if round == 2 {
			next.Priorities = wire.ListOf([]*wire.Priority{}...)
		}
		d = &next
	}
	// Records gone from the document are gone from the cache.
	if n := len(e.cache); n > d.Cases.Len()+d.Messages.Len()+d.Events.Len()+d.Reminders.Len()+d.Labels.Len()+d.Priorities.Len()+8 {
		t.Errorf("cache holds %d records after the document shrank", n)
	}
}

func TestAppendIndentMatchesJSONIndent(t *testing.T) {
	for _, src := range []string{
		`{}`, `[]`, `{"a":[]}`, `{"a":{},"b":[{}]}`, `[1,2,[3,[]],{"k":"v"}]`,
		`{"s":"with \"quotes\" and \\ and [brackets] {braces}, commas: colons"}`,
		`{"u":"\u003chtml\u003e \u2028","e":"\\"}`, `"just a string"`, `12.5e3`, `null`,
		`{"nested":{"deeper":{"deepest":[true,false,null]}}}`,
	} {
		var want bytes.Buffer
		if err := json.Indent(&want, []byte(src), "", " "); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		sameBytes(t, want.Bytes(), appendIndent(nil, []byte(src), 0))
	}
}

func FuzzAppendIndent(f *testing.F) {
	for _, seed := range []string{`{"a":[1,{"b":"c\"]"}],"d":{}}`, `["\\",[]]`, `{"x":"\u00e9"}`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		var v any
		if json.Unmarshal([]byte(src), &v) != nil {
			return
		}
		compact, err := json.Marshal(v)
		if err != nil {
			return
		}
		var want bytes.Buffer
		if err := json.Indent(&want, compact, "", " "); err != nil {
			t.Fatal(err)
		}
		sameBytes(t, want.Bytes(), appendIndent(nil, compact, 0))
	})
}

// TestJournalReplaysToTheSameState drives random writes of every kind the
// draft supports (create, replace, delete, delete and put back, several
// collections in one write, rejected writes) and checks that what another
// process reads (document plus journal) equals what the board serves, with
// and without compactions in between.
func TestJournalReplaysToTheSameState(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) { replaysToTheSameState(t, seed) })
	}
}

func replaysToTheSameState(t *testing.T, seed uint64) {
	path := filepath.Join(t.TempDir(), "board.json")
	s := mustOpen(t, manualConfig(path))
	defer s.Close()
	rng := rand.New(rand.NewPCG(seed, 2))
	ids := func(list []*wire.Case) []string {
		out := []string{}
		for _, c := range list {
			out = append(out, c.ID)
		}
		return out
	}
	for step := 0; step < 400; step++ {
		_, err := s.Update(context.Background(), wire.ActorAgent, nil, func(tx *Tx) error {
			cases := ids(tx.Doc().Cases.Slice())
			pick := func() string { return cases[rng.IntN(len(cases))] }
			for op := 0; op < 1+rng.IntN(3); op++ {
				switch k := rng.IntN(10); {
				case k < 3 || len(cases) == 0:
					id := tx.NextID("CASE")
					tx.Cases().Put(&wire.Case{ID: id, Title: "new " + id, Status: "todo", Domain: "work", Kind: "case"})
					tx.Messages().Put(&wire.Message{ID: tx.NextID("M"), Subject: "for " + id, CaseID: id})
					cases = append(cases, id)
				case k < 6:
					c, _ := tx.Cases().Get(pick())
					c.Title = fmt.Sprintf("patched at %d", step)
					tx.Cases().Put(c)
				case k < 7:
					id := pick()
					tx.Cases().Delete(id)
					cases = ids(tx.Doc().Cases.Slice())
				case k < 8:
					// Removed and put back in one write: it must survive replay.
					id := pick()
					c, _ := tx.Cases().Get(id)
					tx.Cases().Delete(id)
					c.Title = "put back"
					tx.Cases().Put(c)
				case k < 9:
					tx.Events().Put(&wire.Event{ID: tx.NextID("EVT"), Title: "event", Date: "2025-01-01"})
				default:
					if tx.Doc().Messages.Len() > 0 {
						m := tx.Doc().Messages.At(rng.IntN(tx.Doc().Messages.Len()))
						tx.Messages().Delete(m.ID)
					}
				}
			}
			if rng.IntN(8) == 0 {
				return errs.BadRequest("rejected on purpose") // nothing of it may show
			}
			return nil
		})
		var bad *errs.BadRequestError
		if err != nil && !asBadRequest(err, &bad) {
			t.Fatal(err)
		}
		if rng.IntN(25) == 0 {
			compactNow(t, s)
		}
		if step%20 == 19 {
			d, err := storefile.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(s.Snapshot(), d); diff != "" {
				t.Fatalf("step %d: document plus journal differ from the served state (-served +read)\n%s", step, diff)
			}
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	want := s.Snapshot()
	s2 := mustOpen(t, manualConfig(path))
	defer s2.Close()
	if diff := cmp.Diff(want, s2.Snapshot()); diff != "" {
		t.Fatalf("after reopen (-before +after)\n%s", diff)
	}
}

func asBadRequest(err error, bad **errs.BadRequestError) bool {
	b, ok := err.(*errs.BadRequestError)
	*bad = b
	return ok
}

// TestIndexesFollowTheHead checks the id indexes the writes use agree with
// the head after every kind of write, including rejected ones.
func TestIndexesFollowTheHead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board.json")
	s := mustOpen(t, manualConfig(path))
	defer s.Close()
	check := func(when string) {
		t.Helper()
		s.writeMu.Lock()
		defer s.writeMu.Unlock()
		if diff := cmp.Diff(buildIndexes(s.head, s.cfg.MessageKey), s.idx, cmp.AllowUnexported(indexes{})); diff != "" {
			t.Fatalf("%s: indexes differ from the head (-want +got)\n%s", when, diff)
		}
	}
	for i := 0; i < 5; i++ {
		create(t, s, fmt.Sprint("case ", i))
	}
	check("after creates")
	rename(t, s, "CASE-2", "renamed")
	check("after a replace")
	s.Update(context.Background(), "", nil, func(tx *Tx) error {
		tx.Cases().Delete("CASE-1")
		tx.Cases().Put(&wire.Case{ID: tx.NextID("CASE"), Title: "after a delete"})
		return nil
	})
	check("after a delete")
	s.Update(context.Background(), "", nil, func(tx *Tx) error {
		tx.Cases().Put(&wire.Case{ID: tx.NextID("CASE"), Title: "rejected"})
		tx.Cases().Delete("CASE-3")
		return errs.BadRequest("no")
	})
	check("after a rejected write")
	if _, ok := s.Snapshot().Cases.At(0), true; !ok || s.Snapshot().Cases.Len() != 5 {
		t.Fatalf("cases %v", caseTitles(s.Snapshot()))
	}
}

// TestRecordChangedInPlaceStillReachesTheDocument guards the encoder cache
// against a write that changes a committed record in place instead of a copy.
func TestRecordChangedInPlaceStillReachesTheDocument(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board.json")
	s := mustOpen(t, manualConfig(path))
	defer s.Close()
	create(t, s, "one")
	compactNow(t, s) // the encoder now holds CASE-1's bytes
	if _, err := s.Update(context.Background(), "", nil, func(tx *Tx) error {
		c := tx.Doc().Cases.At(0) // the committed record itself, not a copy
		c.Title = "changed in place"
		tx.Cases().Put(c)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	compactNow(t, s)
	d, err := storefile.ReadDoc(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Cases.At(0).Title; got != "changed in place" {
		t.Errorf("document holds %q", got)
	}
}
