package imapsource

import (
	"context"
	"errors"
	"fmt"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// ErrNoIdle says the server does not offer IDLE, so new mail is seen only
// by reading again on the interval.
var ErrNoIdle = errors.New("the IMAP server does not offer IDLE")

// WaitNew logs in, selects the mailbox and waits in IDLE until the server
// announces more messages than the mailbox held when selected; it returns
// nil then, ctx's error when ctx ends first, ErrNoIdle when the server has
// no IDLE, or the connection's error when it breaks. ready, when not nil,
// is called once IDLE runs: mail that came before then is the caller's to
// read (a read started after ready misses nothing). WaitNew fetches nothing.
func (s *Source) WaitNew(ctx context.Context, ready func()) error {
	grew := make(chan struct{}, 1)
	var base uint32 // set before IDLE starts; the handler only reads it after
	selected := make(chan struct{})
	copt := &imapclient.Options{UnilateralDataHandler: &imapclient.UnilateralDataHandler{
		Mailbox: func(d *imapclient.UnilateralDataMailbox) {
			select {
			case <-selected:
			default:
				return // the SELECT's own counts, not news
			}
			if d.NumMessages != nil && *d.NumMessages > base {
				select {
				case grew <- struct{}{}:
				default:
				}
			}
		},
	}}
	sess, err := s.openWith(ctx, copt)
	if err != nil {
		return err
	}
	defer sess.close()
	if !sess.c.Caps().Has(imap.CapIdle) {
		return ErrNoIdle
	}
	base = sess.sel.NumMessages
	close(selected)
	idle, err := sess.c.Idle()
	if err != nil {
		return fmt.Errorf("imap idle: %w", ctxErr(ctx, err))
	}
	ended := make(chan error, 1)
	go func() { ended <- idle.Wait() }()
	if ready != nil {
		ready()
	}
	select {
	case <-grew:
		if err := idle.Close(); err != nil {
			return fmt.Errorf("imap idle: %w", ctxErr(ctx, err))
		}
		return nil
	case err := <-ended:
		if err == nil {
			err = errors.New("the server ended IDLE")
		}
		return fmt.Errorf("imap idle: %w", ctxErr(ctx, err))
	case <-ctx.Done():
		// Close now: the deferred logout may stop the close the context
		// would make, and a logout sent while IDLE runs waits for it.
		sess.c.Close()
		return ctx.Err()
	}
}
