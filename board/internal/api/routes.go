package api

import (
	"net/http"

	"github.com/gorilla/mux"
)

// routes lists every route of /api in one place, so a newcomer finds a
// route's handler from its path.
func (a *API) routes(r *mux.Router) {
	r.HandleFunc("/health", a.health).Methods(http.MethodGet)

	r.HandleFunc("/cases", a.listCases).Methods(http.MethodGet)
	r.HandleFunc("/cases", a.createCase).Methods(http.MethodPost)
	r.HandleFunc("/cases", a.patchCases).Methods(http.MethodPatch)
	r.HandleFunc("/cases/clean", a.cleanCases).Methods(http.MethodPost)
	r.HandleFunc("/cases/{id}", a.getCase).Methods(http.MethodGet)
	r.HandleFunc("/cases/{id}", a.patchCase).Methods(http.MethodPatch)
	r.HandleFunc("/cases/{id}", a.deleteCase).Methods(http.MethodDelete)
	r.HandleFunc("/cases/{id}/restore", a.restoreCase).Methods(http.MethodPost)
	r.HandleFunc("/cases/{id}/merge", a.mergeCase).Methods(http.MethodPost)
	r.HandleFunc("/cases/{id}/tasks", a.addTask).Methods(http.MethodPost)
	r.HandleFunc("/cases/{id}/tasks/{taskId}", a.patchTask).Methods(http.MethodPatch)
	r.HandleFunc("/cases/{id}/tasks/{taskId}", a.deleteTask).Methods(http.MethodDelete)
	r.HandleFunc("/cases/{id}/notes", a.addNote).Methods(http.MethodPost)
	r.HandleFunc("/cases/{id}/messages", a.addCaseMessage).Methods(http.MethodPost)
	r.HandleFunc("/tree", a.tree).Methods(http.MethodGet)
	r.HandleFunc("/activity", a.activity).Methods(http.MethodGet)

	r.HandleFunc("/messages", a.listMessages).Methods(http.MethodGet)
	r.HandleFunc("/messages/{id}", a.patchMessage).Methods(http.MethodPatch)
	r.HandleFunc("/unread-count", a.unreadCount).Methods(http.MethodGet)

	r.HandleFunc("/labels", a.listLabels).Methods(http.MethodGet)
	r.HandleFunc("/labels", a.createLabel).Methods(http.MethodPost)
	r.HandleFunc("/labels/bundles", a.listBundles).Methods(http.MethodGet)
	r.HandleFunc("/labels/bundles", a.installBundle).Methods(http.MethodPost)
	r.HandleFunc("/labels/bundles/{id}", a.uninstallBundle).Methods(http.MethodDelete)
	r.HandleFunc("/labels/{id}", a.patchLabel).Methods(http.MethodPatch)
	r.HandleFunc("/labels/{id}", a.deleteLabel).Methods(http.MethodDelete)
}
