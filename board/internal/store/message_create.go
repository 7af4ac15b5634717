package store

import (
	"context"
	"strings"

	"github.com/opsboard/opsboard/shared/wire"
)

// AddMessage creates a message linked to the case and/or the reminder the
// input names (neither leaves it in the inbox only). A case link logs
// message_linked on the case, as a link through the case does.
func (s *Store) AddMessage(ctx context.Context, actor string, in wire.MessageCreate) (*wire.Message, int64, error) {
	var out *wire.Message
	v, err := s.Update(ctx, actor, nil, func(tx *Tx) error {
		caseID, remID := strings.TrimSpace(in.CaseID), strings.TrimSpace(in.ReminderID)
		var c *wire.Case
		if caseID != "" {
			var ok bool
			if c, ok = tx.Case(caseID); !ok {
				return NotFound("case %s not found", caseID)
			}
		}
		if remID != "" {
			if _, ok := tx.Reminder(remID); !ok {
				return NotFound("Reminder %s not found", remID)
			}
		}
		m, err := newMessage(tx, in.MessageInput)
		if err != nil {
			return err
		}
		m.CaseID, m.ReminderID = caseID, remID
		tx.PutMessage(m)
		if c != nil {
			c.UpdatedAt = tx.Now()
			logActivity(c, actor, "message_linked", m.ID+" "+m.Subject, tx.Now())
			tx.PutCase(c)
		}
		out = m
		return nil
	})
	return out, v, err
}
