package sendertrust_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opsboard/opsboard/shared/wire"
	"github.com/opsboard/opsboard/sidecar-guard/internal/sendertrust"
)

func TestKey(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		bad      bool
	}{
		{in: "Ann@Example.COM", want: "ann@example.com"},
		{in: "  ann@example.com ", want: "ann@example.com"},
		{in: "Ann Lee <Ann.Lee@Example.com>", want: "ann.lee@example.com"},
		{in: `"Lee, Ann" <ann@example.com>`, want: "ann@example.com"},
		{in: "", bad: true},
		{in: "ann", bad: true},
		{in: "@example.com", bad: true},
		{in: "ann@", bad: true},
		{in: "ann@b@c", bad: true},
		{in: "ann lee@example.com", bad: true},
	} {
		got, err := sendertrust.Key(tc.in)
		if tc.bad {
			if err == nil {
				t.Errorf("Key(%q) = %q, want an error", tc.in, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("Key(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestStorableTier(t *testing.T) {
	for tier, ok := range map[wire.Tier]bool{
		wire.TierTrusted: true, wire.TierBlocked: true, wire.TierUnknown: false, "": false, "TRUSTED": false, "friend": false,
	} {
		if err := sendertrust.StorableTier(tier); (err == nil) != ok {
			t.Errorf("StorableTier(%q) = %v, want ok=%v", tier, err, ok)
		}
	}
}

func TestUpsert(t *testing.T) {
	const then, now = "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z"
	trusted := &wire.TrustRecord{Email: "a@b.c", Tier: wire.TierTrusted, UpdatedAt: then, Note: "replied"}
	blocked := &wire.TrustRecord{Email: "a@b.c", Tier: wire.TierBlocked, UpdatedAt: then}
	for _, tc := range []struct {
		name        string
		cur         *wire.TrustRecord
		in          wire.TrustUpsert
		want        wire.TrustRecord
		wantChanged bool
	}{
		{"new sender", nil, wire.TrustUpsert{Tier: wire.TierTrusted, Note: "n"},
			wire.TrustRecord{Email: "a@b.c", Tier: wire.TierTrusted, UpdatedAt: now, Note: "n"}, true},
		{"new sender with ifAbsent", nil, wire.TrustUpsert{Tier: wire.TierTrusted, IfAbsent: true},
			wire.TrustRecord{Email: "a@b.c", Tier: wire.TierTrusted, UpdatedAt: now}, true},
		{"ifAbsent never lifts a block", blocked, wire.TrustUpsert{Tier: wire.TierTrusted, IfAbsent: true}, *blocked, false},
		{"ifAbsent never overwrites trusted", trusted, wire.TrustUpsert{Tier: wire.TierBlocked, IfAbsent: true}, *trusted, false},
		{"a person flips the tier and keeps the note", trusted, wire.TrustUpsert{Tier: wire.TierBlocked},
			wire.TrustRecord{Email: "a@b.c", Tier: wire.TierBlocked, UpdatedAt: now, Note: "replied"}, true},
		{"the same tier again changes nothing", trusted, wire.TrustUpsert{Tier: wire.TierTrusted}, *trusted, false},
		{"a new note is a change", trusted, wire.TrustUpsert{Tier: wire.TierTrusted, Note: "vendor"},
			wire.TrustRecord{Email: "a@b.c", Tier: wire.TierTrusted, UpdatedAt: now, Note: "vendor"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, changed := sendertrust.Upsert(tc.cur, "a@b.c", tc.in, now)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			if changed != tc.wantChanged {
				t.Errorf("changed = %v, want %v", changed, tc.wantChanged)
			}
		})
	}
}
