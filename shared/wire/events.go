package wire

// EventCreate is the body of POST /api/events.
type EventCreate struct {
	Title       string `json:"title"`
	Date        string `json:"date"`
	AllDay      bool   `json:"allDay,omitempty"`
	StartTime   string `json:"startTime,omitempty"`
	EndTime     string `json:"endTime,omitempty"`
	Description string `json:"description,omitempty"`
	Location    string `json:"location,omitempty"`
	CaseID      string `json:"caseId,omitempty"`
	Domain      string `json:"domain,omitempty"`
	// Dedupe answers with an exact existing match (same normalized title,
	// date and start time) instead of creating a second event.
	Dedupe bool   `json:"dedupe,omitempty"`
	Actor  string `json:"actor,omitempty"`
}

// EventPatch is the body of PATCH /api/events/{id}. A null or empty caseId
// unlinks; a null optional text field clears it.
type EventPatch struct {
	Title           Opt[string] `json:"title,omitzero"`
	Date            Opt[string] `json:"date,omitzero"`
	AllDay          Opt[bool]   `json:"allDay,omitzero"`
	StartTime       Opt[string] `json:"startTime,omitzero"`
	EndTime         Opt[string] `json:"endTime,omitzero"`
	Description     Opt[string] `json:"description,omitzero"`
	Location        Opt[string] `json:"location,omitzero"`
	CaseID          Opt[string] `json:"caseId,omitzero"`
	Domain          Opt[string] `json:"domain,omitzero"`
	ExpectedVersion *int64      `json:"expectedVersion,omitempty"`
	Actor           string      `json:"actor,omitempty"`
}

// EventList is GET /api/events.
type EventList struct {
	Events  []Event `json:"events"`
	Version int64   `json:"version"`
}

// EventReply is the answer about one event: GET /api/events/{id}, a create
// and a patch.
type EventReply struct {
	Event Event `json:"event"`
	// Existing is set when a deduplicated create found an exact match.
	Existing bool  `json:"existing,omitempty"`
	Version  int64 `json:"version"`
}
