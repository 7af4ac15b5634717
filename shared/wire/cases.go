package wire

// The replies below carry records as values: the board copies its stored
// records into them (a shallow copy), so one type serves the board, which
// encodes it, and the client, which decodes it. Their fields are declared in
// the order of their JSON names, the order the board has always written.

// ActorOnly is the body of a write that takes nothing but who made it (the
// DELETE routes, POST /api/cases/{id}/restore). The body may be absent.
type ActorOnly struct {
	Actor string `json:"actor,omitempty"`
}

// Deleted is the answer of a DELETE that removes a record for good.
type Deleted struct {
	// Deleted is the removed node's id (DELETE /api/cases/{id}?hard=1 only).
	Deleted string `json:"deleted,omitempty"`
	OK      bool   `json:"ok"`
	Version int64  `json:"version"`
}

// CaseList is GET /api/cases and the answer of PATCH /api/cases.
type CaseList struct {
	Cases   []Case `json:"cases"`
	Version int64  `json:"version"`
}

// CaseDetail is GET /api/cases/{id}: the node with the messages, events and
// reminders linked to it and the human's manual actions on it.
type CaseDetail struct {
	Case          Case       `json:"case"`
	Events        []Event    `json:"events"`
	ManualActions []Activity `json:"manualActions"`
	Messages      []Message  `json:"messages"`
	Reminders     []Reminder `json:"reminders"`
	Version       int64      `json:"version"`
}

// CaseReply is the answer of a write to one node: create, patch, archive,
// restore, and merge (the merge target).
type CaseReply struct {
	Case Case `json:"case"`
	// Existing is set when a deduplicated create found an exact match.
	Existing bool `json:"existing,omitempty"`
	// Trust is set on a merge: what the trust push over the target did.
	Trust   *TrustPush `json:"trust,omitempty"`
	Version int64      `json:"version"`
}

// CaseClean is the body of POST /api/cases/clean: the done cases in view.
type CaseClean struct {
	IDs   []string `json:"ids"`
	Actor string   `json:"actor,omitempty"`
}

// CleanReply is the answer of POST /api/cases/clean.
type CleanReply struct {
	MessagesRemoved int      `json:"messagesRemoved"`
	Removed         []string `json:"removed"`
	Version         int64    `json:"version"`
}

// CaseMerge is the body of POST /api/cases/{id}/merge: the node {id} is
// merged into TargetID.
type CaseMerge struct {
	TargetID string `json:"targetId"`
	Actor    string `json:"actor,omitempty"`
}

// TaskCreate is the body of POST /api/cases/{id}/tasks.
type TaskCreate struct {
	TaskInput
	Actor string `json:"actor,omitempty"`
}

// TaskReply is the answer of a task create or patch.
type TaskReply struct {
	// Next is the task a completion of a repeating task added to the case.
	Next    *Task `json:"next,omitempty"`
	Task    Task  `json:"task"`
	Version int64 `json:"version"`
}

// NoteCreate is the body of POST /api/cases/{id}/notes.
type NoteCreate struct {
	Text  string `json:"text"`
	Actor string `json:"actor,omitempty"`
}

// NoteReply is the answer of POST /api/cases/{id}/notes.
type NoteReply struct {
	Note    Note  `json:"note"`
	Version int64 `json:"version"`
}

// Rollup summarizes a node's non-archived descendant leaf cases at any depth.
type Rollup struct {
	TotalCases int     `json:"totalCases"`
	DoneCases  int     `json:"doneCases"`
	TotalTasks int     `json:"totalTasks"`
	DoneTasks  int     `json:"doneTasks"`
	Ratio      float64 `json:"ratio"`
	ChildCount int     `json:"childCount"`
}

// TreeNode is a case node with its children and its rollup.
type TreeNode struct {
	Case
	Children []*TreeNode `json:"children"`
	Rollup   Rollup      `json:"rollup"`
}

// TreeReply is GET /api/tree: the forest of nodes in stored order.
type TreeReply struct {
	Tree    []*TreeNode `json:"tree"`
	Version int64       `json:"version"`
}

// ActivityEntry is one row of the Activity feed: a case's activity entry,
// or a row made from a reminder's or an event's lifecycle, which names it.
type ActivityEntry struct {
	Activity
	Category   string `json:"category"`
	CaseID     string `json:"caseId"`
	CaseTitle  string `json:"caseTitle"`
	ReminderID string `json:"reminderId,omitempty"`
	EventID    string `json:"eventId,omitempty"`
}

// ActivityFeed is GET /api/activity, newest first.
type ActivityFeed struct {
	Activity []ActivityEntry `json:"activity"`
	Version  int64           `json:"version"`
}
