package api

import (
	"net/http"

	"github.com/gorilla/mux"
	"github.com/opsboard/opsboard/board/internal/rules/correspondents"
	"github.com/opsboard/opsboard/board/internal/rules/messages"
	"github.com/opsboard/opsboard/board/internal/rules/reminders"
	"github.com/opsboard/opsboard/shared/httpjson"
	"github.com/opsboard/opsboard/shared/wire"
)

// GET /api/reminders?status=&caseId=&domain=
func (a *API) listReminders(w http.ResponseWriter, r *http.Request) {
	d := a.store.Snapshot()
	a.serveCached(w, r, d, func() (any, error) {
		q := r.URL.Query()
		_, byCase := q["caseId"]
		list, err := reminders.List(d, reminders.Filter{Status: q.Get("status"), CaseID: q.Get("caseId"), CaseGiven: byCase, Domain: q.Get("domain")})
		if err != nil {
			return nil, err
		}
		return wire.ReminderList{Reminders: values(list), Version: d.Version}, nil
	})
}

// GET /api/reminders/{id}: the reminder with its emails, newest first.
func (a *API) getReminder(w http.ResponseWriter, r *http.Request) {
	d := a.store.Snapshot()
	rem, err := reminders.Find(d, mux.Vars(r)["id"])
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusOK, wire.ReminderDetail{Messages: values(a.store.WithBodies(reminders.Messages(d, rem.ID))), Reminder: *rem, Version: d.Version})
}

// POST /api/reminders
func (a *API) createReminder(w http.ResponseWriter, r *http.Request) {
	var in wire.ReminderCreate
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	rem, existing, v, err := reminders.Create(r.Context(), a.store, actorOf(r, in.Actor), in)
	if err != nil {
		a.fail(w, err)
		return
	}
	if existing {
		httpjson.Reply(w, http.StatusOK, wire.ReminderReply{Existing: true, Reminder: *rem, Version: v})
		return
	}
	httpjson.Reply(w, http.StatusCreated, wire.ReminderReply{Reminder: *rem, Version: v})
}

// PATCH /api/reminders/{id}
func (a *API) patchReminder(w http.ResponseWriter, r *http.Request) {
	var in wire.ReminderPatch
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	rem, next, v, err := reminders.Patch(r.Context(), a.store, actorOf(r, in.Actor), mux.Vars(r)["id"], in)
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusOK, wire.ReminderReply{Reminder: *rem, Next: next, Version: v})
}

// DELETE /api/reminders/{id}
func (a *API) deleteReminder(w http.ResponseWriter, r *http.Request) {
	var in wire.ActorOnly
	if err := decodeOptional(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	v, err := reminders.Delete(r.Context(), a.store, actorOf(r, in.Actor), mux.Vars(r)["id"])
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusOK, wire.Deleted{OK: true, Version: v})
}

// POST /api/reminders/{id}/messages
func (a *API) addReminderMessage(w http.ResponseWriter, r *http.Request) {
	var in wire.MessageInput
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	in.Entities = a.entities(r.Context(), in)
	rem, m, v, err := messages.AddToReminder(r.Context(), a.store, actorOf(r, in.Actor), mux.Vars(r)["id"], in)
	if ex, ok := messages.AsExisting(err); ok {
		httpjson.Reply(w, http.StatusOK, wire.ReminderMessageReply{Message: *ex.Message, Reminder: *rem, Existing: true, Version: ex.Version})
		return
	}
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusCreated, wire.ReminderMessageReply{Message: *a.store.WithBody(m), Reminder: *rem, Version: v, Trust: a.pushTrust(r.Context(), correspondents.Node{ReminderID: rem.ID})})
}
