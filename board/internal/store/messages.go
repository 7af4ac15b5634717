package store

import (
	"context"
	"strings"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/shared/wire"
)

// newMessage builds a message record from an input, keeping url only when it
// is an absolute http or https URL.
func newMessage(tx *Tx, in wire.MessageInput) (*wire.Message, error) {
	if err := checkDate("receivedAt", in.ReceivedAt); err != nil {
		return nil, err
	}
	m := &wire.Message{
		ID: tx.NextID("M"), Source: in.Source, From: strings.TrimSpace(in.From), To: in.To, Cc: in.Cc,
		Subject: in.Subject, Preview: in.Preview, Body: in.Body, ReceivedAt: in.ReceivedAt,
		Read: in.Read, Outbound: in.Outbound, URL: safeURL(in.URL),
	}
	if m.ReceivedAt == "" {
		m.ReceivedAt = tx.Now()
	}
	if m.Subject == "" && m.Preview == "" && m.Body == "" {
		return nil, errs.BadRequest("a message needs a subject, preview or body")
	}
	return m, nil
}

// AddCaseMessage creates a message linked to a case.
func (s *Store) AddCaseMessage(ctx context.Context, actor, caseID string, in wire.MessageInput) (*wire.Message, int64, error) {
	var out *wire.Message
	v, err := s.Update(ctx, actor, nil, func(tx *Tx) error {
		c, ok := tx.Case(caseID)
		if !ok {
			return errs.NotFound("case %s not found", caseID)
		}
		m, err := newMessage(tx, in)
		if err != nil {
			return err
		}
		m.CaseID = c.ID
		tx.PutMessage(m)
		c.UpdatedAt = tx.Now()
		logActivity(c, actor, "message_linked", m.ID+" "+m.Subject, tx.Now())
		tx.PutCase(c)
		out = m
		return nil
	})
	return out, v, err
}

// PatchMessage sets read, url, and relinks a message to a case or reminder
// (null or "" unlinks).
func (s *Store) PatchMessage(ctx context.Context, actor, id string, p wire.MessagePatch) (*wire.Message, int64, error) {
	var out *wire.Message
	v, err := s.Update(ctx, actor, nil, func(tx *Tx) error {
		m, ok := tx.Message(id)
		if !ok {
			return errs.NotFound("message %s not found", id)
		}
		if p.Read.Set {
			m.Read = p.Read.V && !p.Read.Null
		}
		if p.URL.Set {
			m.URL = ""
			if !p.URL.Null {
				m.URL = safeURL(p.URL.V)
			}
		}
		if p.ReminderID.Set {
			rid := ""
			if !p.ReminderID.Null {
				rid = strings.TrimSpace(p.ReminderID.V)
			}
			if rid != "" {
				if _, ok := tx.Reminder(rid); !ok {
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
					c, ok := tx.Case(cid)
					if !ok {
						return errs.NotFound("case %s not found", cid)
					}
					logActivity(c, actor, "message_linked", m.ID+" "+m.Subject, tx.Now())
					c.UpdatedAt = tx.Now()
					tx.PutCase(c)
				}
				if old, ok := tx.Case(m.CaseID); ok {
					logActivity(old, actor, "message_unlinked", m.ID+" "+m.Subject, tx.Now())
					old.UpdatedAt = tx.Now()
					tx.PutCase(old)
				}
				m.CaseID = cid
			}
		}
		tx.PutMessage(m)
		out = m
		return nil
	})
	return out, v, err
}
