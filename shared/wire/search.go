package wire

// SearchHit is one ranked object of POST /api/search. Exactly one projection is set: the full case
// record for a case; for a task its ids, titles, detail and dates; for a
// message its header fields and preview (not the body); for a reminder
// exactly {id, title, status, dueAt, domain, caseId, labels, detail}.
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
