package wire

// MessageCreate is the body of POST /api/messages: a message, linked to a
// case, a reminder, both or neither.
type MessageCreate struct {
	MessageInput
	CaseID     string `json:"caseId,omitempty"`
	ReminderID string `json:"reminderId,omitempty"`
}
