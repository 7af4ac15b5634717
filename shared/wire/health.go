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
	// Timezone is the board's IANA zone: a date or time stored without an
	// offset is a wall-clock time there.
	Timezone string `json:"timezone,omitempty"`
	// Vault counts the vault's pages; absent until the board has a vault.
	Vault   *VaultHealth `json:"vault,omitempty"`
	Version int64        `json:"version"`
}
