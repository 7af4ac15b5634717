package api

import (
	"net/http"
	"reflect"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/rules/correspondents"
	"github.com/opsboard/opsboard/board/internal/rules/messages"
	"github.com/opsboard/opsboard/shared/httpjson"
	"github.com/opsboard/opsboard/shared/wire"
)

// messageCreateBody is either form of POST /api/messages: one message, or
// its fields left out and `messages` set.
type messageCreateBody struct {
	wire.MessageCreate
	Messages *[]wire.MessageCreate `json:"messages"`
}

// POST /api/messages: a message linked to a case, a reminder, both or
// neither; a link pushes the derived senders to the guard. The same mail
// again answers 200 with the record already held and writes nothing. With
// `messages` it is a batch, written at once.
func (a *API) createMessage(w http.ResponseWriter, r *http.Request) {
	var in messageCreateBody
	// The body's bound is the larger of the two forms' (the same today).
	if err := decodeWithin(w, r, &in, max(maxBody, wire.MaxMessageBatchBytes)); err != nil {
		a.fail(w, err)
		return
	}
	if in.Messages != nil {
		a.createMessages(w, r, in)
		return
	}
	one := in.MessageCreate
	one.Entities = a.entities(r.Context(), one.MessageInput)
	m, v, err := messages.Add(r.Context(), a.store, actorOf(r, one.Actor), one)
	if ex, ok := messages.AsExisting(err); ok {
		httpjson.Reply(w, http.StatusOK, wire.MessageReply{Message: *ex.Message, Existing: true, Version: ex.Version})
		return
	}
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusCreated, wire.MessageReply{Message: *a.store.WithBody(m), Version: v, Trust: a.pushTrust(r.Context(), correspondents.Node{CaseID: m.CaseID}, correspondents.Node{ReminderID: m.ReminderID})})
}

// createMessages is the batch form: 201 when it created at least one
// message, 200 when the board held them all.
func (a *API) createMessages(w http.ResponseWriter, r *http.Request, in messageCreateBody) {
	if !reflect.DeepEqual(in.MessageCreate, wire.MessageCreate{MessageInput: wire.MessageInput{Actor: in.Actor}}) {
		a.fail(w, errs.BadRequest("send one message or field 'messages', not both"))
		return
	}
	batch := *in.Messages
	for i := range batch {
		batch[i].Entities = a.entities(r.Context(), batch[i].MessageInput)
	}
	results, v, err := messages.AddBatch(r.Context(), a.store, actorOf(r, in.Actor), batch)
	if err != nil {
		a.fail(w, err)
		return
	}
	status, linked := http.StatusOK, []correspondents.Node{}
	for _, res := range results {
		if res.Existing {
			continue
		}
		status = http.StatusCreated
		if res.Message.CaseID != "" || res.Message.ReminderID != "" {
			linked = append(linked, correspondents.Node{CaseID: res.Message.CaseID}, correspondents.Node{ReminderID: res.Message.ReminderID})
		}
	}
	reply := wire.MessageBatchReply{Results: results, Version: v}
	if len(linked) > 0 {
		reply.Trust = a.pushTrust(r.Context(), linked...)
	}
	httpjson.Reply(w, status, reply)
}
