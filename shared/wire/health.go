package wire

// Health is GET /api/health. Degraded is set, with its Problems, when the
// board serves its last good state (a hand edit that does not parse, a
// failing disk).
type Health struct {
	Degraded bool `json:"degraded"`
	// Guard is the guard sidecar as the board sees it; absent when the
	// board has no guard address.
	Guard         *GuardHealthLine `json:"guard,omitempty"`
	OK            bool             `json:"ok"`
	Problems      []string         `json:"problems"`
	Release       string           `json:"release"`
	SchemaVersion int              `json:"schemaVersion"`
	StorePath     string           `json:"storePath"`
	Version       int64            `json:"version"`
}
