package wire

// MessageList is GET /api/messages.
type MessageList struct {
	Messages []Message `json:"messages"`
	Version  int64     `json:"version"`
}

// MessageReply is the answer of a message create or patch.
type MessageReply struct {
	Message Message `json:"message"`
	Version int64   `json:"version"`
}

// UnreadCount is GET /api/unread-count.
type UnreadCount struct {
	Count   int   `json:"count"`
	Version int64 `json:"version"`
}
