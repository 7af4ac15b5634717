package wire

// MessageCreate is the body of POST /api/messages: a message, linked to a
// case, a reminder, both or neither.
type MessageCreate struct {
	MessageInput
	CaseID     string `json:"caseId,omitempty"`
	ReminderID string `json:"reminderId,omitempty"`
}

// MessageBatch is the batch form of POST /api/messages: up to
// MaxMessageBatch messages written at once, all or none. A bulk writer
// (the mail ingest) pays one durable write per batch instead of one per
// mail.
type MessageBatch struct {
	Messages []MessageCreate `json:"messages"`
	Actor    Actor           `json:"actor,omitempty"`
}

// MessageBatchItem is what the batch did with one of its messages, at the
// message's index: created, or Existing (the record the board already
// held; nothing written for it).
type MessageBatchItem struct {
	Existing bool    `json:"existing,omitempty"`
	Message  Message `json:"message"`
}

// MessageBatchReply answers the batch form of POST /api/messages: one
// result per message, in the order sent, and the version after the write
// (the current one when every message was already held).
type MessageBatchReply struct {
	Results []MessageBatchItem `json:"results"`
	// Trust is set when the batch linked messages to nodes and the board
	// pushed the senders it derived to the guard.
	Trust   *TrustPush `json:"trust,omitempty"`
	Version int64      `json:"version"`
}
