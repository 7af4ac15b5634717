package wire

// Health is GET /api/health. Degraded is set, with its Problems, when the
// board serves its last good state (a hand edit that does not parse, a
// failing disk).
type Health struct {
	Degraded      bool     `json:"degraded"`
	OK            bool     `json:"ok"`
	Problems      []string `json:"problems"`
	Release       string   `json:"release"`
	SchemaVersion int      `json:"schemaVersion"`
	StorePath     string   `json:"storePath"`
	Version       int64    `json:"version"`
}
