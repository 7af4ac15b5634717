package client

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sync"
	"time"
)

// CallKeyWindow is how long a tool call's creates keep their
// Idempotency-Key: a call retried within it (after a dropped connection,
// say) is one write, and the same call made on purpose later is a new one.
const CallKeyWindow = 10 * time.Minute

// call names the tool call a request is made for.
type call struct {
	tool, session string
	args          []byte // the arguments as canonical JSON
}

type callCtxKey struct{}

// WithCall returns ctx naming the tool call its requests are made for: the
// tool's name, its arguments as the model sent them and the MCP session.
// Every create this client sends with that context carries an
// Idempotency-Key derived from the three (and the request), so the board
// answers a retried call with its first answer instead of a second record.
// A context without a call sends no key.
func WithCall(ctx context.Context, tool, session string, args any) context.Context {
	raw, err := json.Marshal(args) // maps encode with sorted keys: canonical
	if err != nil {
		raw = []byte(fmt.Sprint(args))
	}
	return context.WithValue(ctx, callCtxKey{}, call{tool: tool, session: session, args: raw})
}

// callKeys remembers when each derived key was first sent, so a key lives
// CallKeyWindow from its first use, not from a clock boundary.
type callKeys struct {
	mu    sync.Mutex
	first map[string]time.Time
}

// key is the Idempotency-Key for a create of path with body under the call
// ctx names, or "" when ctx names none.
func (k *callKeys) key(ctx context.Context, now time.Time, path string, body []byte) string {
	c, ok := ctx.Value(callCtxKey{}).(call)
	if !ok {
		return ""
	}
	h := sha256.New()
	for _, part := range [][]byte{[]byte(c.session), []byte(c.tool), c.args, []byte(path), body} {
		fmt.Fprintf(h, "%d:", len(part)) // lengths keep the parts apart
		h.Write(part)
	}
	digest := hex.EncodeToString(h.Sum(nil)[:16])
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.first == nil {
		k.first = map[string]time.Time{}
	}
	first, seen := k.first[digest]
	if !seen || now.Sub(first) >= CallKeyWindow {
		first = now
		k.first[digest] = now
		for d, at := range k.first { // the map holds only the keys still alive
			if now.Sub(at) >= CallKeyWindow {
				delete(k.first, d)
			}
		}
	}
	return fmt.Sprintf("call-%s-%d", digest, first.UnixNano())
}
