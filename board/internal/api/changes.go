package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/httpjson"
	"github.com/opsboard/opsboard/shared/wire"
)

// GET /api/changes?since=<version>: what the writes after since changed,
// from the store's ring of recent writes, so a page patches what it holds
// instead of refetching whole lists.
func (a *API) changes(w http.ResponseWriter, r *http.Request) {
	raw := r.URL.Query().Get("since")
	since, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || since < 0 {
		a.fail(w, errs.BadRequest("query 'since' must be a board version (a whole number, 0 or more), not %q", raw))
		return
	}
	list, version, ok := a.store.ChangesSince(since)
	if !ok {
		httpjson.Reply(w, http.StatusOK, wire.Changes{Reset: true, Version: version})
		return
	}
	out, err := changesReply(list, version)
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusOK, out)
}

// changesReply folds the writes into one answer: each record once, as the
// last write left it, in the order of that last write.
func changesReply(list []*store.Change, version int64) (wire.Changes, error) {
	type last struct {
		rec   store.RecordChange
		by    wire.Actor
		order int
	}
	latest := map[wire.RecordRef]last{}
	n := 0
	for _, c := range list {
		for _, rc := range c.Records {
			if rc.Kind == wire.KindIdempotencyRecord {
				continue // the API's own bookkeeping, no surface shows it
			}
			latest[wire.RecordRef{Kind: rc.Kind, ID: rc.ID}] = last{rc, c.Actor, n}
			n++
		}
	}
	ordered := make([]last, n)
	used := make([]bool, n)
	for _, l := range latest {
		ordered[l.order], used[l.order] = l, true
	}
	out := wire.Changes{Changed: []wire.ChangedRecord{}, Removed: []wire.RecordRef{}, Version: version}
	for i, l := range ordered {
		if !used[i] {
			continue
		}
		rc := l.rec
		if rc.Removed() {
			out.Removed = append(out.Removed, wire.RecordRef{Kind: rc.Kind, ID: rc.ID})
			continue
		}
		body, err := json.Marshal(listForm(rc.After))
		if err != nil {
			return wire.Changes{}, fmt.Errorf("encode %s %s: %w", rc.Kind, rc.ID, err)
		}
		out.Changed = append(out.Changed, wire.ChangedRecord{Kind: rc.Kind, ID: rc.ID, Record: body, Actor: l.by})
	}
	return out, nil
}

// listForm is a record as the page's lists hold it: a case or a message as
// its summary, every other record whole.
func listForm(r any) any {
	switch v := r.(type) {
	case *wire.Case:
		return wire.SummaryOf(v)
	case *wire.Message:
		return wire.MessageSummaryOf(v)
	}
	return r
}
