package wire

import "encoding/json"

// ErrorReply is the body of every 4xx and 5xx answer of the board: one
// message that names the problem (the field, the id, the route).
type ErrorReply struct {
	// Conflicts are the later writes that refuse an undo (see UndoConflict).
	Conflicts []UndoConflict `json:"conflicts,omitempty"`
	Error     string         `json:"error"`
	// HumanChange names the person's recent change an agent write would
	// have reverted (a 400 the agent should answer with a proposal).
	HumanChange *HumanChange `json:"humanChange,omitempty"`
	// IdempotencyKey is the key a 409 refused because it came back with
	// another body: the one 409 that is not a version conflict.
	IdempotencyKey string `json:"idempotencyKey,omitempty"`
}

// HumanChange is a field the person changed, by whom and when, and the
// value of theirs that stands.
type HumanChange struct {
	Field string          `json:"field"`
	Actor Actor           `json:"actor"`
	TS    string          `json:"ts"`
	Value json.RawMessage `json:"value"`
}
