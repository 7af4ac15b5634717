package wire

import (
	"bytes"
	"encoding/json"
)

// Opt is a request field that tells "absent" from "null" from a value, which
// a PATCH needs: parentId absent keeps the parent, null clears it.
type Opt[T any] struct {
	Set  bool // the field was present
	Null bool // it was present as null
	V    T
}

// Some is a present, non-null value.
func Some[T any](v T) Opt[T] { return Opt[T]{Set: true, V: v} }

// Null is a present null.
func Null[T any]() Opt[T] { return Opt[T]{Set: true, Null: true} }

// UnmarshalJSON records presence; encoding/json calls it for null too.
func (o *Opt[T]) UnmarshalJSON(b []byte) error {
	o.Set = true
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		o.Null = true
		return nil
	}
	return json.Unmarshal(b, &o.V)
}

// MarshalJSON writes null or the value; pair it with `omitzero`.
func (o Opt[T]) MarshalJSON() ([]byte, error) {
	if o.Null {
		return []byte("null"), nil
	}
	return json.Marshal(o.V)
}

// IsZero makes an absent Opt disappear under `omitzero`.
func (o Opt[T]) IsZero() bool { return !o.Set }

// TaskInput is a task in a case create body or a task create.
type TaskInput struct {
	Title    string   `json:"title"`
	Detail   string   `json:"detail,omitempty"`
	DueAt    string   `json:"dueAt,omitempty"`
	Position *float64 `json:"position,omitempty"`
	Repeat   string   `json:"repeat,omitempty"` // a recurrence rule; needs dueAt
}

// CaseCreate is the body of POST /api/cases.
type CaseCreate struct {
	Title      string      `json:"title"`
	Kind       string      `json:"kind,omitempty"`
	ParentID   string      `json:"parentId,omitempty"`
	Status     string      `json:"status,omitempty"`
	Domain     string      `json:"domain,omitempty"`
	Summary    string      `json:"summary,omitempty"`
	Tags       []string    `json:"tags,omitempty"`
	Labels     []string    `json:"labels,omitempty"`
	Eta        string      `json:"eta,omitempty"`
	DueAt      string      `json:"dueAt,omitempty"`
	VaultLinks []string    `json:"vaultLinks,omitempty"`
	Tasks      []TaskInput `json:"tasks,omitempty"`
	Starred    bool        `json:"starred,omitempty"`
	Position   *float64    `json:"position,omitempty"`
	TemplateID string      `json:"templateId,omitempty"`
	// Dedupe answers with an exact existing match (same normalized title,
	// kind and parent) instead of creating a second one.
	Dedupe bool  `json:"dedupe,omitempty"`
	Actor  Actor `json:"actor,omitempty"`
}

// CasePatch is the body of PATCH /api/cases/{id}, and the patch of a batch.
type CasePatch struct {
	Title           Opt[string]   `json:"title,omitzero"`
	Summary         Opt[string]   `json:"summary,omitzero"`
	Status          Opt[string]   `json:"status,omitzero"`
	Domain          Opt[string]   `json:"domain,omitzero"`
	Eta             Opt[string]   `json:"eta,omitzero"`
	DueAt           Opt[string]   `json:"dueAt,omitzero"`
	Tags            Opt[[]string] `json:"tags,omitzero"`
	Labels          Opt[[]string] `json:"labels,omitzero"`
	Kind            Opt[string]   `json:"kind,omitzero"`
	ParentID        Opt[string]   `json:"parentId,omitzero"`
	Starred         Opt[bool]     `json:"starred,omitzero"`
	Position        Opt[float64]  `json:"position,omitzero"`
	VaultLinks      Opt[[]string] `json:"vaultLinks,omitzero"`
	ArchivedAt      Opt[string]   `json:"archivedAt,omitzero"`
	ExpectedVersion *int64        `json:"expectedVersion,omitempty"`
	Actor           Actor         `json:"actor,omitempty"`
	// Override lets an agent write change a field the person changed within
	// the last 24 hours; the case's log records it.
	Override bool `json:"override,omitempty"`
}

// CaseBatch is the body of PATCH /api/cases: one patch for many ids.
type CaseBatch struct {
	IDs             []string  `json:"ids"`
	Patch           CasePatch `json:"patch"`
	ExpectedVersion *int64    `json:"expectedVersion,omitempty"`
	Actor           Actor     `json:"actor,omitempty"`
	// Override lets an agent write change a field the person changed within
	// the last 24 hours; the case's log records it.
	Override bool `json:"override,omitempty"`
}

// TaskPatch is the body of PATCH /api/cases/{id}/tasks/{taskId}.
type TaskPatch struct {
	Title     Opt[string]  `json:"title,omitzero"`
	Detail    Opt[string]  `json:"detail,omitzero"`
	DueAt     Opt[string]  `json:"dueAt,omitzero"`
	Position  Opt[float64] `json:"position,omitzero"`
	Completed Opt[bool]    `json:"completed,omitzero"`
	Repeat    Opt[string]  `json:"repeat,omitzero"` // null or "" stops repeating
	Actor     Actor        `json:"actor,omitempty"`
	// Override lets an agent write change a field the person changed within
	// the last 24 hours; the case's log records it.
	Override bool `json:"override,omitempty"`
}

// MessageInput is the body of POST /api/cases/{id}/messages and
// POST /api/reminders/{id}/messages.
type MessageInput struct {
	Source     string    `json:"source,omitempty"`
	From       string    `json:"from,omitempty"`
	To         Addresses `json:"to,omitempty"`
	Cc         Addresses `json:"cc,omitempty"`
	Subject    string    `json:"subject,omitempty"`
	Preview    string    `json:"preview,omitempty"`
	Body       string    `json:"body,omitempty"`
	ReceivedAt string    `json:"receivedAt,omitempty"`
	Read       bool      `json:"read,omitempty"`
	Outbound   bool      `json:"outbound,omitempty"`
	URL        string    `json:"url,omitempty"`
	MessageID  string    `json:"messageId,omitempty"`
	ThreadID   string    `json:"threadId,omitempty"`
	Scan       string    `json:"scan,omitempty"`
	Actor      Actor     `json:"actor,omitempty"`
	// Truncated and OriginalSizes say what ingest cut to a limit (see
	// Message).
	Truncated     []string         `json:"truncated,omitempty"`
	OriginalSizes map[string]int64 `json:"originalSizes,omitempty"`
	// Entities are the vault pages the board resolved the mail to before
	// the write; never read from a body, since only the board sets them.
	Entities []string `json:"-"`
}

// MessagePatch is the body of PATCH /api/messages/{id}.
type MessagePatch struct {
	Read       Opt[bool]   `json:"read,omitzero"`
	URL        Opt[string] `json:"url,omitzero"`
	CaseID     Opt[string] `json:"caseId,omitzero"`
	ReminderID Opt[string] `json:"reminderId,omitzero"`
	// Body replaces the mail's text: how a person edits a body by hand now
	// that bodies live outside the document.
	Body  Opt[string] `json:"body,omitzero"`
	Actor Actor       `json:"actor,omitempty"`
	// Override lets an agent write through the person's change; the page
	// and a person's HTTP call may set it, the agent's tools never do.
	Override bool `json:"override,omitempty"`
}
