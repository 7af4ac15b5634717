package messages

import (
	"context"
	"errors"
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
		m, err := addTx(tx, actor, in)
		out = m
		return err
	})
	return out, v, err
}

// addTx is Add inside a write.
func addTx(tx *store.Tx, actor wire.Actor, in wire.MessageCreate) (*wire.Message, error) {
	caseID, remID := strings.TrimSpace(in.CaseID), strings.TrimSpace(in.ReminderID)
	var c *wire.Case
	if caseID != "" {
		var ok bool
		if c, ok = tx.Cases().Get(caseID); !ok {
			return nil, errs.NotFound("case %s not found", caseID)
		}
	}
	if remID != "" {
		if _, ok := tx.Reminders().Get(remID); !ok {
			return nil, errs.NotFound("Reminder %s not found", remID)
		}
	}
	m, err := newOrExisting(tx, in.MessageInput)
	if err != nil {
		return nil, err
	}
	m.CaseID, m.ReminderID = caseID, remID
	tx.Messages().Put(m)
	if c != nil {
		c.UpdatedAt = tx.Stamp()
		activity.Log(c, actor, wire.VerbMessageLinked, m.ID+" "+m.Subject, tx.Stamp())
		tx.Cases().Put(c)
	}
	return m, nil
}

// errNothingNew ends a batch's write whose every message the board already
// held, so that it leaves the version where it was.
var errNothingNew = errors.New("nothing new in the batch")

// AddBatch creates every message of a batch in one write, each exactly as
// Add would: a message the board already holds (or one sent twice in the
// batch) is answered with the record held and written once. One message
// that Add would refuse refuses the whole batch with a 400 naming its
// index, and nothing is written.
func AddBatch(ctx context.Context, s *store.Store, actor wire.Actor, in []wire.MessageCreate) ([]wire.MessageBatchItem, int64, error) {
	switch {
	case len(in) == 0:
		return nil, 0, errs.BadRequest("field 'messages' needs at least one message")
	case len(in) > wire.MaxMessageBatch:
		return nil, 0, errs.TooLarge("field 'messages' holds %d messages; at most %d are allowed in one batch", len(in), wire.MaxMessageBatch)
	}
	var out []wire.MessageBatchItem
	var held int64
	v, err := s.Update(ctx, actor, nil, func(tx *store.Tx) error {
		out = make([]wire.MessageBatchItem, len(in))
		created := 0
		for i, item := range in {
			m, err := addTx(tx, actor, item)
			if ex, ok := AsExisting(err); ok {
				out[i] = wire.MessageBatchItem{Existing: true, Message: *ex.Message}
				continue
			}
			if err != nil {
				return errs.BadRequest("messages[%d]: %v", i, err)
			}
			out[i] = wire.MessageBatchItem{Message: *m}
			created++
		}
		if created == 0 {
			held = tx.Doc().Version
			return errNothingNew
		}
		return nil
	})
	if errors.Is(err, errNothingNew) {
		return out, held, nil
	}
	if err != nil {
		return nil, 0, err
	}
	return out, v, nil
}
