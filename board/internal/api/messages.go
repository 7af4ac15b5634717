package api

import (
	"net/http"

	"github.com/gorilla/mux"
	"github.com/opsboard/opsboard/board/internal/messages"
	"github.com/opsboard/opsboard/shared/wire"
)

// GET /api/messages?caseId=&reminderId=&unread=
func (a *API) listMessages(w http.ResponseWriter, r *http.Request) {
	d := a.store.Snapshot()
	a.serveCached(w, r, d, func() (any, error) {
		q := r.URL.Query()
		_, byCase := q["caseId"]
		_, byReminder := q["reminderId"]
		unread := boolQuery(r, "unread")
		out := []*wire.Message{}
		for _, m := range d.Messages {
			if (byCase && m.CaseID != q.Get("caseId")) || (byReminder && m.ReminderID != q.Get("reminderId")) || (unread && m.Read) {
				continue
			}
			out = append(out, m)
		}
		return wire.MessageList{Messages: values(out), Version: d.Version}, nil
	})
}

// GET /api/unread-count
func (a *API) unreadCount(w http.ResponseWriter, r *http.Request) {
	d := a.store.Snapshot()
	n := 0
	for _, m := range d.Messages {
		if !m.Read {
			n++
		}
	}
	a.reply(w, http.StatusOK, wire.UnreadCount{Count: n, Version: d.Version})
}

// POST /api/cases/{id}/messages
func (a *API) addCaseMessage(w http.ResponseWriter, r *http.Request) {
	var in wire.MessageInput
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	m, v, err := messages.AddToCase(r.Context(), a.store, actorOf(r, in.Actor), mux.Vars(r)["id"], in)
	if ex, ok := messages.AsExisting(err); ok {
		a.reply(w, http.StatusOK, wire.MessageReply{Message: *ex.Message, Existing: true, Version: ex.Version})
		return
	}
	if err != nil {
		a.fail(w, err)
		return
	}
	a.reply(w, http.StatusCreated, wire.MessageReply{Message: *m, Version: v, Trust: a.pushTrust(r.Context(), node{caseID: m.CaseID})})
}

// PATCH /api/messages/{id}
func (a *API) patchMessage(w http.ResponseWriter, r *http.Request) {
	var in wire.MessagePatch
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	before := relinkBase(a.store.Snapshot(), mux.Vars(r)["id"])
	m, v, err := messages.Patch(r.Context(), a.store, actorOf(r, in.Actor), mux.Vars(r)["id"], in)
	if err != nil {
		a.fail(w, err)
		return
	}
	a.reply(w, http.StatusOK, wire.MessageReply{Message: *m, Version: v, Trust: a.pushTrust(r.Context(), relinked(before, *m)...)})
}
