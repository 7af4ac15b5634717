// Package messages holds the rules of linked emails: a message is created
// on a case or a reminder, and a patch marks it read, sets its link or moves
// it to another case or reminder.
package messages

import (
	"context"
	"encoding/json"
	"errors"
	netmail "net/mail"
	"strings"
	"time"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/mail/dedupe"
	"github.com/opsboard/opsboard/board/internal/rules/activity"
	"github.com/opsboard/opsboard/board/internal/rules/field"
	"github.com/opsboard/opsboard/board/internal/rules/humanedit"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// New builds a message record from an input, keeping url only when it
// is an absolute http or https URL.
func New(tx *store.Tx, in wire.MessageInput) (*wire.Message, error) {
	if t, err := netmail.ParseDate(in.ReceivedAt); err == nil {
		in.ReceivedAt = t.UTC().Format(time.RFC3339) // a mail header's RFC 2822 date
	}
	if err := field.CheckDate("receivedAt", in.ReceivedAt); err != nil {
		return nil, err
	}
	switch in.Scan {
	case "", wire.ScanClean, wire.ScanUnscanned, wire.ScanReleased:
	default:
		return nil, errs.BadRequest("field 'scan' must be clean, unscanned or released, not %q", in.Scan)
	}
	m := &wire.Message{
		ID: tx.NextID("M"), Source: in.Source, From: strings.TrimSpace(in.From), To: in.To, Cc: in.Cc,
		Subject: in.Subject, Preview: in.Preview, Body: in.Body, ReceivedAt: in.ReceivedAt,
		Read: in.Read, Outbound: in.Outbound, URL: field.SafeURL(in.URL),
		MessageID: dedupe.MessageID(in.MessageID), ThreadID: dedupe.MessageID(in.ThreadID), Scan: in.Scan,
		Entities: in.Entities, Truncated: in.Truncated, OriginalSizes: in.OriginalSizes,
	}
	if m.ReceivedAt == "" {
		m.ReceivedAt = tx.Stamp()
	}
	if m.Subject == "" && m.Preview == "" && m.Body == "" {
		return nil, errs.BadRequest("a message needs a subject, preview or body")
	}
	return m, nil
}

// Existing is the answer of a create that found the same mail already on
// the board (see package dedupe): that record, unchanged, and the version
// the board was at.
type Existing struct {
	Message *wire.Message
	Version int64
}

func (e *Existing) Error() string { return "message exists as " + e.Message.ID }

// newOrExisting builds the message for in, or fails with *Existing when the
// board already holds the same mail. It runs inside the write, so two
// copies of one mail arriving at once still make one record.
func newOrExisting(tx *store.Tx, in wire.MessageInput) (*wire.Message, error) {
	m, err := New(tx, in)
	if err != nil {
		return nil, err
	}
	// The stored message is answered whole, its body read if need be.
	if old, ok := tx.MessageByKey(dedupe.Key(m)); ok {
		return nil, &Existing{Message: tx.WithBody(old), Version: tx.Doc().Version}
	}
	if old, ok := undatedRepeat(tx, in, m); ok {
		return nil, &Existing{Message: tx.WithBody(old), Version: tx.Doc().Version}
	}
	return m, nil
}

// undatedRepeat finds, for an agent's mail without a Message-ID or a date
// (the board stamps it with the time of the write, so its key differs from
// the last copy's), a stored mail with the same sender, recipients and
// body. The sender is compared first, so the scan hashes few bodies.
func undatedRepeat(tx *store.Tx, in wire.MessageInput, m *wire.Message) (*wire.Message, bool) {
	if tx.Actor() != wire.ActorAgent || m.MessageID != "" || strings.TrimSpace(in.ReceivedAt) != "" {
		return nil, false
	}
	undated := func(x *wire.Message) string {
		cp := *x
		cp.ReceivedAt = ""
		cp.Body, cp.BodyRef = tx.Body(x), nil
		return dedupe.Key(&cp)
	}
	from, want := strings.ToLower(strings.TrimSpace(m.From)), undated(m)
	for _, old := range tx.Doc().Messages.All() {
		if old.MessageID == "" && strings.ToLower(strings.TrimSpace(old.From)) == from && undated(old) == want {
			return old, true
		}
	}
	return nil, false
}

// AsExisting reports whether err says the mail was already on the board.
func AsExisting(err error) (*Existing, bool) {
	var e *Existing
	ok := errors.As(err, &e)
	return e, ok
}

// AddToCase creates a message linked to a case. When the board already
// holds the same mail it writes nothing and fails with *Existing.
func AddToCase(ctx context.Context, s *store.Store, actor wire.Actor, caseID string, in wire.MessageInput) (*wire.Message, int64, error) {
	var out *wire.Message
	v, err := s.Update(ctx, actor, nil, func(tx *store.Tx) error {
		c, ok := tx.Cases().Get(caseID)
		if !ok {
			return errs.NotFound("case %s not found", caseID)
		}
		m, err := newOrExisting(tx, in)
		if err != nil {
			return err
		}
		m.CaseID = c.ID
		tx.Messages().Put(m)
		c.UpdatedAt = tx.Stamp()
		activity.Log(c, actor, wire.VerbMessageLinked, m.ID+" "+m.Subject, tx.Stamp())
		tx.Cases().Put(c)
		out = m
		return nil
	})
	return out, v, err
}

// Patch sets read, url and body, and relinks a message to a case or
// reminder (null or "" unlinks). A body edited here is the person's word
// like any other field; its new text becomes a new record of the body file
// at the next compaction.
func Patch(ctx context.Context, s *store.Store, actor wire.Actor, id string, p wire.MessagePatch) (*wire.Message, int64, error) {
	var out *wire.Message
	v, err := s.Update(ctx, actor, nil, func(tx *store.Tx) error {
		m, ok := tx.Messages().Get(id)
		if !ok {
			return errs.NotFound("message %s not found", id)
		}
		if p.Body.Set {
			tx.FillBody(m) // the person's-word rule compares the body itself
		}
		before := humanedit.Fields(m)
		if p.Read.Set {
			m.Read = p.Read.V && !p.Read.Null
		}
		if p.URL.Set {
			m.URL = ""
			if !p.URL.Null {
				m.URL = field.SafeURL(p.URL.V)
			}
		}
		if p.Body.Set {
			m.Body = p.Body.V // null clears it
		}
		if p.ReminderID.Set {
			rid := ""
			if !p.ReminderID.Null {
				rid = strings.TrimSpace(p.ReminderID.V)
			}
			if rid != "" {
				if _, ok := tx.Reminders().Get(rid); !ok {
					return errs.NotFound("Reminder %s not found", rid)
				}
			}
			m.ReminderID = rid
		}
		if p.CaseID.Set {
			cid := ""
			if !p.CaseID.Null {
				cid = strings.TrimSpace(p.CaseID.V)
			}
			if cid != m.CaseID {
				if cid != "" {
					c, ok := tx.Cases().Get(cid)
					if !ok {
						return errs.NotFound("case %s not found", cid)
					}
					activity.Log(c, actor, wire.VerbMessageLinked, m.ID+" "+m.Subject, tx.Stamp())
					c.UpdatedAt = tx.Stamp()
					tx.Cases().Put(c)
				}
				if old, ok := tx.Cases().Get(m.CaseID); ok {
					activity.Log(old, actor, wire.VerbMessageUnlinked, m.ID+" "+m.Subject, tx.Stamp())
					old.UpdatedAt = tx.Stamp()
					tx.Cases().Put(old)
				}
				m.CaseID = cid
			}
		}
		if err := protect(tx, m, before, p.Override); err != nil {
			return err
		}
		tx.Messages().Put(m)
		out = m
		return nil
	})
	return out, v, err
}

// AddToReminder creates a message linked to a reminder. It logs no
// activity: a reminder has no log, and the linked case is not involved.
// When the board already holds the same mail it fails with *Existing.
func AddToReminder(ctx context.Context, s *store.Store, actor wire.Actor, id string, in wire.MessageInput) (*wire.Reminder, *wire.Message, int64, error) {
	var (
		rem *wire.Reminder
		msg *wire.Message
	)
	v, err := s.Update(ctx, actor, nil, func(tx *store.Tx) error {
		r, ok := tx.Reminders().Get(id)
		if !ok {
			return errs.NotFound("reminder %s not found", id)
		}
		rem = r // the answer names the reminder for an existing mail too
		m, err := newOrExisting(tx, in)
		if err != nil {
			return err
		}
		m.ReminderID = r.ID
		tx.Messages().Put(m)
		msg = m
		return nil
	})
	return rem, msg, v, err
}

// protect applies the person's-word rule to a message patch: it refuses an
// agent's undoing of the person's change, or logs its override on the
// message's case, and stamps the person's own changes.
func protect(tx *store.Tx, m *wire.Message, before map[string]json.RawMessage, override bool) error {
	w := humanedit.For(tx, m.ID, m.HumanEdits, before, m)
	w.Override = override
	edits, over, err := w.Apply()
	if err != nil {
		return err
	}
	m.HumanEdits = edits
	if over != nil {
		activity.Override(tx, m.CaseID, m.ID, over.Overridden())
	}
	return nil
}
