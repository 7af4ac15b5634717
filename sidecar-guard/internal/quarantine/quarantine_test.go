package quarantine_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/opsboard/opsboard/shared/wire"
	"github.com/opsboard/opsboard/sidecar-guard/internal/quarantine"
)

func TestID(t *testing.T) {
	a := quarantine.ID("a@b.c", "hi", "body")
	if !strings.HasPrefix(a, "Q-") || len(a) != 18 {
		t.Fatalf("ID = %q, want Q- and 16 hex digits", a)
	}
	if a != quarantine.ID("a@b.c", "hi", "body") {
		t.Error("the same content gave two ids")
	}
	for _, other := range [][3]string{
		{"x@b.c", "hi", "body"}, {"a@b.c", "hi!", "body"}, {"a@b.c", "hi", "body."},
		{"a@b.c", "hib", "ody"}, // parts do not run together
	} {
		if quarantine.ID(other[0], other[1], other[2]) == a {
			t.Errorf("ID%v collides with the original", other)
		}
	}
}

func TestFile(t *testing.T) {
	const t1, t2 = "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z"
	in := wire.QuarantineRecord{ID: "Q-1", From: "a@b.c", MaxScore: 0.9, Classifier: "heuristic-fallback", ThreadID: "T1"}
	first := quarantine.File(nil, in, t1)
	want := in
	want.Status, want.Count, want.CreatedAt, want.UpdatedAt = wire.QuarantineHeld, 1, t1, t1
	if diff := cmp.Diff(want, first); diff != "" {
		t.Fatalf("new record (-want +got)\n%s", diff)
	}
	dismissed := first
	dismissed.Status = wire.QuarantineDismissed
	again := in
	again.MaxScore, again.ThreadID, again.MessageID = 0.95, "T2", "M2"
	got := quarantine.File(&dismissed, again, t2)
	want = dismissed
	want.Count, want.UpdatedAt, want.MaxScore, want.MessageID = 2, t2, 0.95, "M2" // the first thread stays
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("re-scan (-want +got)\n%s", diff)
	}
}

func ptr[T any](v T) *T { return &v }

func TestPatch(t *testing.T) {
	const then, now = "2026-01-01T00:00:00Z", "2026-01-05T00:00:00Z"
	held := wire.QuarantineRecord{ID: "Q-1", Status: wire.QuarantineHeld, UpdatedAt: then, Count: 3}
	with := func(r wire.QuarantineRecord, f func(*wire.QuarantineRecord)) wire.QuarantineRecord { f(&r); return r }
	released := with(held, func(r *wire.QuarantineRecord) {
		r.Status, r.ReleasedAt, r.UpdatedAt = wire.QuarantineReleased, now, now
	})
	dismissed := with(held, func(r *wire.QuarantineRecord) { r.Status, r.UpdatedAt = wire.QuarantineDismissed, now })
	for _, tc := range []struct {
		name    string
		rec     wire.QuarantineRecord
		p       wire.QuarantinePatch
		want    quarantine.Change
		wantErr string
	}{
		{name: "release", rec: held, p: wire.QuarantinePatch{Status: ptr(wire.QuarantineReleased)},
			want: quarantine.Change{Record: released, Released: true, Changed: true}},
		{name: "dismiss changes only the status", rec: held, p: wire.QuarantinePatch{Status: ptr(wire.QuarantineDismissed)},
			want: quarantine.Change{Record: dismissed, Changed: true}},
		{name: "a dismissed record can still be released", rec: dismissed, p: wire.QuarantinePatch{Status: ptr(wire.QuarantineReleased)},
			want: quarantine.Change{Record: with(released, func(r *wire.QuarantineRecord) {}), Released: true, Changed: true}},
		{name: "releasing twice is a no-op", rec: released, p: wire.QuarantinePatch{Status: ptr(wire.QuarantineReleased)},
			want: quarantine.Change{Record: released}},
		{name: "the sweep marks a release replayed", rec: released, p: wire.QuarantinePatch{Replayed: ptr(true)},
			want: quarantine.Change{Record: with(released, func(r *wire.QuarantineRecord) { r.Replayed = true }), Changed: true}},
		{name: "a note", rec: held, p: wire.QuarantinePatch{Note: ptr("looked at it")},
			want: quarantine.Change{Record: with(held, func(r *wire.QuarantineRecord) { r.Note, r.UpdatedAt = "looked at it", now }), Changed: true}},
		{name: "empty patch", rec: held, p: wire.QuarantinePatch{}, wantErr: "must set"},
		{name: "unknown status", rec: held, p: wire.QuarantinePatch{Status: ptr(wire.QuarantineStatus("deleted"))}, wantErr: "field 'status' must be released or dismissed"},
		{name: "back to quarantined", rec: released, p: wire.QuarantinePatch{Status: ptr(wire.QuarantineHeld)}, wantErr: "field 'status'"},
		{name: "a release cannot be dismissed", rec: released, p: wire.QuarantinePatch{Status: ptr(wire.QuarantineDismissed)}, wantErr: "already released"},
		{name: "replayed needs a release", rec: held, p: wire.QuarantinePatch{Replayed: ptr(true)}, wantErr: "field 'replayed'"},
		{name: "replayed needs a release, not a dismissal", rec: dismissed, p: wire.QuarantinePatch{Replayed: ptr(true)}, wantErr: "field 'replayed'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := quarantine.Patch(tc.rec, tc.p, now)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestExpired(t *testing.T) {
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	rel := wire.QuarantineRecord{Status: wire.QuarantineReleased, ReleasedAt: at.Format(time.RFC3339Nano)}
	day := 24 * time.Hour
	for _, tc := range []struct {
		name string
		rec  wire.QuarantineRecord
		ttl  int
		now  time.Time
		want bool
	}{
		{"before the retention ends", rel, 7, at.Add(7*day - time.Second), false},
		{"when the retention ends", rel, 7, at.Add(7 * day), true},
		{"0 keeps it forever", rel, 0, at.Add(1000 * day), false},
		{"a replayed release stays", func() wire.QuarantineRecord { r := rel; r.Replayed = true; return r }(), 7, at.Add(30 * day), false},
		{"a held record stays", wire.QuarantineRecord{Status: wire.QuarantineHeld}, 7, at.Add(30 * day), false},
		{"a dismissed record stays", wire.QuarantineRecord{Status: wire.QuarantineDismissed, ReleasedAt: rel.ReleasedAt}, 7, at.Add(30 * day), false},
		{"an unreadable date stays", wire.QuarantineRecord{Status: wire.QuarantineReleased, ReleasedAt: "yesterday"}, 7, at.Add(30 * day), false},
	} {
		if got := quarantine.Expired(tc.rec, tc.ttl, tc.now); got != tc.want {
			t.Errorf("%s: Expired = %v, want %v", tc.name, got, tc.want)
		}
	}
}
