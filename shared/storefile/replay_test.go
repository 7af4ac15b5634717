package storefile

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/shared/wire"
)

// TestCoalescedReplayEqualsPlainReplay replays random journals both entry by
// entry and through Replay, which coalesces runs of upsert-only entries.
func TestCoalescedReplayEqualsPlainReplay(t *testing.T) {
	for seed := uint64(0); seed < 50; seed++ {
		rng := rand.New(rand.NewPCG(seed, 3))
		base := func() *wire.Doc {
			d := New()
			d.Version = 10
			for i := 1; i <= 5; i++ {
				d.Cases = d.Cases.Append(&wire.Case{ID: fmt.Sprint("CASE-", i), Title: "base"})
			}
			return d
		}
		var entries []Entry
		for v := int64(8); v < 40; v++ { // some at or below the document's version
			e := Entry{Version: v}
			for k := rng.IntN(3); k > 0; k-- {
				e.Cases = append(e.Cases, &wire.Case{ID: fmt.Sprint("CASE-", 1+rng.IntN(12)), Title: fmt.Sprint("v", v)})
			}
			if rng.IntN(3) == 0 {
				e.Messages = append(e.Messages, &wire.Message{ID: fmt.Sprint("M-", 1+rng.IntN(6)), Subject: fmt.Sprint("v", v)})
			}
			if rng.IntN(5) == 0 {
				e.Deleted = map[Collection][]string{"cases": {fmt.Sprint("CASE-", 1+rng.IntN(12))}, "messages": {fmt.Sprint("M-", 1+rng.IntN(6))}}
			}
			if rng.IntN(4) == 0 {
				e.Counters = map[string]int64{"CASE": v}
			}
			if rng.IntN(6) == 0 {
				e.Prefs = json.RawMessage(fmt.Sprintf(`{"v":%d}`, v))
			}
			if rng.IntN(6) == 0 {
				e.LabelSources = &wire.LabelSources{Custom: []string{fmt.Sprint("l", v)}}
			}
			entries = append(entries, e)
			if rng.IntN(8) == 0 { // a stale entry out of order
				entries = append(entries, Entry{Version: v - 3, Cases: []*wire.Case{{ID: "CASE-1", Title: "stale"}}})
			}
		}
		plain, merged := base(), base()
		for i := range entries {
			Apply(plain, &entries[i])
		}
		plain.Counters = Counters(plain)
		Replay(merged, entries)
		if diff := cmp.Diff(plain, merged); diff != "" {
			t.Fatalf("seed %d (-plain +coalesced)\n%s", seed, diff)
		}
	}
}

// TestCoalesceKnowsEveryEntryField fails when the journal entry gains a field
// coalesce does not merge, which it would otherwise drop silently.
func TestCoalesceKnowsEveryEntryField(t *testing.T) {
	known := map[string]bool{
		"Version": true, "Cases": true, "Messages": true, "Events": true, "Reminders": true, "Priorities": true,
		"Labels": true, "Proposals": true, "Views": true, "Templates": true, "Deleted": true, "Counters": true,
		"LabelSources": true, "Prefs": true, "IngestRuns": true, "BoardActivity": true, "PageEdits": true, "IdempotencyKeys": true, "Actor": true, "At": true,
	}
	typ := reflect.TypeFor[Entry]()
	for i := range typ.NumField() {
		if name := typ.Field(i).Name; !known[name] {
			t.Errorf("Entry has a field %s that coalesce does not merge", name)
		}
	}
}
