package wire

// ErrorReply is the body of every 4xx and 5xx answer of the board: one
// message that names the problem (the field, the id, the route).
type ErrorReply struct {
	Error string `json:"error"`
}
