package wire

// MessageList is GET /api/messages. NextCursor is set on a paged call
// (limit or cursor given): the cursor of the next page, "" on the last.
type MessageList struct {
	Messages   []Message `json:"messages"`
	NextCursor *string   `json:"nextCursor,omitempty"`
	Version    int64     `json:"version"`
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
