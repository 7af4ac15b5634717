package wire

// ReminderTaskInput is one checklist row of a reminder create or patch. On a
// patch, a row that carries the id of an existing row keeps that id; a row
// without an id gets a minted one.
type ReminderTaskInput struct {
	ID    string `json:"id,omitempty"`
	Title string `json:"title"`
	Done  bool   `json:"done,omitempty"`
}

// ReminderCreate is the body of POST /api/reminders.
type ReminderCreate struct {
	Title  string              `json:"title"`
	Detail string              `json:"detail,omitempty"`
	Status string              `json:"status,omitempty"`
	DueAt  string              `json:"dueAt,omitempty"`
	Domain string              `json:"domain,omitempty"`
	CaseID string              `json:"caseId,omitempty"`
	Labels []string            `json:"labels,omitempty"`
	Tasks  []ReminderTaskInput `json:"tasks,omitempty"`
	Repeat string              `json:"repeat,omitempty"`
	// Dedupe answers with an exact existing match (same normalized title and
	// due date) instead of creating a second reminder.
	Dedupe bool  `json:"dedupe,omitempty"`
	Actor  Actor `json:"actor,omitempty"`
}

// ReminderPatch is the body of PATCH /api/reminders/{id}. tasks replaces the
// checklist; null or an empty list clears it, as do null or [] for labels.
type ReminderPatch struct {
	Title           Opt[string]              `json:"title,omitzero"`
	Detail          Opt[string]              `json:"detail,omitzero"`
	Status          Opt[string]              `json:"status,omitzero"`
	DueAt           Opt[string]              `json:"dueAt,omitzero"`
	Domain          Opt[string]              `json:"domain,omitzero"`
	CaseID          Opt[string]              `json:"caseId,omitzero"`
	Labels          Opt[[]string]            `json:"labels,omitzero"`
	Tasks           Opt[[]ReminderTaskInput] `json:"tasks,omitzero"`
	Repeat          Opt[string]              `json:"repeat,omitzero"` // null or "" stops repeating
	ExpectedVersion *int64                   `json:"expectedVersion,omitempty"`
	Actor           Actor                    `json:"actor,omitempty"`
	// Override lets an agent write change a field the person changed within
	// the last 24 hours; the case's log records it.
	Override bool `json:"override,omitempty"`
}

// ReminderList is GET /api/reminders.
type ReminderList struct {
	Reminders []Reminder `json:"reminders"`
	Version   int64      `json:"version"`
}

// ReminderDetail is GET /api/reminders/{id}: the reminder with its linked
// emails, newest first.
type ReminderDetail struct {
	Messages []Message `json:"messages"`
	Reminder Reminder  `json:"reminder"`
	Version  int64     `json:"version"`
}

// ReminderReply is the answer of a reminder create or patch.
type ReminderReply struct {
	// Existing is set when a deduplicated create found an exact match.
	Existing bool `json:"existing,omitempty"`
	// Next is the occurrence a completion of a repeating reminder created.
	Next     *Reminder `json:"next,omitempty"`
	Reminder Reminder  `json:"reminder"`
	Version  int64     `json:"version"`
}

// ReminderMessageReply is the answer of POST /api/reminders/{id}/messages:
// the new email and the reminder it is linked to.
type ReminderMessageReply struct {
	// Existing is true when the board already held this mail (see MessageReply).
	Existing bool     `json:"existing,omitempty"`
	Message  Message  `json:"message"`
	Reminder Reminder `json:"reminder"`
	// Trust is what the trust push to the guard did (see MessageReply).
	Trust   *TrustPush `json:"trust,omitempty"`
	Version int64      `json:"version"`
}
