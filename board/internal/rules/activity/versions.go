package activity

import (
	"time"

	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// SetVersions sets each row's version: the write that made it, found by
// the row's time (every entry a write logs carries the write's one stamp)
// and actor among recent, the writes undo still reaches, up to version
// upTo. A row no recent write matches keeps its version.
func SetVersions(rows []wire.ActivityEntry, recent []*store.Change, upTo int64) {
	if len(recent) == 0 {
		return
	}
	at := make(map[string]int64, len(recent))
	for _, c := range recent {
		if c.Version <= upTo {
			at[c.At.UTC().Format(time.RFC3339Nano)] = c.Version
		}
	}
	for i := range rows {
		if v, ok := at[rows[i].TS]; ok && rows[i].Actor == actorAt(recent, v) {
			rows[i].Version = v
		}
	}
}

// actorAt is who made write v of recent, which holds consecutive versions.
func actorAt(recent []*store.Change, v int64) wire.Actor {
	if i := int(v - recent[0].Version); i >= 0 && i < len(recent) {
		return recent[i].Actor
	}
	return ""
}

// Summarize cuts each row's detail to the one line a summary shows.
func Summarize(rows []wire.ActivityEntry) {
	for i := range rows {
		rows[i].Detail = wire.Clip(rows[i].Detail, wire.SummaryDetailMax)
	}
}
