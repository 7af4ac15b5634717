package wire

import "encoding/json"

// EventCreate is the body of POST /api/events.
type EventCreate struct {
	Title       string `json:"title"`
	Date        string `json:"date"`
	AllDay      bool   `json:"allDay,omitempty"`
	StartTime   string `json:"startTime,omitempty"`
	EndTime     string `json:"endTime,omitempty"`
	Description string `json:"description,omitempty"`
	Location    string `json:"location,omitempty"`
	CaseID      string `json:"caseId,omitempty"`
	Domain      string `json:"domain,omitempty"`
	// Dedupe answers with an exact existing match (same normalized title,
	// date and start time) instead of creating a second event.
	Dedupe bool   `json:"dedupe,omitempty"`
	Actor  string `json:"actor,omitempty"`
}

// EventPatch is the body of PATCH /api/events/{id}. A null or empty caseId
// unlinks; a null optional text field clears it.
type EventPatch struct {
	Title           Opt[string] `json:"title,omitzero"`
	Date            Opt[string] `json:"date,omitzero"`
	AllDay          Opt[bool]   `json:"allDay,omitzero"`
	StartTime       Opt[string] `json:"startTime,omitzero"`
	EndTime         Opt[string] `json:"endTime,omitzero"`
	Description     Opt[string] `json:"description,omitzero"`
	Location        Opt[string] `json:"location,omitzero"`
	CaseID          Opt[string] `json:"caseId,omitzero"`
	Domain          Opt[string] `json:"domain,omitzero"`
	ExpectedVersion *int64      `json:"expectedVersion,omitempty"`
	Actor           string      `json:"actor,omitempty"`
}

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
	// Dedupe answers with an exact existing match (same normalized title and
	// due date) instead of creating a second reminder.
	Dedupe bool   `json:"dedupe,omitempty"`
	Actor  string `json:"actor,omitempty"`
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
	ExpectedVersion *int64                   `json:"expectedVersion,omitempty"`
	Actor           string                   `json:"actor,omitempty"`
}

// PriorityCreate is the body of POST /api/priorities.
type PriorityCreate struct {
	Text     string   `json:"text"`
	Position *float64 `json:"position,omitempty"`
	Actor    string   `json:"actor,omitempty"`
}

// PriorityPatch is the body of PATCH /api/priorities/{id}. Position is kept
// raw because any non-number (null, a string, ...) clears it.
type PriorityPatch struct {
	Text            Opt[string]          `json:"text,omitzero"`
	Position        Opt[json.RawMessage] `json:"position,omitzero"`
	ExpectedVersion *int64               `json:"expectedVersion,omitempty"`
	Actor           string               `json:"actor,omitempty"`
}

// ProposalCreate is the body of POST /api/pending. Payload is exactly the
// body of the route the verb names, plus id where that route has one.
type ProposalCreate struct {
	Verb    string          `json:"verb"`
	Payload json.RawMessage `json:"payload"`
	Summary string          `json:"summary"`
	Actor   string          `json:"actor,omitempty"`
}

// ProposalDecision is the optional body of POST /api/pending/{id}/approve
// and /reject. ExpectedVersion guards an approval made from a stale view.
type ProposalDecision struct {
	ExpectedVersion *int64 `json:"expectedVersion,omitempty"`
	Actor           string `json:"actor,omitempty"`
}

// TargetNow is what became of one record a proposal targets.
type TargetNow struct {
	ID string `json:"id"`
	// Gone means the record no longer exists: approval answers 404.
	Gone bool `json:"gone,omitempty"`
	// ChangedSince means the record's updatedAt moved since the proposal.
	ChangedSince bool   `json:"changedSince"`
	UpdatedAt    string `json:"updatedAt,omitempty"`
	// Current holds the record's present values of the proposal's before
	// fields; ChangedFields names those that differ from before.
	Current       map[string]json.RawMessage `json:"current,omitempty"`
	ChangedFields []string                   `json:"changedFields,omitempty"`
}

// ProposalItem is a proposal as GET /api/pending lists it: the stored
// proposal plus what changed on its targets since it was filed.
type ProposalItem struct {
	Proposal
	// ChangedSince is true when any target changed since the proposal.
	ChangedSince bool `json:"changedSince"`
	// TargetGone is true when any target no longer exists.
	TargetGone bool `json:"targetGone,omitempty"`
	// Targets lists every targeted record, primary first.
	Targets []TargetNow `json:"targets"`
}

// ViewInput is the body of POST /api/views and PATCH /api/views/{id}.
type ViewInput struct {
	Name    Opt[string]          `json:"name,omitzero"`
	Filters Opt[json.RawMessage] `json:"filters,omitzero"`
	Actor   string               `json:"actor,omitempty"`
}

// TemplateInput is the body of POST /api/templates (name required) and
// PATCH /api/templates/{id} (null clears a field).
type TemplateInput struct {
	Name    Opt[string]   `json:"name,omitzero"`
	Title   Opt[string]   `json:"title,omitzero"`
	Summary Opt[string]   `json:"summary,omitzero"`
	Status  Opt[string]   `json:"status,omitzero"`
	Domain  Opt[string]   `json:"domain,omitzero"`
	Kind    Opt[string]   `json:"kind,omitzero"`
	Labels  Opt[[]string] `json:"labels,omitzero"`
	Tags    Opt[[]string] `json:"tags,omitzero"`
	Tasks   Opt[[]string] `json:"tasks,omitzero"`
	Actor   string        `json:"actor,omitempty"`
}

// CommandInput is the body of POST /api/command.
type CommandInput struct {
	Text  string `json:"text"`
	Actor string `json:"actor,omitempty"`
}

// SearchResults is the answer of a substring scan over cases, tasks,
// messages and reminders: GET /api/search, the merged view of POST
// /api/search and the command bar's find.
type SearchResults struct {
	Cases     []*Case     `json:"cases"`
	Tasks     []CaseTask  `json:"tasks"`
	Messages  []*Message  `json:"messages"`
	Reminders []*Reminder `json:"reminders"`
}

// CaseTask is a task with the case that holds it.
type CaseTask struct {
	CaseID string `json:"caseId"`
	Task   Task   `json:"task"`
}

// CommandReply is the answer of POST /api/command. Href is a page path to
// open; Version is present when the command wrote.
type CommandReply struct {
	Message string         `json:"message"`
	Href    string         `json:"href,omitempty"`
	Results *SearchResults `json:"results,omitempty"`
	Version int64          `json:"version,omitempty"`
}
