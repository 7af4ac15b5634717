package store

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestHighWaterFileKeepsItsSizeAndReadsBack(t *testing.T) {
	for _, hw := range []HighWater{
		{},
		{Acked: 41, Version: 42, Counters: map[string]int64{"CASE": 7, "M": 100_000}, Ceiling: 4138, CeilingCounters: map[string]int64{"CASE": 263}},
	} {
		data, err := encodeHighWater(hw)
		if err != nil {
			t.Fatal(err)
		}
		// Rewritten in place with every batch: its length never changes.
		if len(data) != highWaterSize {
			t.Fatalf("%d bytes, want %d", len(data), highWaterSize)
		}
		got, err := decodeHighWater(data)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(hw, got); diff != "" {
			t.Errorf("read back (-wrote +read)\n%s", diff)
		}
	}
}

func TestHighWaterDamageIsFound(t *testing.T) {
	data, err := encodeHighWater(HighWater{Version: 42, Ceiling: 4138})
	if err != nil {
		t.Fatal(err)
	}
	data[12] ^= 1
	if _, err := decodeHighWater(data); err == nil {
		t.Fatal("a flipped bit read as a good mark")
	}
}
