package ingest

import (
	"context"
	"encoding/json"
	"errors"
	"sync"

	"github.com/opsboard/opsboard/shared/wire"
)

// create is one screened, routed message on its way to the board, with the
// place in its source its watermark marks.
type create struct {
	body      wire.MessageCreate
	to        node
	ref       string
	seq       int
	watermark string
	size      int // encoded bytes, for the batch's bound
}

// batchSlack leaves room in a batch's body for the wrapper around its
// messages.
const batchSlack = 4 << 10

// batch gathers creates until they fill one batch write: a first run of
// 100,000 mails then costs a thousand durable writes, not 100,000, and the
// board's lock is free between them for the page.
type batch struct {
	mu    sync.Mutex
	items []*create
	size  int
}

// add puts c in the batch and answers a full batch to write (nil while it
// fills). A message too big to share a batch goes alone.
func (b *batch) add(c *create) []*create {
	if data, err := json.Marshal(c.body); err == nil {
		c.size = len(data) + 1
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	var full []*create
	if len(b.items) > 0 && b.size+c.size > wire.MaxMessageBatchBytes-batchSlack {
		full, b.items, b.size = b.items, nil, 0
	}
	b.items = append(b.items, c)
	b.size += c.size
	if len(b.items) >= wire.MaxMessageBatch && full == nil {
		full, b.items, b.size = b.items, nil, 0
	}
	return full
}

// take empties the batch.
func (b *batch) take() []*create {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := b.items
	b.items, b.size = nil, 0
	return out
}

// flush writes items and marks each done, or each failed when the board
// cannot take mail now (their watermarks stay behind). The watermarks are
// saved after each batch, so a run killed halfway re-reads at most the
// batches in flight.
func (p *pipeline) flush(ctx context.Context, s SourceConfig, f *flight, items []*create) {
	held, err := p.writeBatch(ctx, s, items)
	for _, c := range items {
		if err == nil && held[c] {
			f.finish(c.seq, c.watermark, errHeld)
			continue
		}
		f.finish(c.seq, c.watermark, err)
	}
	if err == nil {
		if serr := f.save(); serr != nil {
			f.fail(serr)
		}
	}
}

// writeBatch creates items in one batch write. When the board refuses the
// batch (one bad mail refuses it whole), it writes them one at a time, so
// the bad one is reported and skipped and holds back no other; held names
// the ones the board refused, whose watermarks must stay behind.
func (p *pipeline) writeBatch(ctx context.Context, s SourceConfig, items []*create) (held map[*create]bool, err error) {
	in := make([]wire.MessageCreate, len(items))
	for i, c := range items {
		in[i] = c.body
	}
	reply, err := p.o.Board.AddMessages(ctx, in)
	if err == nil && len(reply.Results) == len(items) {
		p.mu.Lock()
		defer p.mu.Unlock()
		for i, res := range reply.Results {
			p.landed(items[i], res.Message, res.Existing)
		}
		return nil, nil
	}
	var refused *StatusError
	if err != nil && (!errors.As(err, &refused) || refused.Code >= 500 || ctx.Err() != nil) {
		return nil, err // the board cannot take mail now: stop, keep the watermarks
	}
	p.o.Logger.Warn("ingest.batch", "source", s.Name, "messages", len(items), "err", err)
	held = map[*create]bool{}
	for _, c := range items {
		switch err := p.write(ctx, s, c); {
		case errors.Is(err, errHeld):
			held[c] = true
		case err != nil:
			return nil, err
		}
	}
	return held, nil
}
