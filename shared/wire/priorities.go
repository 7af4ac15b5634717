package wire

import "encoding/json"

// PriorityCreate is the body of POST /api/priorities.
type PriorityCreate struct {
	Text     string   `json:"text"`
	Position *float64 `json:"position,omitempty"`
	Actor    Actor    `json:"actor,omitempty"`
}

// PriorityPatch is the body of PATCH /api/priorities/{id}. Position is kept
// raw because any non-number (null, a string, ...) clears it.
type PriorityPatch struct {
	Text            Opt[string]          `json:"text,omitzero"`
	Position        Opt[json.RawMessage] `json:"position,omitzero"`
	ExpectedVersion *int64               `json:"expectedVersion,omitempty"`
	Actor           Actor                `json:"actor,omitempty"`
	// Override lets an agent write through the person's change; the page
	// and a person's HTTP call may set it, the agent's tools never do.
	Override bool `json:"override,omitempty"`
}

// PriorityList is GET /api/priorities: the notes in order, then the starred
// nodes by tier and recency.
type PriorityList struct {
	Priorities []Priority `json:"priorities"`
	Starred    []Case     `json:"starred"`
	Version    int64      `json:"version"`
}

// PriorityReply is the answer of a priority note create or patch.
type PriorityReply struct {
	// Existing is true when an agent's create found a priority note of the
	// same text: the answer is that note, nothing was written.
	Existing bool     `json:"existing,omitempty"`
	Priority Priority `json:"priority"`
	Version  int64    `json:"version"`
}
