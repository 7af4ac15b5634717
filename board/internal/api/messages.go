package api

import (
	"net/http"

	"github.com/gorilla/mux"
	"github.com/opsboard/opsboard/board/internal/rules/correspondents"
	"github.com/opsboard/opsboard/board/internal/rules/messages"
	"github.com/opsboard/opsboard/shared/httpjson"
	"github.com/opsboard/opsboard/shared/wire"
)

// GET /api/messages?caseId=&reminderId=&onReminder=&unread=&unlinked=&limit=&cursor=&view=summary
// With limit or cursor the answer is one page of the inbox, newest first,
// with nextCursor; without either it is every matching message in store
// order, as older callers expect. view=summary answers each message as its
// summary (no body).
func (a *API) listMessages(w http.ResponseWriter, r *http.Request) {
	d := a.store.Snapshot()
	a.serveCached(w, r, d, func() (any, error) {
		q := r.URL.Query()
		summary, err := viewQuery(r)
		if err != nil {
			return nil, err
		}
		f := messages.Filter{Unread: boolQuery(r, "unread"), Unlinked: boolQuery(r, "unlinked"), OnReminder: boolQuery(r, "onReminder")}
		if _, ok := q["caseId"]; ok {
			f.CaseID = new(string)
			*f.CaseID = q.Get("caseId")
		}
		if _, ok := q["reminderId"]; ok {
			f.ReminderID = new(string)
			*f.ReminderID = q.Get("reminderId")
		}
		_, paged := q["limit"]
		if _, ok := q["cursor"]; ok || paged {
			limit, err := intQuery(r, "limit", messages.DefaultLimit)
			if err != nil {
				return nil, err
			}
			page, next, err := messages.Page(d.Messages.Slice(), f, q.Get("cursor"), limit)
			if err != nil {
				return nil, err
			}
			if summary {
				return wire.MessageSummaryList{Messages: messageSummaries(page), NextCursor: &next, Version: d.Version}, nil
			}
			return wire.MessageList{Messages: values(a.store.WithBodies(page)), NextCursor: &next, Version: d.Version}, nil
		}
		out := messages.List(d, f)
		if summary {
			return wire.MessageSummaryList{Messages: messageSummaries(out), Version: d.Version}, nil
		}
		return wire.MessageList{Messages: values(a.store.WithBodies(out)), Version: d.Version}, nil
	})
}

func messageSummaries(list []*wire.Message) []wire.MessageSummary {
	out := make([]wire.MessageSummary, len(list))
	for i, m := range list {
		out[i] = wire.MessageSummaryOf(m)
	}
	return out
}

// GET /api/messages/{id}: the whole message, body included.
func (a *API) getMessage(w http.ResponseWriter, r *http.Request) {
	d := a.store.Snapshot()
	m, err := messages.Get(d, mux.Vars(r)["id"])
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusOK, wire.MessageDetail{Message: *a.store.WithBody(m), Version: d.Version})
}

// GET /api/unread-count
func (a *API) unreadCount(w http.ResponseWriter, r *http.Request) {
	d := a.store.Snapshot()
	httpjson.Reply(w, http.StatusOK, wire.UnreadCount{Count: messages.Unread(d), Version: d.Version})
}

// POST /api/cases/{id}/messages
func (a *API) addCaseMessage(w http.ResponseWriter, r *http.Request) {
	var in wire.MessageInput
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	in.Entities = a.entities(r.Context(), in)
	m, v, err := messages.AddToCase(r.Context(), a.store, actorOf(r, in.Actor), mux.Vars(r)["id"], in)
	if ex, ok := messages.AsExisting(err); ok {
		httpjson.Reply(w, http.StatusOK, wire.MessageReply{Message: *ex.Message, Existing: true, Version: ex.Version})
		return
	}
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusCreated, wire.MessageReply{Message: *a.store.WithBody(m), Version: v, Trust: a.pushTrust(r.Context(), correspondents.Node{CaseID: m.CaseID})})
}

// PATCH /api/messages/{id}
func (a *API) patchMessage(w http.ResponseWriter, r *http.Request) {
	var in wire.MessagePatch
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	before := correspondents.LinkOf(a.store.Snapshot(), mux.Vars(r)["id"])
	m, v, err := messages.Patch(r.Context(), a.store, actorOf(r, in.Actor), mux.Vars(r)["id"], in)
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusOK, wire.MessageReply{Message: *a.store.WithBody(m), Version: v, Trust: a.pushTrust(r.Context(), correspondents.Relinked(before, *m)...)})
}
