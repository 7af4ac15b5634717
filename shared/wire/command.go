package wire

// CommandInput is the body of POST /api/command.
type CommandInput struct {
	Text  string `json:"text"`
	Actor Actor  `json:"actor,omitempty"`
}

// CommandReply is the answer of POST /api/command. Href is a page path to
// open; Version is present when the command wrote.
type CommandReply struct {
	Message string         `json:"message"`
	Href    string         `json:"href,omitempty"`
	Results *SearchResults `json:"results,omitempty"`
	Version int64          `json:"version,omitempty"`
}
