package api

import (
	"net/http"

	"github.com/gorilla/mux"
	"github.com/opsboard/opsboard/board/internal/rules/events"
	"github.com/opsboard/opsboard/shared/httpjson"
	"github.com/opsboard/opsboard/shared/wire"
)

// eventFilter reads the query of GET /api/events and /api/events.ics.
func eventFilter(r *http.Request) events.Filter {
	q := r.URL.Query()
	_, byCase := q["caseId"]
	return events.Filter{From: q.Get("from"), To: q.Get("to"), CaseID: q.Get("caseId"), CaseGiven: byCase, Domain: q.Get("domain")}
}

// GET /api/events?from=&to=&caseId=&domain=
func (a *API) listEvents(w http.ResponseWriter, r *http.Request) {
	d := a.store.Snapshot()
	a.serveCached(w, r, d, func() (any, error) {
		events, err := events.List(d, eventFilter(r))
		if err != nil {
			return nil, err
		}
		return wire.EventList{Events: values(events), Version: d.Version}, nil
	})
}

// GET /api/events/{id}
func (a *API) getEvent(w http.ResponseWriter, r *http.Request) {
	d := a.store.Snapshot()
	e, err := events.Find(d, mux.Vars(r)["id"])
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusOK, wire.EventReply{Event: *e, Version: d.Version})
}

// POST /api/events
func (a *API) createEvent(w http.ResponseWriter, r *http.Request) {
	var in wire.EventCreate
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	e, existing, v, err := events.Create(r.Context(), a.store, actorOf(r, in.Actor), in)
	if err != nil {
		a.fail(w, err)
		return
	}
	if existing {
		httpjson.Reply(w, http.StatusOK, wire.EventReply{Event: *e, Existing: true, Version: v})
		return
	}
	httpjson.Reply(w, http.StatusCreated, wire.EventReply{Event: *e, Version: v})
}

// PATCH /api/events/{id}
func (a *API) patchEvent(w http.ResponseWriter, r *http.Request) {
	var in wire.EventPatch
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	e, v, err := events.Patch(r.Context(), a.store, actorOf(r, in.Actor), mux.Vars(r)["id"], in)
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusOK, wire.EventReply{Event: *e, Version: v})
}

// DELETE /api/events/{id}
func (a *API) deleteEvent(w http.ResponseWriter, r *http.Request) {
	var in wire.ActorOnly
	if err := decodeOptional(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	v, err := events.Delete(r.Context(), a.store, actorOf(r, in.Actor), mux.Vars(r)["id"])
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusOK, wire.Deleted{OK: true, Version: v})
}
