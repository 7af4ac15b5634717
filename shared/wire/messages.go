package wire

// MessageList is GET /api/messages. NextCursor is set on a paged call
// (limit or cursor given): the cursor of the next page, "" on the last.
type MessageList struct {
	Messages   []Message `json:"messages"`
	NextCursor *string   `json:"nextCursor,omitempty"`
	Version    int64     `json:"version"`
}

// MessageSummary is a message as an inbox row shows it: no body, no cc,
// url or Message-ID. Preview is the message's preview, or the start of its
// body when it has none (PreviewMax characters). Like CaseSummary it is a
// type of its own, so an absent body is never read as an empty one; the
// full record is GET /api/messages/{id}.
type MessageSummary struct {
	ID         string    `json:"id"`
	Source     string    `json:"source,omitempty"`
	From       string    `json:"from,omitempty"`
	To         Addresses `json:"to,omitempty"`
	Subject    string    `json:"subject,omitempty"`
	Preview    string    `json:"preview,omitempty"`
	ReceivedAt string    `json:"receivedAt,omitempty"`
	Read       bool      `json:"read"`
	CaseID     string    `json:"caseId,omitempty"`
	ReminderID string    `json:"reminderId,omitempty"`
	Outbound   bool      `json:"outbound,omitempty"`
	ThreadID   string    `json:"threadId,omitempty"`
	Scan       string    `json:"scan,omitempty"`
	Entities   []string  `json:"entities,omitempty"`
}

// MessageSummaryList is GET /api/messages?view=summary.
type MessageSummaryList struct {
	Messages   []MessageSummary `json:"messages"`
	NextCursor *string          `json:"nextCursor,omitempty"`
	Version    int64            `json:"version"`
}

// MessageDetail is GET /api/messages/{id}: the whole message.
type MessageDetail struct {
	Message Message `json:"message"`
	Version int64   `json:"version"`
}

// MessageReply is the answer of a message create or patch.
type MessageReply struct {
	// Existing is true when the board already held this mail (same
	// Message-ID, or same sender, recipients, date and body): the answer is
	// that record and nothing was written.
	Existing bool    `json:"existing,omitempty"`
	Message  Message `json:"message"`
	// Trust is set when the write linked the message to a node and the
	// board pushed the senders it derived to the guard.
	Trust   *TrustPush `json:"trust,omitempty"`
	Version int64      `json:"version"`
}

// UnreadCount is GET /api/unread-count.
type UnreadCount struct {
	Count   int   `json:"count"`
	Version int64 `json:"version"`
}

// IngestRunReply is the answer of POST /api/ingest-runs.
type IngestRunReply struct {
	Run     IngestRun `json:"run"`
	Version int64     `json:"version"`
}
