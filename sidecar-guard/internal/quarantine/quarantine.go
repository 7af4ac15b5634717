// Package quarantine holds the rules of quarantine records: the content id,
// what a re-scan does, the status transitions a person or the mail sweep
// may make, and when a released record expires. It knows nothing of HTTP or
// disk.
package quarantine

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/opsboard/opsboard/shared/wire"
)

// ID is the content key of a mail: the same sender, subject and body give
// the same id whatever thread, message or case they arrive with, so a
// re-scan finds the record instead of filing a second one.
func ID(from, subject, body string) string {
	h := sha256.New()
	for _, part := range []string{from, subject, body} {
		// The length prefix keeps ("ab","c") and ("a","bc") apart.
		fmt.Fprintf(h, "%d:%s", len(part), part)
	}
	return "Q-" + hex.EncodeToString(h.Sum(nil))[:16]
}

// File returns the record to store for a flagged scan: rec as new when cur
// is nil, else cur with its count bumped and the latest scores. A re-scan
// never changes the status a person chose.
func File(cur *wire.QuarantineRecord, rec wire.QuarantineRecord, now string) wire.QuarantineRecord {
	if cur == nil {
		rec.Status = wire.QuarantineHeld
		rec.Count = 1
		rec.CreatedAt = now
		rec.UpdatedAt = now
		return rec
	}
	next := *cur
	next.Count++
	next.UpdatedAt = now
	next.MaxScore = rec.MaxScore
	next.Classifier = rec.Classifier
	next.Segments = rec.Segments
	fill := func(dst *string, v string) {
		if *dst == "" {
			*dst = v
		}
	}
	fill(&next.ThreadID, rec.ThreadID)
	fill(&next.MessageID, rec.MessageID)
	fill(&next.CaseID, rec.CaseID)
	fill(&next.Source, rec.Source)
	fill(&next.SourceRef, rec.SourceRef)
	return next
}

// Change is the outcome of a patch.
type Change struct {
	Record   wire.QuarantineRecord
	Released bool // this patch released the record: upsert the sender as trusted
	Changed  bool
}

// Invalid is a patch the rules refuse; its message names the field.
type Invalid struct{ Msg string }

func (e *Invalid) Error() string { return e.Msg }

func invalid(format string, args ...any) error { return &Invalid{fmt.Sprintf(format, args...)} }

// Patch applies p to rec. A person releases or dismisses a held record (and
// may release one they dismissed); a released record stays released. The
// mail sweep marks a released record replayed. Dismissing changes nothing
// but the status.
func Patch(rec wire.QuarantineRecord, p wire.QuarantinePatch, now string) (Change, error) {
	if err := Validate(p); err != nil {
		return Change{}, err
	}
	out := Change{Record: rec}
	if p.Status != nil {
		to := *p.Status
		switch {
		case to == rec.Status:
		case rec.Status == wire.QuarantineReleased:
			return Change{}, invalid("field 'status': %s is already released and cannot be dismissed", rec.ID)
		case to == wire.QuarantineReleased:
			out.Record.Status = to
			out.Record.ReleasedAt = now
			out.Record.Replayed = false // enters the replay queue
			out.Released = true
		default:
			out.Record.Status = to
		}
	}
	if p.Replayed != nil {
		if out.Record.Status != wire.QuarantineReleased {
			return Change{}, invalid("field 'replayed' applies to a released record; %s is %s", rec.ID, out.Record.Status)
		}
		out.Record.Replayed = *p.Replayed
	}
	if p.Note != nil {
		out.Record.Note = *p.Note
	}
	out.Changed = !same(rec, out.Record)
	if out.Changed {
		out.Record.UpdatedAt = now
	}
	return out, nil
}

// Validate checks a patch on its own, before any record is looked up: it
// must set something, and a status must be released or dismissed.
func Validate(p wire.QuarantinePatch) error {
	if p.Status == nil && p.Note == nil && p.Replayed == nil {
		return invalid("the body must set 'status', 'note' or 'replayed'")
	}
	if p.Status != nil {
		switch *p.Status {
		case wire.QuarantineReleased, wire.QuarantineDismissed:
		default:
			return invalid("field 'status' must be released or dismissed, not %q", *p.Status)
		}
	}
	return nil
}

func same(a, b wire.QuarantineRecord) bool {
	return a.Status == b.Status && a.Replayed == b.Replayed && a.Note == b.Note && a.ReleasedAt == b.ReleasedAt
}

// Expired says whether a record is due for purging: released, not yet
// replayed, and released at least ttlDays ago. ttlDays 0 keeps everything.
func Expired(rec wire.QuarantineRecord, ttlDays int, now time.Time) bool {
	if ttlDays <= 0 || rec.Status != wire.QuarantineReleased || rec.Replayed || rec.ReleasedAt == "" {
		return false
	}
	at, err := time.Parse(time.RFC3339Nano, rec.ReleasedAt)
	if err != nil {
		return false // a hand-edited date keeps the record rather than losing it
	}
	return !now.Before(at.Add(time.Duration(ttlDays) * 24 * time.Hour))
}
