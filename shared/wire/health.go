package wire

// Health is GET /api/health. Degraded is set, with its Problems, when the
// board serves its last good state (a hand edit that does not parse, a
// failing disk).
type Health struct {
	Degraded bool `json:"degraded"`
	// Guard is the guard sidecar as the board sees it; absent when the
	// board has no guard address.
	Guard *GuardHealthLine `json:"guard,omitempty"`
	// Ingest is the daemon's scheduled mail ingest; absent when it has none.
	Ingest        *IngestHealth `json:"ingest,omitempty"`
	OK            bool          `json:"ok"`
	Problems      []string      `json:"problems"`
	Release       string        `json:"release"`
	SchemaVersion int           `json:"schemaVersion"`
	StorePath     string        `json:"storePath"`
	// Timezone is the board's IANA zone: a date or time stored without an
	// offset is a wall-clock time there.
	Timezone string `json:"timezone,omitempty"`
	// Vault counts the vault's pages; absent until the board has a vault.
	Vault   *VaultHealth `json:"vault,omitempty"`
	Version int64        `json:"version"`
}

// IngestHealth is the daemon's own mail ingest: each source as its last
// run left it. A failing source is reported here and never makes the board
// degraded, which is about the board's own data.
type IngestHealth struct {
	Sources []IngestSourceHealth `json:"sources"`
}

// IngestSourceHealth is one mail source: when it was last read to its end
// (RFC 3339; "" when never since the daemon started) and the error of its
// last run ("" when that run succeeded or none ran yet).
type IngestSourceHealth struct {
	LastError string `json:"lastError"`
	LastOKAt  string `json:"lastOkAt"`
	Name      string `json:"name"`
}
