package api

import (
	"net/http"

	"github.com/gorilla/mux"
)

// routes lists every route of /api in one place, so a newcomer finds a
// route's handler from its path. Every create is keyed (idempotency.go):
// an Idempotency-Key makes its retry one record.
func (a *API) routes(r *mux.Router) {
	r.HandleFunc("/health", a.health).Methods(http.MethodGet)
	r.HandleFunc("/connect", a.connect).Methods(http.MethodGet)
	a.caseRoutes(r)
	a.messageRoutes(r)
	a.calendarRoutes(r)
	a.boardRoutes(r)
	a.guardRoutes(r)
	a.vaultRoutes(r)                                               // the vault's pages (vault.go)
	r.HandleFunc("/backups", a.getBackups).Methods(http.MethodGet) // the off-site backup (backups.go)
	r.HandleFunc("/backups/run", a.runBackup).Methods(http.MethodPost)
}

// caseRoutes are the case nodes, their tasks, notes and mail, and the reads
// across them: tree, agenda, activity and search.
func (a *API) caseRoutes(r *mux.Router) {
	r.HandleFunc("/cases", a.listCases).Methods(http.MethodGet)
	r.HandleFunc("/cases", a.keyed(a.createCase)).Methods(http.MethodPost)
	r.HandleFunc("/cases", a.patchCases).Methods(http.MethodPatch)
	r.HandleFunc("/cases/clean", a.cleanCases).Methods(http.MethodPost)
	r.HandleFunc("/cases/{id}", a.getCase).Methods(http.MethodGet)
	r.HandleFunc("/cases/{id}", a.patchCase).Methods(http.MethodPatch)
	r.HandleFunc("/cases/{id}", a.deleteCase).Methods(http.MethodDelete)
	r.HandleFunc("/cases/{id}/restore", a.restoreCase).Methods(http.MethodPost)
	r.HandleFunc("/cases/{id}/merge", a.mergeCase).Methods(http.MethodPost)
	r.HandleFunc("/cases/{id}/tasks", a.keyed(a.addTask)).Methods(http.MethodPost)
	r.HandleFunc("/cases/{id}/tasks/{taskId}", a.patchTask).Methods(http.MethodPatch)
	r.HandleFunc("/cases/{id}/tasks/{taskId}", a.deleteTask).Methods(http.MethodDelete)
	r.HandleFunc("/cases/{id}/notes", a.keyed(a.addNote)).Methods(http.MethodPost)
	r.HandleFunc("/cases/{id}/messages", a.keyed(a.addCaseMessage)).Methods(http.MethodPost)
	r.HandleFunc("/tree", a.tree).Methods(http.MethodGet)
	r.HandleFunc("/agenda", a.agenda).Methods(http.MethodGet)
	r.HandleFunc("/activity", a.activity).Methods(http.MethodGet)
	r.HandleFunc("/search", a.searchGet).Methods(http.MethodGet)
	r.HandleFunc("/search", a.searchPost).Methods(http.MethodPost)
}

// messageRoutes are the mail and the labels.
func (a *API) messageRoutes(r *mux.Router) {
	r.HandleFunc("/messages", a.listMessages).Methods(http.MethodGet)
	r.HandleFunc("/messages", a.keyed(a.createMessage)).Methods(http.MethodPost)
	r.HandleFunc("/messages/{id}", a.getMessage).Methods(http.MethodGet)
	r.HandleFunc("/messages/{id}", a.patchMessage).Methods(http.MethodPatch)
	r.HandleFunc("/ingest-runs", a.keyed(a.createIngestRun)).Methods(http.MethodPost)
	r.HandleFunc("/unread-count", a.unreadCount).Methods(http.MethodGet)

	r.HandleFunc("/labels", a.listLabels).Methods(http.MethodGet)
	r.HandleFunc("/labels", a.keyed(a.createLabel)).Methods(http.MethodPost)
	r.HandleFunc("/labels/bundles", a.listBundles).Methods(http.MethodGet)
	r.HandleFunc("/labels/bundles", a.installBundle).Methods(http.MethodPost)
	r.HandleFunc("/labels/bundles/{id}", a.uninstallBundle).Methods(http.MethodDelete)
	r.HandleFunc("/labels/{id}", a.patchLabel).Methods(http.MethodPatch)
	r.HandleFunc("/labels/{id}", a.deleteLabel).Methods(http.MethodDelete)
}

