package wire

// ConnectServer is one agent tool server as the first-run panel shows it:
// where its binary is on this machine and whether it is built yet.
type ConnectServer struct {
	// Env is what the server needs in its environment to reach its
	// backend (the board's address for the board and calendar servers).
	Env    map[string]string `json:"env,omitempty"`
	Exists bool              `json:"exists"`
	Name   string            `json:"name"`
	Path   string            `json:"path"`
}

// Connect is GET /api/connect: what a person pastes into an MCP client to
// give the agent this board.
type Connect struct {
	BoardURL string          `json:"boardUrl"`
	Servers  []ConnectServer `json:"servers"`
}
