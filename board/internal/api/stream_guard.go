package api

import (
	"fmt"
	"strconv"

	"github.com/r3labs/sse/v2"
)

// guardEvent publishes guard{seq} to every open stream: the guard's switch
// or lists changed through the board. seq is the guard's own counter, not
// the board's version; the event keeps the board's version as its id, so a
// reconnecting page still reports where the board stood.
func (l *liveStream) guardEvent(seq uint64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.started || l.closed {
		return // nobody listens
	}
	l.fanOut(&sse.Event{ID: strconv.AppendInt(nil, l.sent, 10), Event: []byte("guard"), Data: fmt.Appendf(nil, `{"seq":%d}`, seq)})
}

// backupEvent publishes backup{running} to every open stream: a backup run
// started or ended. Runs change no record, so the store's version does not
// tell the Backups view; this does.
func (l *liveStream) backupEvent(running bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.started || l.closed {
		return
	}
	l.fanOut(&sse.Event{ID: strconv.AppendInt(nil, l.sent, 10), Event: []byte("backup"), Data: fmt.Appendf(nil, `{"running":%t}`, running)})
}