// calendarRoutes are the events and their feed, reminders and priorities.
func (a *API) calendarRoutes(r *mux.Router) {
	r.HandleFunc("/events", a.listEvents).Methods(http.MethodGet)
	r.HandleFunc("/events", a.keyed(a.createEvent)).Methods(http.MethodPost)
	r.HandleFunc("/events.ics", a.eventsICS).Methods(http.MethodGet)
	r.HandleFunc("/events/{id}", a.getEvent).Methods(http.MethodGet)
	r.HandleFunc("/events/{id}", a.patchEvent).Methods(http.MethodPatch)
	r.HandleFunc("/events/{id}", a.deleteEvent).Methods(http.MethodDelete)
	r.HandleFunc("/reminders", a.listReminders).Methods(http.MethodGet)
	r.HandleFunc("/reminders", a.keyed(a.createReminder)).Methods(http.MethodPost)
	r.HandleFunc("/reminders/{id}", a.getReminder).Methods(http.MethodGet)
	r.HandleFunc("/reminders/{id}", a.patchReminder).Methods(http.MethodPatch)
	r.HandleFunc("/reminders/{id}", a.deleteReminder).Methods(http.MethodDelete)
	r.HandleFunc("/reminders/{id}/messages", a.keyed(a.addReminderMessage)).Methods(http.MethodPost)
	r.HandleFunc("/priorities", a.listPriorities).Methods(http.MethodGet)
	r.HandleFunc("/priorities", a.keyed(a.createPriority)).Methods(http.MethodPost)
	r.HandleFunc("/priorities/{id}", a.patchPriority).Methods(http.MethodPatch)
	r.HandleFunc("/priorities/{id}", a.deletePriority).Methods(http.MethodDelete)
}

// boardRoutes are proposals, saved state, the command bar, import and
// export, the live stream and undo.
func (a *API) boardRoutes(r *mux.Router) {
	r.HandleFunc("/pending", a.listProposals).Methods(http.MethodGet)
	r.HandleFunc("/pending", a.keyed(a.propose)).Methods(http.MethodPost)
	r.HandleFunc("/pending/{id}/approve", a.approveProposal).Methods(http.MethodPost)
	r.HandleFunc("/pending/{id}/reject", a.rejectProposal).Methods(http.MethodPost)
	r.HandleFunc("/prefs", a.getPrefs).Methods(http.MethodGet)
	r.HandleFunc("/prefs", a.patchPrefs).Methods(http.MethodPatch)
	r.HandleFunc("/views", a.listViews).Methods(http.MethodGet)
	r.HandleFunc("/views", a.keyed(a.saveView)).Methods(http.MethodPost)
	r.HandleFunc("/views/{id}", a.getView).Methods(http.MethodGet)
	r.HandleFunc("/views/{id}", a.patchView).Methods(http.MethodPatch)
	r.HandleFunc("/views/{id}", a.deleteView).Methods(http.MethodDelete)
	r.HandleFunc("/templates", a.listTemplates).Methods(http.MethodGet)
	r.HandleFunc("/templates", a.keyed(a.saveTemplate)).Methods(http.MethodPost)
	r.HandleFunc("/templates/{id}", a.getTemplate).Methods(http.MethodGet)
	r.HandleFunc("/templates/{id}", a.patchTemplate).Methods(http.MethodPatch)
	r.HandleFunc("/templates/{id}", a.deleteTemplate).Methods(http.MethodDelete)
	r.HandleFunc("/command", a.command).Methods(http.MethodPost)
	r.HandleFunc("/export", a.export).Methods(http.MethodGet)
	r.HandleFunc("/import", a.importFile).Methods(http.MethodPost)
	r.HandleFunc("/dates/parse", a.parseDate).Methods(http.MethodGet)
	r.HandleFunc("/stream", a.stream).Methods(http.MethodGet)
	r.HandleFunc("/changes", a.changes).Methods(http.MethodGet)
	r.HandleFunc("/undo", a.undo).Methods(http.MethodPost)
}

// guardRoutes are the guard sidecar, through the board (guard.go).
func (a *API) guardRoutes(r *mux.Router) {
	r.HandleFunc("/guard/config", a.getGuardConfig).Methods(http.MethodGet)
	r.HandleFunc("/guard/config", a.setGuardConfig).Methods(http.MethodPost)
	r.HandleFunc("/guard/models", a.guardModels).Methods(http.MethodGet)
	r.HandleFunc("/trust", a.listTrust).Methods(http.MethodGet)
	r.HandleFunc("/trust", a.upsertTrust).Methods(http.MethodPost)
	r.HandleFunc("/trust/{email}", a.deleteTrust).Methods(http.MethodDelete)
	r.HandleFunc("/quarantine", a.listQuarantine).Methods(http.MethodGet)
	r.HandleFunc("/quarantine/{id}", a.patchQuarantine).Methods(http.MethodPatch)
}
