package store

import (
	"container/list"
	"sync"

	"github.com/opsboard/opsboard/shared/wire"
)

// bodyCacheBytes bounds the bodies kept in memory after a read from the
// body file. A person reads a few messages at a time, and a page of them
// is well under this; passes over every body (export, the backup, keyword
// search) read around the cache so they do not flush it.
const bodyCacheBytes = 8 << 20

// bodyCache keeps recently read bodies by hash, least recently used out
// first, within limit bytes. A hash names content, so an entry never goes
// stale, whatever the body file's rewrites do.
type bodyCache struct {
	mu    sync.Mutex
	limit int64
	size  int64
	order *list.List // of *cachedBody, most recently used first
	at    map[string]*list.Element
}

type cachedBody struct{ sha, body string }

func newBodyCache(limit int64) *bodyCache {
	return &bodyCache{limit: limit, order: list.New(), at: map[string]*list.Element{}}
}

func (c *bodyCache) get(sha string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.at[sha]
	if !ok {
		return "", false
	}
	c.order.MoveToFront(e)
	return e.Value.(*cachedBody).body, true
}

// put keeps body; one larger than a quarter of the cache is not kept, so a
// single huge mail cannot empty it.
func (c *bodyCache) put(sha, body string) {
	n := int64(len(body))
	if n > c.limit/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.at[sha]; ok {
		return
	}
	c.at[sha] = c.order.PushFront(&cachedBody{sha, body})
	c.size += n
	for c.size > c.limit {
		last := c.order.Back()
		cb := last.Value.(*cachedBody)
		c.order.Remove(last)
		delete(c.at, cb.sha)
		c.size -= int64(len(cb.body))
	}
}

// bodyOf is m's body: the one it holds, else the one the body file holds
// under its reference, through the cache when cached is set. A body that
// is missing or fails its checksum reads as empty.
func (b *bodyFile) bodyOf(m *wire.Message, cached bool) string {
	return b.bodyRead(m, cached, true)
}

// bodyRead is bodyOf with the checksum optional (see readBody).
func (b *bodyFile) bodyRead(m *wire.Message, cached, verify bool) string {
	if m.Body != "" || m.BodyRef == nil || b == nil {
		return m.Body
	}
	ref := *m.BodyRef
	if cached {
		if body, ok := b.cache.get(ref.SHA256); ok {
			return body
		}
	}
	body, ok := b.readBody(ref, verify)
	if !ok {
		b.unreadable(m.ID, ref)
		return ""
	}
	if cached {
		b.cache.put(ref.SHA256, body)
	}
	return body
}

// unreadable logs, once per body, a body that cannot be read now. One
// missing at start is already in the health report; this is one that
// went bad on disk since.
func (b *bodyFile) unreadable(id string, ref wire.BodyRef) {
	if _, seen := b.warned.LoadOrStore(ref.SHA256, true); !seen {
		b.log.Warn("store.body_unreadable", "message", id, "sha256", ref.SHA256)
	}
}

// withBody is m as an answer carries it: its body in place and no
// reference. m itself when it names no body, since then it is already so.
func (b *bodyFile) withBody(m *wire.Message, cached bool) *wire.Message {
	if m.BodyRef == nil {
		return m
	}
	c := *m
	c.Body, c.BodyRef = b.bodyOf(m, cached), nil
	return &c
}

// Body is m's body, read from the body file (through a small cache) when
// the message names it there instead of holding it. Messages loaded at
// start hold a reference only, so every reader of a body asks here. A
// body that is missing or fails its checksum reads as empty.
func (s *Store) Body(m *wire.Message) string { return s.bodies.bodyOf(m, true) }

// WithBody is m as an answer carries it: a copy with its body in place and
// no reference (m itself when it already is so). Never change the result.
func (s *Store) WithBody(m *wire.Message) *wire.Message {
	if m == nil {
		return nil
	}
	return s.bodies.withBody(m, true)
}

// WithBodies is WithBody of every message of list, in a new list (nil
// stays nil). A long list is read around the cache.
func (s *Store) WithBodies(list []*wire.Message) []*wire.Message {
	if list == nil {
		return nil
	}
	cached := len(list) <= bodyPassFrom
	out := make([]*wire.Message, len(list))
	for i, m := range list {
		out[i] = s.bodies.withBody(m, cached)
	}
	return out
}

// bodyPassFrom is the length from which a list of messages is a pass over
// many bodies, read around the cache so it keeps what a person reads.
const bodyPassFrom = 64

// BodyUncached is Body for passes over many messages (a search, an
// export): it reads around the cache, which it would only flush.
func (s *Store) BodyUncached(m *wire.Message) string { return s.bodies.bodyOf(m, false) }

// BodyForSearch is BodyUncached without the checksum, for a pass that only
// looks for words: every hash was checked at start, and what it reads is
// never an answer's body (the hits are answered through WithBodies).
func (s *Store) BodyForSearch(m *wire.Message) string { return s.bodies.bodyRead(m, false, false) }

// DocWithBodies is d with every message's body in place, for what writes
// one document with bodies (export, the backup). d itself when no message
// names its body elsewhere; otherwise a shallow copy with new messages.
func (s *Store) DocWithBodies(d *wire.Doc) *wire.Doc {
	lazy := false
	for _, m := range d.Messages.All() {
		if m.BodyRef != nil {
			lazy = true
			break
		}
	}
	if !lazy {
		return d
	}
	c := *d
	msgs := make([]*wire.Message, d.Messages.Len())
	for i, m := range d.Messages.All() {
		msgs[i] = s.bodies.withBody(m, false)
	}
	c.Messages = wire.ListOf(msgs...)
	return &c
}

// Body is m's body, as Store.Body, for a rule inside a write.
func (tx *Tx) Body(m *wire.Message) string { return tx.bodies.bodyOf(m, true) }

// WithBody is m with its body in place and no reference, as
// Store.WithBody, for a rule inside a write.
func (tx *Tx) WithBody(m *wire.Message) *wire.Message {
	if m == nil {
		return nil
	}
	return tx.bodies.withBody(m, true)
}

// FillBody puts m's body in place of its reference; m must be the write's
// own copy (from a getter). A rule that edits or compares a body does so
// first, so it sees the body, as it did when every body was in memory.
func (tx *Tx) FillBody(m *wire.Message) {
	if m.BodyRef != nil {
		m.Body, m.BodyRef = tx.bodies.bodyOf(m, true), nil
	}
}

// keyWithBody wraps a dedupe key so that it sees a message's body, which
// it hashes for a mail without a Message-ID. At start the body file is
// still in memory, so indexing reads no disk.
func (b *bodyFile) keyWithBody(key func(*wire.Message) string) func(*wire.Message) string {
	if key == nil {
		return nil
	}
	return func(m *wire.Message) string {
		if m.Body == "" && m.BodyRef != nil {
			c := *m
			c.Body, c.BodyRef = b.bodyOf(m, false), nil
			return key(&c)
		}
		return key(m)
	}
}
