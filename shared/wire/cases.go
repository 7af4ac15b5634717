package wire

// The replies below carry records as values: the board copies its stored
// records into them (a shallow copy), so one type serves the board, which
// encodes it, and the client, which decodes it. Their fields are declared in
// the order of their JSON names, the order the board has always written.

// ActorOnly is the body of a write that takes nothing but who made it (the
// DELETE routes, POST /api/cases/{id}/restore). The body may be absent.
type ActorOnly struct {
	Actor Actor `json:"actor,omitempty"`
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
	Actor Actor    `json:"actor,omitempty"`
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
	Actor    Actor  `json:"actor,omitempty"`
}

// TaskCreate is the body of POST /api/cases/{id}/tasks.
type TaskCreate struct {
	TaskInput
	Actor Actor `json:"actor,omitempty"`
}

// TaskReply is the answer of a task create or patch.
type TaskReply struct {
	// Existing is true when an agent's create found an open task of the
	// same title on the case: the answer is that task, nothing was written.
	Existing bool `json:"existing,omitempty"`
	// Next is the task a completion of a repeating task added to the case.
	Next    *Task `json:"next,omitempty"`
	Task    Task  `json:"task"`
	Version int64 `json:"version"`
}

// NoteCreate is the body of POST /api/cases/{id}/notes.
type NoteCreate struct {
	Text  string `json:"text"`
	Actor Actor  `json:"actor,omitempty"`
}

// NoteReply is the answer of POST /api/cases/{id}/notes.
type NoteReply struct {
	// Existing is true when an agent's create found a note of the same
	// text on the case: the answer is that note, nothing was written.
	Existing bool  `json:"existing,omitempty"`
	Note     Note  `json:"note"`
	Version  int64 `json:"version"`
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
	// Version is the write that made the row, while undo still reaches it
	// (POST /api/undo); 0 for an older row.
	Version int64 `json:"version,omitempty"`
}

// ActivityFeed is GET /api/activity, newest first. NextCursor is set on a
// paged call (cursor given, or view=summary): the cursor of the next page,
// "" on the last. With view=summary each row's detail is cut to one line
// (SummaryDetailMax characters), as the feed's rows show it.
type ActivityFeed struct {
	Activity   []ActivityEntry `json:"activity"`
	NextCursor *string         `json:"nextCursor,omitempty"`
	Version    int64           `json:"version"`
}

// CaseSummary is a case node as a list row or a kanban card shows it: the
// record without its notes, activity, vault links and task list, with the
// task counts the card shows instead. It is a type of its own, not a Case
// with those fields left empty, so that no reader can take a summary's
// missing tasks for a case without tasks: the full record is GET
// /api/cases/{id}.
type CaseSummary struct {
	ID         string   `json:"id"`
	Title      string   `json:"title"`
	Summary    string   `json:"summary,omitempty"`
	Status     Lane     `json:"status"`
	Domain     Domain   `json:"domain"`
	Tags       []string `json:"tags,omitempty"`
	Labels     []string `json:"labels,omitempty"`
	Eta        string   `json:"eta,omitempty"`
	DueAt      string   `json:"dueAt,omitempty"`
	Kind       Kind     `json:"kind"`
	ParentID   string   `json:"parentId,omitempty"`
	Starred    bool     `json:"starred,omitempty"`
	ArchivedAt string   `json:"archivedAt,omitempty"`
	MergedInto string   `json:"mergedInto,omitempty"`
	Position   *float64 `json:"position,omitempty"`
	CreatedAt  string   `json:"createdAt"`
	UpdatedAt  string   `json:"updatedAt"`
	// TaskCount and TasksDone are the checklist's size and its completed
	// tasks; NoteCount the notes the full record holds.
	TaskCount int `json:"taskCount"`
	TasksDone int `json:"tasksDone"`
	NoteCount int `json:"noteCount"`
}

// CaseSummaryList is GET /api/cases?view=summary.
type CaseSummaryList struct {
	Cases   []CaseSummary `json:"cases"`
	Version int64         `json:"version"`
}

// TreeSummaryNode is a tree node as GET /api/tree?view=summary gives it.
type TreeSummaryNode struct {
	CaseSummary
	Children []*TreeSummaryNode `json:"children"`
	Rollup   Rollup             `json:"rollup"`
}

// TreeSummaryReply is GET /api/tree?view=summary.
type TreeSummaryReply struct {
	Tree    []*TreeSummaryNode `json:"tree"`
	Version int64              `json:"version"`
}
