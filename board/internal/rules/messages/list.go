package messages

import (
	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/shared/wire"
)

// List is every message of d that passes f, in stored order: the unpaged
// answer older callers expect. It is never nil, so it answers as [].
func List(d *wire.Doc, f Filter) []*wire.Message {
	out := []*wire.Message{}
	for _, m := range d.Messages.All() {
		if f.Match(m) {
			out = append(out, m)
		}
	}
	return out
}

// Get is message id of d, body included.
func Get(d *wire.Doc, id string) (*wire.Message, error) {
	for _, m := range d.Messages.All() {
		if m.ID == id {
			return m, nil
		}
	}
	return nil, errs.NotFound("message %s not found", id)
}

// Unread is how many messages of d are not read yet.
func Unread(d *wire.Doc) int {
	n := 0
	for _, m := range d.Messages.All() {
		if !m.Read {
			n++
		}
	}
	return n
}
