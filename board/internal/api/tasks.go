package api

import (
	"net/http"

	"github.com/gorilla/mux"
	"github.com/opsboard/opsboard/board/internal/rules/cases"
	"github.com/opsboard/opsboard/shared/httpjson"
	"github.com/opsboard/opsboard/shared/wire"
)

// POST /api/cases/{id}/tasks
func (a *API) addTask(w http.ResponseWriter, r *http.Request) {
	var in wire.TaskCreate
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	t, existing, v, err := cases.AddTask(r.Context(), a.store, actorOf(r, in.Actor), mux.Vars(r)["id"], in.TaskInput)
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, createdOr(existing), wire.TaskReply{Existing: existing, Task: t, Version: v})
}

// PATCH /api/cases/{id}/tasks/{taskId}
func (a *API) patchTask(w http.ResponseWriter, r *http.Request) {
	var in wire.TaskPatch
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	vars := mux.Vars(r)
	t, next, v, err := cases.PatchTask(r.Context(), a.store, actorOf(r, in.Actor), vars["id"], vars["taskId"], in)
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusOK, wire.TaskReply{Task: t, Next: next, Version: v})
}

// DELETE /api/cases/{id}/tasks/{taskId}
func (a *API) deleteTask(w http.ResponseWriter, r *http.Request) {
	var in wire.ActorOnly
	if err := decodeOptional(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	vars := mux.Vars(r)
	v, err := cases.DeleteTask(r.Context(), a.store, actorOf(r, in.Actor), vars["id"], vars["taskId"])
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusOK, wire.Deleted{OK: true, Version: v})
}

// POST /api/cases/{id}/notes: { text }
func (a *API) addNote(w http.ResponseWriter, r *http.Request) {
	var in wire.NoteCreate
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	n, existing, v, err := cases.AddNote(r.Context(), a.store, actorOf(r, in.Actor), mux.Vars(r)["id"], in.Text)
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, createdOr(existing), wire.NoteReply{Existing: existing, Note: n, Version: v})
}
