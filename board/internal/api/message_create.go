package api

import (
	"net/http"

	"github.com/opsboard/opsboard/board/internal/rules/correspondents"
	"github.com/opsboard/opsboard/board/internal/rules/messages"
	"github.com/opsboard/opsboard/shared/httpjson"
	"github.com/opsboard/opsboard/shared/wire"
)

// POST /api/messages: a message linked to a case, a reminder, both or
// neither; a link pushes the derived senders to the guard. The same mail
// again answers 200 with the record already held and writes nothing.
func (a *API) createMessage(w http.ResponseWriter, r *http.Request) {
	var in wire.MessageCreate
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	in.Entities = a.entities(r.Context(), in.MessageInput)
	m, v, err := messages.Add(r.Context(), a.store, actorOf(r, in.Actor), in)
	if ex, ok := messages.AsExisting(err); ok {
		httpjson.Reply(w, http.StatusOK, wire.MessageReply{Message: *ex.Message, Existing: true, Version: ex.Version})
		return
	}
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusCreated, wire.MessageReply{Message: *m, Version: v, Trust: a.pushTrust(r.Context(), correspondents.Node{CaseID: m.CaseID}, correspondents.Node{ReminderID: m.ReminderID})})
}
