package wire

// SearchHit is one ranked object of POST /api/search. Exactly one projection is set: the full case
// record for a case; for a task its ids, titles, detail and dates; for a
// message its header fields and preview (not the body); for a reminder
// exactly {id, title, status, dueAt, domain, caseId, labels, detail}; for a
// vault page its summary (the body stays out).
type SearchHit struct {
	Type     string              `json:"type"`
	ID       string              `json:"id"`
	CaseID   *string             `json:"caseId"` // the owning case; null when none
	Score    float64             `json:"score"`
	Cosine   float64             `json:"cosine"`
	Why      []string            `json:"why"`
	Snippet  string              `json:"snippet"`
	Case     *Case               `json:"case,omitempty"`
	Task     *TaskProjection     `json:"task,omitempty"`
	Message  *MessageProjection  `json:"message,omitempty"`
	Reminder *ReminderProjection `json:"reminder,omitempty"`
	Page     *PageSummary        `json:"page,omitempty"`
}

// TaskProjection is what a task hit shows: enough to act on the task and
// to name its case without a second call.
type TaskProjection struct {
	ID          string `json:"id"`
	CaseID      string `json:"caseId"`
	CaseTitle   string `json:"caseTitle"`
	Title       string `json:"title"`
	Detail      string `json:"detail,omitempty"`
	CompletedAt string `json:"completedAt,omitempty"`
	DueAt       string `json:"dueAt,omitempty"`
}

// MessageProjection is a message hit's header: who, what, when, where it
// is linked; the body stays out of search answers.
type MessageProjection struct {
	ID         string `json:"id"`
	Subject    string `json:"subject"`
	From       string `json:"from"`
	ReceivedAt string `json:"receivedAt,omitempty"`
	CaseID     string `json:"caseId,omitempty"`
	ReminderID string `json:"reminderId,omitempty"`
	Read       bool   `json:"read"`
	Outbound   bool   `json:"outbound,omitempty"`
	Preview    string `json:"preview,omitempty"`
}

// ReminderProjection is what a reminder hit shows; every key is
// present, absent values as null (labels as an empty array).
type ReminderProjection struct {
	ID     string   `json:"id"`
	Title  string   `json:"title"`
	Status string   `json:"status"`
	DueAt  *string  `json:"dueAt"`
	Domain *string  `json:"domain"`
	CaseID *string  `json:"caseId"`
	Labels []string `json:"labels"`
	Detail *string  `json:"detail"`
}

// QueryResult is the ranking of one query, best first, at most k hits.
type QueryResult struct {
	Query string      `json:"query"`
	Hits  []SearchHit `json:"hits"`
}

// SearchEnvelope is the answer of POST /api/search.
type SearchEnvelope struct {
	Engine        string        `json:"engine"`   // semantic or keyword
	Embedder      string        `json:"embedder"` // the sidecar's embedder, or none
	IndexedDigest string        `json:"indexedDigest"`
	TookMs        float64       `json:"tookMs"`
	Results       []QueryResult `json:"results"`
	Merged        SearchResults `json:"merged"`
}

// SemanticSearchRequest is the body of the search sidecar's POST /search:
// the queries, how many candidates per query (0: the sidecar's default),
// and the board's filters, so the sidecar's top candidates are ones the
// board can use.
type SemanticSearchRequest struct {
	Queries         []string `json:"queries"`
	Limit           int      `json:"limit,omitempty"`
	Types           []string `json:"types,omitempty"`
	Domain          string   `json:"domain,omitempty"`
	Status          string   `json:"status,omitempty"`
	IncludeArchived bool     `json:"includeArchived,omitempty"`
}

// SemanticSearchReply is the search sidecar's answer to POST /search: which
// embedder ranked, over which indexed content, and per query its hits.
type SemanticSearchReply struct {
	Engine        string           `json:"engine"` // always "semantic"
	Embedder      string           `json:"embedder"`
	Dim           int              `json:"dim"`
	IndexedDigest string           `json:"indexedDigest"`
	Docs          int              `json:"docs"`
	TookMs        float64          `json:"tookMs"`
	Results       []SemanticResult `json:"results"`
}

// SemanticResult is the sidecar's ranking of one query, best first.
type SemanticResult struct {
	Query string        `json:"query"`
	Hits  []SemanticHit `json:"hits"`
}

// SemanticHit is one document and its cosine with the query. Cosine is a
// pointer so a reader can tell a hit without one from a cosine of 0.
type SemanticHit struct {
	ID     string   `json:"id"`
	Type   string   `json:"type"`
	CaseID *string  `json:"caseId"` // the owning case; null when none
	Cosine *float64 `json:"cosine"`
}

// SearchResults is the answer of a substring scan over cases, tasks,
// messages and reminders: GET /api/search, the merged view of POST
// /api/search and the command bar's find. Pages are the vault pages that
// matched, absent when none did (a board without a vault answers as
// before).
type SearchResults struct {
	Cases     []*Case       `json:"cases"`
	Tasks     []CaseTask    `json:"tasks"`
	Messages  []*Message    `json:"messages"`
	Reminders []*Reminder   `json:"reminders"`
	Pages     []PageSummary `json:"pages,omitempty"`
}

// CaseTask is a task with the case that holds it.
type CaseTask struct {
	CaseID string `json:"caseId"`
	Task   Task   `json:"task"`
}
