package wire

// The board's side of the guard: the envelopes of its proxy routes, the
// trust push a link reports, and the guard's line in /api/health.

// GuardState is how /api/health sees the guard sidecar.
type GuardState string

const (
	GuardOn          GuardState = "on"          // enabled, screening with a model
	GuardOff         GuardState = "off"         // reachable, switched off
	GuardDegraded    GuardState = "degraded"    // enabled, the heuristic only
	GuardUnreachable GuardState = "unreachable" // no usable answer
)

// GuardHealthLine is the guard in GET /api/health.
type GuardHealthLine struct {
	State      GuardState `json:"state"`
	URL        string     `json:"url"`
	Classifier string     `json:"classifier,omitempty"`
	Reason     string     `json:"reason,omitempty"` // why it is unreachable
}

// Offline marks a proxy read answered without the sidecar: the lists are
// empty and Reason names the address that did not answer.
type Offline struct {
	Offline bool   `json:"offline,omitempty"`
	Reason  string `json:"offlineReason,omitempty"`
}

// GuardConfigView is GET and POST /api/guard/config: the sidecar's
// configuration and the board's principal address, which the trust
// derivation needs.
type GuardConfigView struct {
	GuardConfig
	Offline
	URL string `json:"url"` // the sidecar the board calls
	// Principal is the person's own address; PrincipalFromEnv says it is
	// fixed by SVC_PRINCIPAL_EMAIL rather than the principalEmail setting.
	Principal        string `json:"principal"`
	PrincipalFromEnv bool   `json:"principalFromEnv,omitempty"`
}

// GuardModelsView is GET /api/guard/models.
type GuardModelsView struct {
	GuardModels
	Offline
}

// TrustListView is GET /api/trust.
type TrustListView struct {
	TrustList
	Offline
}

// QuarantineListView is GET /api/quarantine.
type QuarantineListView struct {
	QuarantineList
	Offline
}

// QuarantineAction is the body of PATCH /api/quarantine/{id}: a person's
// Release or Dismiss (the mail sweep marks replays on the sidecar itself).
type QuarantineAction struct {
	Status *QuarantineStatus `json:"status,omitempty"`
	Note   *string           `json:"note,omitempty"`
	Actor  Actor             `json:"actor,omitempty"`
}

// TrustUpsertInput is the body of POST /api/trust.
type TrustUpsertInput struct {
	TrustUpsert
	Actor Actor `json:"actor,omitempty"`
}

// GuardConfigInput is the body of POST /api/guard/config.
type GuardConfigInput struct {
	GuardConfigPatch
	Actor Actor `json:"actor,omitempty"`
}

// TrustPush is what a link's trust derivation did: the addresses the guard
// accepted (each with ifAbsent, so a person's block stands), and why the
// rest were not pushed when the sidecar could not be reached.
type TrustPush struct {
	Pushed []string `json:"pushed"`
	Error  string   `json:"error,omitempty"`
}
