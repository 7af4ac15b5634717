package messages

import (
	"context"
	"strings"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/rules/activity"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// Add creates a message linked to the case and/or the reminder the input
// names (neither leaves it in the inbox only). A case link logs
// message_linked on the case, as a link through the case does. When the
// board already holds the same mail it writes nothing and fails with
// *Existing.
func Add(ctx context.Context, s *store.Store, actor wire.Actor, in wire.MessageCreate) (*wire.Message, int64, error) {
	var out *wire.Message
	v, err := s.Update(ctx, actor, nil, func(tx *store.Tx) error {
		caseID, remID := strings.TrimSpace(in.CaseID), strings.TrimSpace(in.ReminderID)
		var c *wire.Case
		if caseID != "" {
			var ok bool
			if c, ok = tx.Cases().Get(caseID); !ok {
				return errs.NotFound("case %s not found", caseID)
			}
		}
		if remID != "" {
			if _, ok := tx.Reminders().Get(remID); !ok {
				return errs.NotFound("Reminder %s not found", remID)
			}
		}
		m, err := newOrExisting(tx, in.MessageInput)
		if err != nil {
			return err
		}
		m.CaseID, m.ReminderID = caseID, remID
		tx.Messages().Put(m)
		if c != nil {
			c.UpdatedAt = tx.Stamp()
			activity.Log(c, actor, wire.VerbMessageLinked, m.ID+" "+m.Subject, tx.Stamp())
			tx.Cases().Put(c)
		}
		out = m
		return nil
	})
	return out, v, err
}
